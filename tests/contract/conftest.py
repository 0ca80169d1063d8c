"""The `storage` fixture: every contract test runs once per adapter in STORAGE_FACTORIES.

moto lacks S3 Vectors' QueryVectors: `s3vectors_query.py` answers it from moto's vectors.
To run the suite against another adapter, add one entry: a context-manager factory that
takes a fresh temporary directory and yields an empty storage (e.g. inside `mock_aws()`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from unittest import mock

import pytest
from moto import mock_aws

from shared.config import Settings
from shared.storage.aws import AwsClients, make_clients
from shared.storage.dynamo import DynamoStorage, RoundTrips, bootstrap
from shared.storage.port import StoragePort
from shared.storage.sqlite import SqliteStorage
from tests.contract.s3vectors_query import emulate_query_vectors

StorageFactory = Callable[[Path], AbstractContextManager[StoragePort]]


@contextmanager
def _sqlite_storage(tmp_path: Path) -> Iterator[StoragePort]:
    storage = SqliteStorage(tmp_path / "contract.sqlite3")
    try:
        yield storage
    finally:
        storage.close()


# moto in-process: fake credentials and a fixed region; never a real endpoint or profile.
_MOTO_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "eu-central-1",
    "AWS_REGION": "eu-central-1",
}
_MOTO_UNSET = (
    "AWS_ENDPOINT_URL",
    "AWS_ENDPOINT_URL_DYNAMODB",
    "AWS_ENDPOINT_URL_S3",
    "AWS_PROFILE",
)
_moto_clients: list[AwsClients] = []  # created once: client creation dominates test time


@contextmanager
def _dynamodb_storage(tmp_path: Path) -> Iterator[StoragePort]:
    with mock.patch.dict(os.environ, _MOTO_ENV), mock_aws():
        for name in _MOTO_UNSET:
            os.environ.pop(name, None)
        if not _moto_clients:
            _moto_clients.append(make_clients(Settings()))
            emulate_query_vectors(_moto_clients[0].s3vectors)
        clients = _moto_clients[0]
        bootstrap(clients, "brain-contract", "brain-contract-embeddings")
        # Serial: moto is not thread-safe. No real sleeping on retries.
        storage = DynamoStorage(
            clients,
            table_name="brain-contract",
            bucket_name="brain-contract-embeddings",
            round_trips=RoundTrips.serial(),
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
