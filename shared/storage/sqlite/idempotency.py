"""Powertools' idempotency persistence layer on the local SQLite file.

The same state machine as on AWS (Powertools' `IdempotencyHandler`), the same conditions as
its DynamoDB layer: a record may be (re)written when it does not exist, when it expired, or
when it is INPROGRESS and its in-progress expiry has passed; otherwise the existing record
comes back in `IdempotencyItemAlreadyExistsError`. The check and the write are one
`BEGIN IMMEDIATE` transaction, so two processes or threads never both win.

`brain serve` owns its data directory: records left INPROGRESS by a process that died
(SIGKILL) are released when the next server starts (`release_in_progress`), so a resend
after a crash runs at once instead of waiting for the in-progress expiry.

Expired records (past the idempotency window) are purged as the server runs: every record
written removes at most `PURGE_PER_WRITE` expired ones in the same transaction (an index
on `expiration` finds them), so the table stays at about one window of calls and no call
pays for more than a few deletes. On DynamoDB the table's TTL does this.
"""

# SQL text is only ever built from this module's constants; every value is a bound parameter.
# ruff: noqa: S608

from __future__ import annotations

import sqlite3
import time
from typing import Any

from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyItemAlreadyExistsError,
    IdempotencyItemNotFoundError,
)
from aws_lambda_powertools.utilities.idempotency.persistence.base import BasePersistenceLayer
from aws_lambda_powertools.utilities.idempotency.persistence.datarecord import (
    STATUS_CONSTANTS,
    DataRecord,
)

from shared.storage.sqlite.base import SqliteBase

_COLUMNS = "id, status, expiration, in_progress_expiration, data, validation"
_INPROGRESS = STATUS_CONSTANTS["INPROGRESS"]
# Expired rows a write removes on its way (bounded work per call; more than it adds).
PURGE_PER_WRITE = 16


def purge_expired(
    conn: sqlite3.Connection, table: str, primary_key: str, column: str, before: int
) -> int:
    """Delete at most PURGE_PER_WRITE rows of `table` whose `column` is below `before`
    (table and column names are this package's constants)."""
    return int(
        conn.execute(
            f"DELETE FROM {table} WHERE ({primary_key}) IN (SELECT {primary_key} FROM {table}"
            f" WHERE {column} < ? LIMIT ?)",
            (before, PURGE_PER_WRITE),
        ).rowcount
    )


def _record(row: tuple[Any, ...]) -> DataRecord:
    return DataRecord(
        idempotency_key=row[0],
        status=row[1],
        expiry_timestamp=row[2],
        in_progress_expiry_timestamp=row[3],
        response_data=row[4] or "",
        payload_hash=row[5] or "",
    )


class SqliteIdempotencyLayer(BasePersistenceLayer):  # type: ignore[misc]
    """Idempotency records in the `idempotency_records` table of the storage's file."""

    def __init__(self, database: SqliteBase) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self._db = database

    def _get_record(self, idempotency_key: str) -> DataRecord:
        rows = self._db._read(
            f"SELECT {_COLUMNS} FROM idempotency_records WHERE id = ?", (idempotency_key,)
        )
        if not rows:
            raise IdempotencyItemNotFoundError
        return _record(tuple(rows[0]))

    def _put_record(self, data_record: DataRecord) -> None:
        now = time.time()
        with self._db._write() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM idempotency_records WHERE id = ?",
                (data_record.idempotency_key,),
            ).fetchone()
            if row is not None:
                old = _record(tuple(row))
                expired = old.expiry_timestamp is not None and old.expiry_timestamp < int(now)
                abandoned = (
                    row[1] == _INPROGRESS
                    and old.in_progress_expiry_timestamp is not None
                    and old.in_progress_expiry_timestamp < int(now * 1000)
                )
                if not expired and not abandoned:
                    raise IdempotencyItemAlreadyExistsError(old_data_record=old)
            conn.execute(
                f"INSERT OR REPLACE INTO idempotency_records ({_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    data_record.idempotency_key,
                    data_record.status,
                    data_record.expiry_timestamp,
                    data_record.in_progress_expiry_timestamp,
                    None,
                    data_record.payload_hash or None,
                ),
            )
            purge_expired(conn, "idempotency_records", "id", "expiration", int(now))

    def _update_record(self, data_record: DataRecord) -> None:
        with self._db._write() as conn:
            conn.execute(
                "UPDATE idempotency_records SET status = ?, expiration = ?, data = ? WHERE id = ?",
                (
                    data_record.status,
                    data_record.expiry_timestamp,
                    data_record.response_data,
                    data_record.idempotency_key,
                ),
            )

    def _delete_record(self, data_record: DataRecord) -> None:
        with self._db._write() as conn:
            conn.execute(
                "DELETE FROM idempotency_records WHERE id = ?", (data_record.idempotency_key,)
            )

    def release_in_progress(self) -> int:
        """At server start: drop INPROGRESS records (their process is gone) and expired
        ones. Returns how many INPROGRESS records were released."""
        with self._db._write() as conn:
            released = conn.execute(
                "DELETE FROM idempotency_records WHERE status = ?", (_INPROGRESS,)
            ).rowcount
            conn.execute(
                "DELETE FROM idempotency_records WHERE expiration < ?", (int(time.time()),)
            )
        return int(released)
