"""Memories: rows and embeddings; create, replace, delete, the expiry sweep and reads.

The memory search index each write keeps in step lives in `memory_index.py`.
"""

# SQL text is only ever built from this module's constants; every value is a bound parameter.
# ruff: noqa: S608

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from shared.calls import CallMarks
from shared.domain import (
    DeleteRead,
    EmbeddingChange,
    EntryFailure,
    EntryFailureCode,
    ExpiredMemory,
    Memory,
    MemoryId,
    MemoryPosition,
    MemoryReplace,
    MemoryType,
    NewMemory,
    Supersession,
)
from shared.storage.sqlite.base import NOT_EXPIRED, Abort, failure, memory_key
from shared.storage.sqlite.calls import mark_in
from shared.storage.sqlite.memory_index import MEMORY_KEY, MemoryIndex, recent_in_areas
from shared.storage.sqlite.memory_rows import MEMORY_COLUMNS, memory_from_row, memory_row
from shared.storage.values import dump, to_us

_log = logging.getLogger(__name__)

# What a replace writes: the new version's fields. The key, created_at, the rating
# aggregate (score_count, score_sum, last_call) and version are the stored row's.
_REPLACED_COLUMNS = (
    "kurzbeschreibung",
    "memory",
    "tags",
    "scope",
    "scope_vk",
    "nutzer",
    "agent",
    "updated_at",
    "referenzfelder",
    "expires_at",
    "embedding_dim",
    "embedding_profil_hash",
    "terms",
    "doc_len",
    "area",  # as on DynamoDB: the memory and its postings move together
    "gueltig_bis",
    "ersetzt_durch",
)
_COLUMN_NAMES = [column.strip() for column in MEMORY_COLUMNS.split(",")]


def _replaced_values(m: Memory) -> tuple[Any, ...]:
    row = dict(zip(_COLUMN_NAMES, memory_row(m), strict=True))
    return tuple(row[column] for column in _REPLACED_COLUMNS)


def _live_row(
    conn: sqlite3.Connection, columns: str, key: tuple[Any, ...], now_us: int
) -> tuple[Any, ...]:
    """`columns` of the memory with this key, not expired at `now_us`; NOT_FOUND (abort)
    otherwise."""
    found = conn.execute(
        f"SELECT {columns} FROM memories WHERE {MEMORY_KEY} AND {NOT_EXPIRED}", (*key, now_us)
    ).fetchone()
    if found is None:
        raise failure(EntryFailureCode.NOT_FOUND, f"memory {key[1]}_{key[2]}")
    return tuple(found)


class _NotOurs(Exception):
    """Rolls a delete back whose call record another send owns."""


def _marked(
    conn: sqlite3.Connection, tenant: str, marks: CallMarks | None, memory_id: MemoryId
) -> bool:
    """The memory's mark recorded in the delete's transaction (True: none to record)."""
    mark = None if marks is None else marks.marks.get(memory_id)
    return mark is None or marks is None or mark_in(conn, tenant, marks, mark)


@dataclass(frozen=True)
class _Removed:
    """A deleted memory's stored expiry (integer microseconds)."""

    expires_at: int | None

    def live_at(self, now_us: int) -> bool:
        return self.expires_at is None or self.expires_at > now_us


