"""The SQLite adapter: the parts composed, plus ID sequences and tags."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING

from shared.domain import CounterName, MemoryId, ReservedId
from shared.storage.sqlite.base import dump, to_micros
from shared.storage.sqlite.brain import BrainStore
from shared.storage.sqlite.idempotency import SqliteIdempotencyLayer, purge_expired
from shared.storage.sqlite.ledger import LedgerStore
from shared.storage.sqlite.memories import MemoryStore
from shared.storage.sqlite.projects import ProjectStore
from shared.storage.sqlite.ratings import RatingStore
from shared.storage.sqlite.vectors import VectorStore

if TYPE_CHECKING:
    from shared.storage.port import StoragePort


class SqliteStorage(MemoryStore, RatingStore, BrainStore, ProjectStore, LedgerStore, VectorStore):
    """`StoragePort` on one SQLite file; safe to share between threads and processes."""

    def reserve_ids(self, tenant: str, counter: CounterName, count: int) -> range:
        if count < 1:
            raise ValueError(f"count must be >= 1, not {count}")
        with self._write() as conn:
            return self._reserve(conn, tenant, counter, count)

    def highest_id(self, tenant: str, counter: CounterName) -> int:
        rows = self._read(
            "SELECT value FROM counters WHERE tenant = ? AND name = ?",
            (tenant, CounterName(counter).value),
        )
        return int(rows[0][0]) if rows else 0

    @staticmethod
    def _reserve(conn: sqlite3.Connection, tenant: str, counter: CounterName, count: int) -> range:
        rows = conn.execute(
            "INSERT INTO counters (tenant, name, value) VALUES (?, ?, ?)"
            " ON CONFLICT (tenant, name) DO UPDATE SET value = value + excluded.value"
            " RETURNING value",
            (tenant, CounterName(counter).value, count),
        ).fetchall()
        last = int(rows[0][0])
        return range(last - count + 1, last + 1)

    def reserve_entry_ids(
        self,
        tenant: str,
        counter: CounterName,
        key: str,
        fingerprints: Sequence[tuple[int, str]],
        expires_at: datetime,
    ) -> dict[int, ReservedId]:
        if not fingerprints:
            return {}
        name = CounterName(counter).value
        expires_us = to_micros(expires_at)
        now_us = to_micros(datetime.now(expires_at.tzinfo))
        with self._write() as conn:
            conn.execute(  # an expired reservation is forgotten before it is looked at
                "DELETE FROM id_reservations WHERE tenant = ? AND rkey = ? AND counter = ?"
                " AND expires_us < ?",
                (tenant, key, name, now_us),
            )
            # and a few expired ones of other writes on the way (bounded work per call)
            purge_expired(
                conn, "id_reservations", "tenant, rkey, counter, idx", "expires_us", now_us
            )
            known = {
                int(idx): (fingerprint, int(number))
                for idx, fingerprint, number in conn.execute(
                    "SELECT idx, fingerprint, id FROM id_reservations"
                    " WHERE tenant = ? AND rkey = ? AND counter = ?",
                    (tenant, key, name),
                )
            }
            result: dict[int, ReservedId] = {}
            fresh = [
                (index, fingerprint)
                for index, fingerprint in fingerprints
                if known.get(index, ("", 0))[0] != fingerprint
            ]
            numbers = iter(self._reserve(conn, tenant, counter, len(fresh)) if fresh else ())
            for index, _ in fresh:
                result[index] = ReservedId(next(numbers), reused=False)
            conn.executemany(
                "INSERT OR REPLACE INTO id_reservations"
                " (tenant, rkey, counter, idx, fingerprint, id, expires_us)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (tenant, key, name, index, fingerprint, result[index].number, expires_us)
                    for index, fingerprint in fresh
                ],
            )
        for index, _ in fingerprints:
            if index not in result:
                result[index] = ReservedId(known[index][1], reused=True)
        return result

    def mark_write(
        self, tenant: str, key: str, marks: Sequence[str], expires_at: datetime
    ) -> frozenset[str]:
        now_us = to_micros(datetime.now(expires_at.tzinfo))
        with self._write() as conn:
            conn.execute(
                "DELETE FROM write_marks WHERE tenant = ? AND wkey = ? AND expires_us < ?",
                (tenant, key, now_us),
            )
            earlier = frozenset(
                mark
                for (mark,) in conn.execute(
                    "SELECT mark FROM write_marks WHERE tenant = ? AND wkey = ?", (tenant, key)
                )
            )
            conn.executemany(
                "INSERT OR IGNORE INTO write_marks (tenant, wkey, mark, expires_us)"
                " VALUES (?, ?, ?, ?)",
                [(tenant, key, mark, to_micros(expires_at)) for mark in dict.fromkeys(marks)],
            )
            purge_expired(conn, "write_marks", "tenant, wkey, mark", "expires_us", now_us)
        return earlier

    def complete_memories(self, tenant: str, embeddings: Mapping[MemoryId, bytes | None]) -> int:
        """Nothing to complete: a memory's row, postings, stats and embedding are written
        in one transaction (memories.py)."""
        return 0

    @cached_property
    def _idempotency_layer(self) -> SqliteIdempotencyLayer:
        return SqliteIdempotencyLayer(self)

    def idempotency_layer(self) -> SqliteIdempotencyLayer:
        return self._idempotency_layer

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
