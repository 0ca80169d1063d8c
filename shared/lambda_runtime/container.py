"""What a Lambda container builds once and reuses: settings, AWS clients, the storage."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from aws_lambda_powertools import Logger, Metrics

from shared.config import Settings
from shared.logs import silence_payload_loggers
from shared.services.context import ServiceContext
from shared.storage.aws import AwsClients, build_dynamo_storage, make_clients
from shared.storage.dynamo.adapter import DynamoStorage

# Powertools reads POWERTOOLS_SERVICE_NAME / _LOG_LEVEL / _METRICS_NAMESPACE from the env.
logger = Logger(service="brain")
metrics = Metrics(namespace="Brain", service="brain")
silence_payload_loggers()


@dataclass(frozen=True)
class Container:
    settings: Settings
    clients: AwsClients
    storage: DynamoStorage
    context: ServiceContext


@cache
def container() -> Container:
    settings = Settings()
    clients = make_clients(settings)
    storage = build_dynamo_storage(settings, clients)
    return Container(settings, clients, storage, ServiceContext(storage, settings))


def reset() -> None:
    """Forget the container (tests: a fresh moto account per test)."""
    if container.cache_info().currsize:
        container().storage.close()
    container.cache_clear()
