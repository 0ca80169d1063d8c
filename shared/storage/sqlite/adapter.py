"""The SQLite adapter: the parts composed, plus ID sequences and tags."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING

from shared.domain import CounterName, Memory
from shared.storage.sqlite.brain import BrainStore
from shared.storage.sqlite.calls import CallStore, reserve_in
from shared.storage.sqlite.ledger import LedgerStore
from shared.storage.sqlite.memories import MemoryStore
from shared.storage.sqlite.projects import ProjectStore
from shared.storage.sqlite.ratings import RatingStore
from shared.storage.sqlite.vectors import VectorStore
from shared.storage.values import dump

if TYPE_CHECKING:
    from shared.storage.port import StoragePort


class SqliteStorage(
    CallStore, MemoryStore, RatingStore, BrainStore, ProjectStore, LedgerStore, VectorStore
):
    """`StoragePort` on one SQLite file; safe to share between threads and processes."""

    def side_by_side[T](self, tasks: Sequence[Callable[[], T]]) -> list[T]:
        """Local calls cost no round trip: one after the other, in order."""
        return [task() for task in tasks]

    def deferring(self) -> AbstractContextManager[None]:
        """Every write finishes its work inside its own transaction: nothing to defer."""
        return nullcontext()

    def reserve_ids(self, tenant: str, counter: CounterName, count: int) -> range:
        if count < 1:
            raise ValueError(f"count must be >= 1, not {count}")
        with self._write() as conn:
            return reserve_in(conn, tenant, counter, count)

    def highest_id(self, tenant: str, counter: CounterName) -> int:
        rows = self._read(
            "SELECT value FROM counters WHERE tenant = ? AND name = ?",
            (tenant, CounterName(counter).value),
        )
        return int(rows[0][0]) if rows else 0

    def complete_memories(self, memories: Sequence[tuple[Memory, bytes | None]]) -> None:
        """Nothing to complete: a memory's row, postings, stats and embedding are written
        in one transaction (memories.py)."""

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
