"""The SQLite adapter: the parts composed, plus ID sequences and tags."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from shared.domain import CounterName
from shared.storage.sqlite.base import dump
from shared.storage.sqlite.brain import BrainStore
from shared.storage.sqlite.ledger import LedgerStore
from shared.storage.sqlite.memories import MemoryStore
from shared.storage.sqlite.projects import ProjectStore
from shared.storage.sqlite.ratings import RatingStore

if TYPE_CHECKING:
    from shared.storage.port import StoragePort


class SqliteStorage(MemoryStore, RatingStore, BrainStore, ProjectStore, LedgerStore):
    """`StoragePort` on one SQLite file; safe to share between threads and processes."""

    def reserve_ids(self, tenant: str, counter: CounterName, count: int) -> range:
        if count < 1:
            raise ValueError(f"count must be >= 1, not {count}")
        with self._write() as conn:
            rows = conn.execute(
                "INSERT INTO counters (tenant, name, value) VALUES (?, ?, ?)"
                " ON CONFLICT (tenant, name) DO UPDATE SET value = value + excluded.value"
                " RETURNING value",
                (tenant, CounterName(counter).value, count),
            ).fetchall()
        last = int(rows[0][0])
        return range(last - count + 1, last + 1)

    def ensure_tags(self, tenant: str, names: Sequence[str]) -> dict[str, str]:
        keys = list(dict.fromkeys(name.casefold() for name in names))
        if not keys:
            return {}
        with self._write() as conn:
            # In request order, so that within one call the first spelling wins as well.
            conn.executemany(
                "INSERT OR IGNORE INTO tags (tenant, name_key, name) VALUES (?, ?, ?)",
                [(tenant, name.casefold(), name) for name in names],
            )
            rows = conn.execute(
                "SELECT name_key, name FROM tags"
                " WHERE tenant = ? AND name_key IN (SELECT value FROM json_each(?))",
                (tenant, dump(keys)),
            ).fetchall()
        return {key: name for key, name in rows}


if TYPE_CHECKING:

    def _implements_port(storage: SqliteStorage) -> StoragePort:
        return storage
