"""The `storage` fixture: every contract test runs once per adapter in STORAGE_FACTORIES.

DynamoDB runs on DynamoDB Local (`tests/dynamodb_local`), S3 Vectors on moto, whose missing
QueryVectors `s3vectors_query.py` answers from moto's vectors.
To run the suite against another adapter, add one entry: a context-manager factory that
takes a fresh temporary directory and yields an empty storage (e.g. inside `mock_aws()`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

from shared.storage.dynamo import DynamoStorage, RoundTrips, bootstrap
from shared.storage.port import StoragePort
from shared.storage.sqlite import SqliteStorage
from tests.dynamodb_local import local_aws

StorageFactory = Callable[[Path], AbstractContextManager[StoragePort]]


@contextmanager
def _sqlite_storage(tmp_path: Path) -> Iterator[StoragePort]:
    storage = SqliteStorage(tmp_path / "contract.sqlite3")
    try:
        yield storage
    finally:
        storage.close()


@contextmanager
def _dynamodb_storage(tmp_path: Path) -> Iterator[StoragePort]:
    """DynamoDB Local (an empty database per test) and S3 Vectors on moto."""
    with local_aws() as clients:
        bootstrap(clients, "brain-contract", "brain-contract-embeddings")
        # Serial: S3 Vectors on moto is not thread-safe. No real sleeping on retries.
        storage = DynamoStorage(
            clients,
            table_name="brain-contract",
            bucket_name="brain-contract-embeddings",
            round_trips=RoundTrips(),
            sleep=lambda _seconds: None,
        )
        try:
            yield storage
        finally:
            storage.close()


STORAGE_FACTORIES: dict[str, StorageFactory] = {
    "sqlite": _sqlite_storage,
    "dynamodb": _dynamodb_storage,
}


@pytest.fixture(params=list(STORAGE_FACTORIES), ids=list(STORAGE_FACTORIES))
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoragePort]:
    with STORAGE_FACTORIES[request.param](tmp_path) as adapter:
        yield adapter
