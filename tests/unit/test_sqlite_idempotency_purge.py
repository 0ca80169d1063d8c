"""SQLite: expired idempotency records and entry-ID reservations are purged while the server
runs, a bounded number per write (on DynamoDB the table's TTL does this)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from shared.config import Settings
from shared.services.context import ServiceContext
from shared.storage.sqlite import SqliteStorage
from shared.storage.sqlite.idempotency import PURGE_PER_WRITE
from shared.tools.dispatch import call_tool
from tests.contract.test_retry_safe_tools import PRINCIPAL, insert, memory

EXPIRED = 2 * PURGE_PER_WRITE + 5
LIVE = 3


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[SqliteStorage]:
    storage = SqliteStorage(tmp_path / "purge.sqlite3")
    yield storage
    storage.close()


def counts(storage: SqliteStorage) -> tuple[int, int, int, int]:
    now = int(time.time())
    (row,) = storage._read(
        "SELECT (SELECT count(*) FROM idempotency_records WHERE expiration < ?),"
        " (SELECT count(*) FROM idempotency_records WHERE expiration >= ?),"
        " (SELECT count(*) FROM id_reservations WHERE expires_us < ?),"
        " (SELECT count(*) FROM id_reservations WHERE expires_us >= ?)",
        (now, now, now * 1_000_000, now * 1_000_000),
    )
    return tuple(row)  # type: ignore[return-value]


def test_each_write_purges_a_bounded_number_of_expired_rows(storage: SqliteStorage) -> None:
    # Given expired records and reservations of old calls, and live ones of recent calls
    now = int(time.time())
    with storage._write() as conn:
        for n in range(EXPIRED + LIVE):
            expiration = now - 10 if n < EXPIRED else now + 3600
            conn.execute(
                "INSERT INTO idempotency_records (id, status, expiration) VALUES (?, ?, ?)",
                (f"old-{n}", "COMPLETED", expiration),
            )
            conn.execute(
                "INSERT INTO id_reservations VALUES ('acme', ?, 'longterm', 0, 'f', ?, ?)",
                (f"old-{n}", 1000 + n, expiration * 1_000_000),
            )
    assert counts(storage) == (EXPIRED, LIVE, EXPIRED, LIVE)
    ctx = ServiceContext(storage, Settings())
    # When a retry-safe write runs
    assert call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(memory("A")))["erfolg"]
    # Then it removed at most PURGE_PER_WRITE expired rows of each kind, no live one, and
    # added its own record and reservation
    assert counts(storage) == (
        EXPIRED - PURGE_PER_WRITE,
        LIVE + 1,
        EXPIRED - PURGE_PER_WRITE,
        LIVE + 1,
    )
    # When more writes run, the expired rows are gone and every live one stays
    for n in range(2):
        call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(memory(f"B{n}")))
    assert counts(storage) == (0, LIVE + 3, 0, LIVE + 3)
