"""What a Lambda container builds once and reuses: settings, AWS clients, the storage.

Under SnapStart the functions that use the container call `use_snapstart()`: the container is
built before the snapshot and rebuilt, with new clients, after each restore (snapstart.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from shared.config import Settings
from shared.embedding.factory import build_embedder
from shared.lambda_runtime.observability import logger, metrics
from shared.lambda_runtime.snapstart import aws_session, on_snapshot
from shared.logs import silence_payload_loggers
from shared.services.context import ServiceContext
from shared.storage.aws import build_dynamo_storage, make_clients
from shared.storage.aws_clients import AwsClients
from shared.storage.dynamo.adapter import DynamoStorage

__all__ = ["Container", "container", "logger", "metrics", "renew", "reset", "use_snapstart"]

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
    clients = make_clients(settings, aws_session())
    storage = build_dynamo_storage(settings, clients)
    embedder = build_embedder(settings)
    context = ServiceContext(storage, settings, embedder=embedder)
    return Container(settings, clients, storage, context)


def reset() -> None:
    """Forget the container (tests: a fresh moto account per test)."""
    if container.cache_info().currsize:
        container().storage.close()
    container.cache_clear()


def renew() -> None:
    """After a SnapStart restore: new AWS clients (credentials, connection pools) and a new
    storage (thread pool) in place of the ones in the snapshot, if any were built."""
    if container.cache_info().currsize:
        reset()
        container()


def prime() -> None:
    """Before the snapshot: the container with every storage part built (their modules
    imported), so that a restored environment imports nothing on its first call."""
    container().storage.prime()


def use_snapstart() -> None:
    """The calling function's container is part of its snapshot and renewed on restore."""
    on_snapshot("container", prime, renew)
