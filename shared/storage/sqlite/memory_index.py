"""The memory search index: postings per analysed term and the per-tenant corpus stats.

Every memory is a document of its tenant's index (also one without terms): put adds it,
replace moves its postings and length, delete takes it out. The callers run these helpers
inside the write transaction that changes the memory row.
"""

# SQL text is only ever built from this module's constants; every value is a bound parameter.
# ruff: noqa: S608

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from shared.domain import CorpusStats, Memory, MemoryId, MemoryPosting, MemoryTermLookup, MemoryType
from shared.storage.sqlite.base import SqliteBase, dump, memory_key, opt_datetime, opt_micros
from shared.storage.sqlite.projects import member_projects

MEMORY_KEY = "tenant = ? AND typ = ? AND number = ?"


class MemoryIndex(SqliteBase):
    """The memory-search part of `StoragePort`, plus the index upkeep for memory writes."""

    @classmethod
    def _index_memory(cls, conn: sqlite3.Connection, m: Memory) -> None:
        """Add a new memory: its postings, one more document, its length."""
        cls._insert_memory_postings(conn, m)
        conn.execute(
            "INSERT INTO memory_stats (tenant, documents, total_len) VALUES (?, 1, ?)"
            " ON CONFLICT (tenant) DO UPDATE SET documents = documents + 1,"
            " total_len = total_len + excluded.total_len",
            (m.tenant, m.doc_len),
        )

    @classmethod
    def _reindex_memory(cls, conn: sqlite3.Connection, m: Memory, stored_doc_len: int) -> None:
        """Replace a memory's postings by those of its new version `m`."""
        conn.execute(f"DELETE FROM memory_postings WHERE {MEMORY_KEY}", memory_key(m.tenant, m.id))
        cls._insert_memory_postings(conn, m)
        conn.execute(
            "UPDATE memory_stats SET total_len = total_len + ? WHERE tenant = ?",
            (m.doc_len - stored_doc_len, m.tenant),
        )

    @staticmethod
    def _unindex_memory(conn: sqlite3.Connection, key: tuple[str, str, int], doc_len: int) -> None:
        """Take a deleted memory out: its postings, one document less, its length."""
        conn.execute(f"DELETE FROM memory_postings WHERE {MEMORY_KEY}", key)
        conn.execute(
            "UPDATE memory_stats SET documents = documents - 1, total_len = total_len - ?"
            " WHERE tenant = ?",
            (doc_len, key[0]),
        )

    @staticmethod
    def _insert_memory_postings(conn: sqlite3.Connection, m: Memory) -> None:
        tenant, typ, number = memory_key(m.tenant, m.id)
        expires_at = opt_micros(m.expires_at)
        conn.executemany(
            "INSERT INTO memory_postings"
            " (tenant, term, typ, number, tf, doc_len, nutzer, expires_at, area)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (tenant, term, typ, number, tf, m.doc_len, m.nutzer, expires_at, m.area)
                for term, tf in m.terms.items()
            ],
        )

    def lookup_memory_terms(
        self, tenant: str, terms: Sequence[str], member: str | None = None
    ) -> MemoryTermLookup:
        with self._snapshot() as conn:  # stats, postings and memberships from one snapshot
            stats = self._memory_stats(conn, tenant)
            projects = None if member is None else member_projects(conn, tenant, member)
            if not terms:
                return MemoryTermLookup({}, stats, projects)
            rows = conn.execute(
                "SELECT term, typ, number, tf, doc_len, nutzer, expires_at, area"
                " FROM memory_postings"
                " WHERE tenant = ? AND term IN (SELECT value FROM json_each(?))"
                " ORDER BY term, typ, number",
                (tenant, dump(sorted(set(terms)))),
            ).fetchall()
        result: dict[str, list[MemoryPosting]] = {}
        for term, typ, number, tf, doc_len, nutzer, expires_at, area in rows:
            posting = MemoryPosting(
                MemoryId(MemoryType(typ), number),
                tf,
                doc_len,
                nutzer,
                opt_datetime(expires_at),
                area,
            )
            result.setdefault(term, []).append(posting)
        return MemoryTermLookup(result, stats, projects)

    def memory_stats(self, tenant: str) -> CorpusStats:
        return self._memory_stats(self._conn(), tenant)

    @staticmethod
    def _memory_stats(conn: sqlite3.Connection, tenant: str) -> CorpusStats:
        # fetchall: a half-read cursor would keep its read snapshot open.
        rows = conn.execute(
            "SELECT documents, total_len FROM memory_stats WHERE tenant = ?", (tenant,)
        ).fetchall()
        if not rows:
            return CorpusStats(documents=0, total_len=0)
        return CorpusStats(documents=rows[0][0], total_len=rows[0][1])
