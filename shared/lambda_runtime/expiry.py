"""The scheduled expiry sweep (EventBridge): bounded per run, safe to re-run."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from shared.lambda_runtime.container import container, logger, metrics, use_snapstart
from shared.services.context import utc_now
from shared.services.expiry import sweep_expired

use_snapstart()


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    deleted = sweep_expired(container().storage, utc_now())
    metrics.add_metric(name="ExpiredDeleted", unit=MetricUnit.Count, value=len(deleted))
    logger.info("expiry sweep", extra={"anzahl": len(deleted)})
    return {"geloescht": len(deleted)}