class MemoryStore(MemoryIndex):
    """The memory part of `StoragePort`."""

    # --- writes -------------------------------------------------------------------------

    def put_memories(self, memories: Sequence[NewMemory]) -> list[EntryFailure | None]:
        rows = [(memory_row(new.memory), new.embedding) for new in memories]
        results: list[EntryFailure | None] = []
        for (row, embedding), new in zip(rows, memories, strict=True):
            try:
                with self._write() as conn:
                    conn.execute(
                        f"INSERT INTO memories ({MEMORY_COLUMNS})"
                        f" VALUES ({', '.join('?' * len(row))})",
                        row,
                    )
                    if embedding is not None:
                        conn.execute(
                            "INSERT INTO embeddings (tenant, typ, number, data)"
                            " VALUES (?, ?, ?, ?)",
                            (*row[:3], bytes(embedding)),
                        )
                    self._index_memory(conn, new.memory)
            except sqlite3.IntegrityError:
                results.append(
                    EntryFailure(EntryFailureCode.STORAGE, f"memory {new.memory.id} exists")
                )
            except sqlite3.Error as exc:
                _log.exception("put_memories: %s failed", new.memory.id)
                results.append(EntryFailure(EntryFailureCode.STORAGE, str(exc)))
            else:
                results.append(None)
        return results

    def replace_memories(
        self, replaces: Sequence[MemoryReplace], now: datetime
    ) -> list[EntryFailure | None]:
        now_us = to_us(now)
        values = [_replaced_values(item.memory) for item in replaces]
        results: list[EntryFailure | None] = []
        for item, new_values in zip(replaces, values, strict=True):
            try:
                self._replace_memory(item, new_values, now_us)
            except Abort as abort:
                results.append(abort.failure)
            except sqlite3.Error as exc:
                _log.exception("replace_memories: %s failed", item.memory.id)
                results.append(EntryFailure(EntryFailureCode.STORAGE, str(exc)))
            else:
                results.append(None)
        return results

    def _replace_memory(self, item: MemoryReplace, values: tuple[Any, ...], now_us: int) -> None:
        new = item.memory
        key = memory_key(new.tenant, new.id)
        with self._write() as conn:
            version, stored_doc_len = _live_row(conn, "version, doc_len", key, now_us)
            if version != item.previous.version:
                raise failure(
                    EntryFailureCode.CONFLICT,
                    f"memory {new.id} changed (version {version}, read {item.previous.version})",
                )
            conn.execute(
                f"UPDATE memories SET {', '.join(f'{c} = ?' for c in _REPLACED_COLUMNS)},"
                f" version = version + 1 WHERE {MEMORY_KEY}",
                (*values, *key),
            )
            self._reindex_memory(conn, new, int(stored_doc_len))
            if item.embedding_change is EmbeddingChange.SET:
                assert item.embedding is not None  # checked by replace_memories
                conn.execute(
                    "INSERT INTO embeddings (tenant, typ, number, data) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (tenant, typ, number) DO UPDATE SET data = excluded.data",
                    (*key, bytes(item.embedding)),
                )
            elif item.embedding_change is EmbeddingChange.REMOVE:
                conn.execute(f"DELETE FROM embeddings WHERE {MEMORY_KEY}", key)

    def supersede_memories(
        self, tenant: str, marks: Sequence[Supersession], now: datetime
    ) -> list[EntryFailure | None]:
        """Each mark in its own write transaction: read, decide, update (port docs)."""
        now_us = to_us(now)
        results: list[EntryFailure | None] = []
        for mark in marks:
            try:
                self._supersede(tenant, mark, now_us)
            except Abort as abort:
                results.append(abort.failure)
            except sqlite3.Error as exc:
                _log.exception("supersede_memories: %s failed", mark.memory_id)
                results.append(EntryFailure(EntryFailureCode.STORAGE, str(exc)))
            else:
                results.append(None)
        return results

    def _supersede(self, tenant: str, mark: Supersession, now_us: int) -> None:
        key = memory_key(tenant, mark.memory_id)
        successor = str(mark.successor)
        with self._write() as conn:
            (stored,) = _live_row(conn, "ersetzt_durch", key, now_us)
            if mark.at is None:
                if stored == successor:
                    conn.execute(
                        "UPDATE memories SET gueltig_bis = NULL, ersetzt_durch = NULL,"
                        f" version = version + 1 WHERE {MEMORY_KEY}",
                        key,
                    )
                return
            if stored == successor:
                return
            if stored is not None:
                raise failure(
                    EntryFailureCode.CONFLICT, f"memory {mark.memory_id} replaced by {stored}"
                )
            conn.execute(
                "UPDATE memories SET gueltig_bis = ?, ersetzt_durch = ?, version = version + 1"
                f" WHERE {MEMORY_KEY}",
                (to_us(mark.at), successor, *key),
            )

    def delete_memories(
        self,
        tenant: str,
        ids: Sequence[MemoryId],
        now: datetime,
        read: DeleteRead | None = None,
        marks: CallMarks | None = None,
    ) -> list[MemoryId]:
        now_us = to_us(now)
        deleted: list[MemoryId] = []
        for memory_id in ids:
            try:
                with self._write() as conn:
                    removed = self._delete_memory(conn, memory_key(tenant, memory_id))
                    if removed is not None and not _marked(conn, tenant, marks, memory_id):
                        raise _NotOurs  # the call record is another send's: keep it
            except _NotOurs:
                _log.warning("delete_memories: call record taken over; %s kept", memory_id)
                continue
            except sqlite3.Error:
                # No failure channel: logged, and reported like a missing memory.
                _log.exception("delete_memories: %s failed", memory_id)
                continue
            if removed is not None and removed.live_at(now_us):
                deleted.append(memory_id)
        return deleted

    def delete_expired(self, now: datetime, limit: int) -> list[ExpiredMemory]:
        if limit <= 0:
            return []
        now_us = to_us(now)
        # Oldest expiry first, through memories_by_expiry (a covering index).
        candidates = self._read(
            "SELECT tenant, typ, number FROM memories"
            " WHERE typ = ? AND expires_at IS NOT NULL AND expires_at <= ?"
            " ORDER BY expires_at, tenant, number LIMIT ?",
            (MemoryType.SHORTTERM.value, now_us, limit),
        )
        swept: list[ExpiredMemory] = []
        for tenant, typ, number in candidates:
            try:
                with self._write() as conn:
                    # Still expired: a concurrent sweep may have taken it already.
                    gone = self._delete_memory(conn, (tenant, typ, number), expired_by=now_us)
            except sqlite3.Error:
                _log.exception("delete_expired: %s/%s_%s failed", tenant, typ, number)
                continue
            if gone is not None:
                swept.append(ExpiredMemory(tenant, MemoryId(MemoryType(typ), number)))
        return swept

    @classmethod
    def _delete_memory(
        cls, conn: sqlite3.Connection, key: tuple[str, str, int], *, expired_by: int | None = None
    ) -> _Removed | None:
        """Delete one memory with its postings (ratings and embeddings go by ON DELETE
        CASCADE) and take it out of the stats; None if it is absent (or, with `expired_by`,
        not expired by then)."""
        condition = "" if expired_by is None else " AND expires_at IS NOT NULL AND expires_at <= ?"
        params = key if expired_by is None else (*key, expired_by)
        rows = conn.execute(
            f"DELETE FROM memories WHERE {MEMORY_KEY}{condition} RETURNING expires_at, doc_len",
            params,
        ).fetchall()
        if not rows:
            return None
        expires_at, doc_len = rows[0]
        cls._unindex_memory(conn, key, int(doc_len))
        return _Removed(expires_at)

    # --- reads --------------------------------------------------------------------------

    def read_for_delete(self, tenant: str, ids: Sequence[MemoryId], now: datetime) -> DeleteRead:
        return DeleteRead(self.get_memories(tenant, ids, now))

    def get_memories(
        self, tenant: str, ids: Sequence[MemoryId], now: datetime
    ) -> dict[MemoryId, Memory]:
        if not ids:
            return {}
        numbers: dict[str, set[int]] = {}
        for memory_id in ids:
            numbers.setdefault(MemoryType(memory_id.typ).value, set()).add(memory_id.number)
        # One statement: a primary-key lookup per requested ID, one branch per memory type.
        branch = (
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE tenant = ? AND typ = ?"
            f" AND number IN (SELECT value FROM json_each(?)) AND {NOT_EXPIRED}"
        )
        now_us = to_us(now)
        params: list[Any] = []
        for typ, wanted in sorted(numbers.items()):
            params += [tenant, typ, dump(sorted(wanted)), now_us]
        rows = self._read(" UNION ALL ".join([branch] * len(numbers)), params)
        memories = (memory_from_row(row) for row in rows)
        return {memory.id: memory for memory in memories}

    def get_embedding(self, tenant: str, memory_id: MemoryId) -> bytes | None:
        rows = self._read(
            f"SELECT data FROM embeddings WHERE {MEMORY_KEY}", memory_key(tenant, memory_id)
        )
        return bytes(rows[0][0]) if rows else None

    def find_memories_by_scopes(
        self,
        tenant: str,
        scopes: Sequence[tuple[str, str]],
        now: datetime,
        limit: int,
        areas: Sequence[str] | None = None,
    ) -> dict[tuple[str, str], list[Memory]]:
        pairs = list(dict.fromkeys(scopes))
        if not pairs or limit <= 0 or (areas is not None and not areas):
            return {}
        now_us = to_us(now)
        found: dict[tuple[str, str], list[Memory]] = {}
        with self._snapshot() as conn:  # all pairs from one snapshot
            for pair in pairs:
                memories = self._memories_in_scope(conn, tenant, pair, now_us, limit, areas)
                if memories:
                    found[pair] = memories
        return found

    @staticmethod
    def _memories_in_scope(
        conn: sqlite3.Connection,
        tenant: str,
        pair: tuple[str, str],
        now_us: int,
        limit: int,
        areas: Sequence[str] | None = None,
    ) -> list[Memory]:
        """One pair, newest first: a range of memories_by_scope walked backwards; with
        `areas` only the rows in them (before the LIMIT)."""
        scope, scope_vk = pair
        in_areas = "" if areas is None else " AND area IN (SELECT value FROM json_each(?))"
        params: list[Any] = [tenant, scope, scope_vk, MemoryType.LONGTERM.value, now_us]
        params += [] if areas is None else [dump(sorted(set(areas)))]
        rows = conn.execute(
            f"SELECT {MEMORY_COLUMNS} FROM memories"
            " WHERE tenant = ? AND scope = ? AND scope_vk = ? AND typ = ?"
            f" AND {NOT_EXPIRED}{in_areas} ORDER BY number DESC LIMIT ?",
            [*params, limit],
        ).fetchall()
        return [memory_from_row(row) for row in rows]

    def recent_memories(
        self, tenant: str, typ: MemoryType, areas: Sequence[str], now: datetime, limit: int
    ) -> list[Memory]:
        if limit <= 0 or not areas:
            return []
        with self._snapshot() as conn:
            return recent_in_areas(conn, tenant, typ, areas, now, limit)

    def list_memories(
        self,
        tenant: str,
        areas: Sequence[str],
        before: MemoryPosition | None,
        now: datetime,
        limit: int,
    ) -> list[Memory]:
        """memories_by_area: (tenant, area, created_at, typ, number), read newest first."""
        wanted = list(dict.fromkeys(areas))
        if not wanted or limit <= 0:
            return []
        after = ""
        params: list[Any] = [tenant, dump(wanted), to_us(now)]
        if before is not None:
            after = " AND (created_at, typ, number) < (?, ?, ?)"
            memory_id = before.memory_id
            params += [to_us(before.created_at), MemoryType(memory_id.typ).value]
            params.append(memory_id.number)
        rows = self._read(
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE tenant = ?"
            f" AND area IN (SELECT value FROM json_each(?)) AND {NOT_EXPIRED}{after}"
            " ORDER BY created_at DESC, typ DESC, number DESC LIMIT ?",
            (*params, limit),
        )
        return [memory_from_row(row) for row in rows]
