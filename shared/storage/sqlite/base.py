"""Connections, transactions and value conversions shared by the SQLite adapter's parts."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from shared.data_dir import create_private, make_private, prepare_data_dir
from shared.domain import EntryFailure, EntryFailureCode, MemoryId
from shared.storage.sqlite.schema import migrate

DATABASE_FILE_NAME = "brain.sqlite3"
BUSY_TIMEOUT_MS = 30_000

NOT_EXPIRED = "(expires_at IS NULL OR expires_at > ?)"


def memory_key(tenant: str, memory_id: MemoryId) -> tuple[str, str, int]:
    return tenant, memory_id.typ.value, memory_id.number


class Abort(Exception):
    """Raised inside a write transaction to roll it back and report one item's failure."""

    def __init__(self, failure: EntryFailure) -> None:
        super().__init__(failure.detail)
        self.failure = failure


def failure(code: EntryFailureCode, detail: str) -> Abort:
    return Abort(EntryFailure(code, detail))


# --- connections and transactions -------------------------------------------------------


class SqliteBase:
    """One database file; a connection per thread, created lazily."""

    def __init__(self, path: Path) -> None:
        self._path = Path(path)
        self._local = threading.local()
        self._closed = False
        # Private files: SQLite gives the WAL and shared-memory files the database's mode.
        if str(path) != ":memory:":
            create_private(self._path)
            make_private(Path(f"{self._path}-wal"), Path(f"{self._path}-shm"))
        self._init_schema()

    @classmethod
    def in_data_dir(cls, data_dir: Path) -> Self:
        """The storage in `data_dir/brain.sqlite3`, creating the directory if needed."""
        return cls(prepare_data_dir(Path(data_dir)) / DATABASE_FILE_NAME)

    @property
    def path(self) -> Path:
        return self._path

    def close(self) -> None:
        """Close the calling thread's connection and refuse further use of this instance.

        Connections of other threads are closed when those threads next touch the
        instance or when they end (their thread-local state is dropped).
        """
        self._closed = True
        self._close_local()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _close_local(self) -> None:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            self._local.conn = None
            conn.close()

    def _conn(self) -> sqlite3.Connection:
        if self._closed:
            self._close_local()
            raise sqlite3.ProgrammingError("SqliteStorage is closed")
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self._path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            try:
                conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
                conn.execute("PRAGMA foreign_keys = ON")
            except BaseException:
                conn.close()
                raise
            self._local.conn = conn
        return conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: BEGIN IMMEDIATE, COMMIT on success, ROLLBACK otherwise."""
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    @contextmanager
    def _snapshot(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: every statement inside sees the same snapshot."""
        conn = self._conn()
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        # fetchall: a half-read cursor would keep its read snapshot open.
        return self._conn().execute(sql, params).fetchall()

    def _init_schema(self) -> None:
        with self._write() as conn:
            migrate(conn, self._path)
