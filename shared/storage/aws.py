"""AWS clients for the DynamoDB + S3 Vectors adapter, created once per process.

Endpoint, region and credentials come from the standard AWS configuration (environment,
shared config files, the Lambda execution role): this module reads no environment itself.
Call `build_dynamo_storage` once (Lambda: at module import, outside the handler) and reuse
the storage; boto3 clients are thread-safe, and the storage's thread pool is created once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import boto3
from botocore.config import Config

from shared.config import Settings
from shared.storage.aws_clients import AwsClients
from shared.storage.dynamo.adapter import DynamoStorage
from shared.storage.dynamo.parallel import RoundTrips

if TYPE_CHECKING:
    from mypy_boto3_s3vectors import S3VectorsClient

# Connections beyond the adapter's own parallelism, for other threads sharing the clients.
_POOL_HEADROOM = 4


def client_config(settings: Settings) -> Config:
    return Config(
        retries={"mode": "standard", "max_attempts": settings.aws_max_attempts},
        max_pool_connections=settings.aws_max_parallel + _POOL_HEADROOM,
    )


class LazyClient:
    """A boto3 client built on first use. Building one costs as much as loading its service
    model: a Lambda function that never touches S3 Vectors (most reads) does not pay
    for it in its cold start. Thread-safe; attribute access goes to the real client."""

    def __init__(self, build: Callable[[], Any]) -> None:
        self._build = build
        self._client: Any = None
        self._lock = threading.Lock()

    def _get(self) -> Any:
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = self._build()
        return self._client

    def __getattr__(self, name: str) -> Any:
        return getattr(self._get(), name)


def make_clients(settings: Settings, session: boto3.session.Session | None = None) -> AwsClients:
    """One DynamoDB and one S3 Vectors client (built on first use) with standard retries and
    a pool sized for the adapter's parallelism. A fresh boto3 session unless one is given
    (sessions are not thread-safe; clients are, and the session is used once more for S3
    Vectors, under a lock)."""
    session = session if session is not None else boto3.session.Session()
    config = client_config(settings)
    vectors: S3VectorsClient = cast(
        "S3VectorsClient", LazyClient(lambda: session.client("s3vectors", config=config))
    )
    return AwsClients(dynamodb=session.client("dynamodb", config=config), s3vectors=vectors)


def build_dynamo_storage(settings: Settings, clients: AwsClients | None = None) -> DynamoStorage:
    """The production adapter: parallel round trips bounded by `settings.aws_max_parallel`."""
    return DynamoStorage(
        clients if clients is not None else make_clients(settings),
        table_name=settings.table_name,
        bucket_name=settings.bucket_name,
        round_trips=RoundTrips(settings.aws_max_parallel),
        rating_max_retries=settings.rating_max_retries,
        max_attempts=settings.aws_max_attempts,
    )
