"""The functions' Powertools Logger and Metrics (structured JSON logs, EMF metrics), one each
per process. Their own module, so that the router, which builds no container, gets them
without the storage stack."""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics

# Powertools reads POWERTOOLS_SERVICE_NAME / _LOG_LEVEL / _METRICS_NAMESPACE from the env.
logger = Logger(service="brain")
metrics = Metrics(namespace="Brain", service="brain")
