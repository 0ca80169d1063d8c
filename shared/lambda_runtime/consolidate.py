"""The scheduled consolidation (EventBridge, issue 25): near-duplicate clusters merged.

The schedule's input names the tenants (`{"tenants": "a,b"}`, template parameter
`ConsolidationTenants`; empty: nothing to do); `"dry_run": true` (a manual invoke) lists
the clusters and writes nothing. Every step of a merge is safe to repeat
(services/consolidate.py), so the next run finishes what a cut-off run began. A run stops
starting areas a minute before the function's timeout (`MARGIN_MS`) and names what it did
not reach, instead of being killed (which EventBridge would answer with retries of the
whole run); tenants and areas are taken in an order rotated by the day, so the next days'
runs begin where this one could not go. No memory text is logged: counts and IDs only.
"""

from __future__ import annotations

from typing import Any, Final

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from shared.lambda_runtime.container import container, logger, metrics, use_snapstart
from shared.services.consolidate import consolidate, rotated

use_snapstart()

MARGIN_MS: Final = 60_000


def tenants_of(event: dict[str, Any]) -> list[str]:
    raw = event.get("tenants", "")
    names = raw.split(",") if isinstance(raw, str) else raw if isinstance(raw, list) else []
    return sorted({name.strip() for name in names if isinstance(name, str) and name.strip()})


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    dry_run = event.get("dry_run") is True
    ctx = container().context
    day = ctx.clock().date().toordinal()

    def stop() -> bool:
        return context.get_remaining_time_in_millis() < MARGIN_MS

    answer: dict[str, Any] = {"trockenlauf": dry_run, "mandanten": {}}
    tenants = tenants_of(event)
    metrics.add_metric(name="ConsolidatedTenants", unit=MetricUnit.Count, value=len(tenants))
    for tenant in rotated(tenants, day):
        outcome = consolidate(ctx, tenant, dry_run=dry_run, stop=stop, start=day)
        summary = outcome.summary()
        answer["mandanten"][tenant] = summary
        metrics.add_metric(
            name="ConsolidatedRemoved", unit=MetricUnit.Count, value=summary["entfernt"]
        )
        logger.info(
            "consolidation",
            extra={
                "cluster": len(outcome.clusters),
                "entfernt": summary["entfernt"],
                "nicht_erreicht": len(outcome.not_reached),
            },
        )
    return answer
