"""The `storage` fixture: every contract test runs once per adapter in STORAGE_FACTORIES.

To run the suite against another adapter, add one entry: a context-manager factory that
takes a fresh temporary directory and yields an empty storage (e.g. inside `mock_aws()`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

from shared.storage.port import StoragePort
from shared.storage.sqlite import SqliteStorage

StorageFactory = Callable[[Path], AbstractContextManager[StoragePort]]


@contextmanager
def _sqlite_storage(tmp_path: Path) -> Iterator[StoragePort]:
    storage = SqliteStorage(tmp_path / "contract.sqlite3")
    try:
        yield storage
    finally:
        storage.close()


STORAGE_FACTORIES: dict[str, StorageFactory] = {
    "sqlite": _sqlite_storage,
}


@pytest.fixture(params=list(STORAGE_FACTORIES), ids=list(STORAGE_FACTORIES))
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoragePort]:
    with STORAGE_FACTORIES[request.param](tmp_path) as adapter:
        yield adapter
