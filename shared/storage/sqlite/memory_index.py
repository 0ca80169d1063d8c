"""The memory search index: postings per analysed term and the per-tenant corpus stats.

Every memory is a document of its tenant's index (also one without terms): put adds it,
replace moves its postings and length, delete takes it out. The callers run these helpers
inside the write transaction that changes the memory row. Every posting carries its memory's
near-duplicate sign and whether its term is one of the memory text's (`dup`, `text_term`:
MemoryPosting), as on DynamoDB; NULL in postings written before them.
"""

# SQL text is only ever built from this module's constants; every value is a bound parameter.
# ruff: noqa: S608

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from shared.domain import (
    CorpusStats,
    Memory,
    MemoryId,
    MemoryPosting,
    MemoryType,
    searched_areas,
)
from shared.search.duplicates import decode_sign, encode_sign, memory_sign, term_set
from shared.search.lookup import MemoryTermLookup
from shared.search.postings import POSTINGS_PER_AREA_TERM, posting_impact
from shared.search.topk import Page, PageRequest, WordQuery, run
from shared.search.vectors import VectorQuery, VectorRanking
from shared.storage.sqlite.base import NOT_EXPIRED, memory_key
from shared.storage.sqlite.memory_rows import MEMORY_COLUMNS, memory_from_row
from shared.storage.sqlite.projects import member_projects
from shared.storage.sqlite.vectors import VectorStore
from shared.storage.values import opt_datetime, opt_us, to_us

MEMORY_KEY = "tenant = ? AND typ = ? AND number = ?"
_LIST = "tenant = ? AND area = ? AND term = ?"
# After a cursor (impact, typ, number): the list's order is impact DESC, typ, number.
_AFTER = " AND (impact < ? OR (impact = ? AND (typ > ? OR (typ = ? AND number > ?))))"


def _posting(row: Any, area: str) -> MemoryPosting:
    typ, number, tf, doc_len, nutzer, expires_at = row[:6]
    return MemoryPosting(
        MemoryId(MemoryType(typ), number), tf, doc_len, nutzer, opt_datetime(expires_at), area
    )


def read_page(conn: sqlite3.Connection, tenant: str, request: PageRequest) -> Page:
    """One page of an (area, term) list after its cursor (a range of the covering index
    `memory_postings_by_area`), with the count of what follows the cursor when asked."""
    area, term = request.key
    where, params = _LIST, list[object]([tenant, area, term])
    if request.cursor is not None:
        after: tuple[int, str, int] = request.cursor  # type: ignore[assignment]
        where += _AFTER
        params += [after[0], after[0], after[1], after[1], after[2]]
    rows = conn.execute(
        "SELECT typ, number, tf, doc_len, nutzer, expires_at, impact"
        " FROM memory_postings INDEXED BY memory_postings_by_area"
        f" WHERE {where} ORDER BY impact DESC, typ, number LIMIT ?",
        (*params, request.size + 1),
    ).fetchall()
    more = len(rows) > request.size
    rows = rows[: request.size]
    cursor = (rows[-1][6], rows[-1][0], rows[-1][1]) if more else None
    remaining = None if more else len(rows)
    if request.count and more:
        (remaining,) = conn.execute(
            "SELECT COUNT(*) FROM memory_postings INDEXED BY memory_postings_by_area"
            f" WHERE {where}",
            params,
        ).fetchone()
    return Page([_posting(row, area) for row in rows], cursor, remaining)


def recent_in_areas(
    conn: sqlite3.Connection,
    tenant: str,
    typ: MemoryType,
    areas: Sequence[str],
    now: datetime,
    limit: int,
) -> list[Memory]:
    """The newest `limit` memories of one type in the areas (highest number first), not
    expired at `now`: per area a backward range of `memories_recent_by_area`, merged."""
    found: list[Memory] = []
    for area in dict.fromkeys(areas):
        rows = conn.execute(
            f"SELECT {MEMORY_COLUMNS} FROM memories INDEXED BY memories_recent_by_area"
            f" WHERE tenant = ? AND area = ? AND typ = ? AND {NOT_EXPIRED}"
            " ORDER BY number DESC LIMIT ?",
            (tenant, area, MemoryType(typ).value, to_us(now), limit),
        ).fetchall()
        found += [memory_from_row(row) for row in rows]
    found.sort(key=lambda m: m.id.number, reverse=True)
    return found[:limit]


class MemoryIndex(VectorStore):
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
        expires_at = opt_us(m.expires_at)
        sign, text = encode_sign(memory_sign(m)), term_set(m.memory)
        conn.executemany(
            "INSERT INTO memory_postings (tenant, term, typ, number, tf, doc_len, nutzer,"
            " expires_at, area, impact, text_term, dup)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    tenant,
                    term,
                    typ,
                    number,
                    tf,
                    m.doc_len,
                    m.nutzer,
                    expires_at,
                    m.area,
                    posting_impact(tf, m.doc_len),
                    int(term in text),
                    sign,
                )
                for term, tf in m.terms.items()
            ],
        )

    def lookup_memory_terms(
        self,
        tenant: str,
        terms: Sequence[str],
        areas: Sequence[str],
        member: str | None = None,
        *,
        path: str | None = None,
        per_area_term: int = POSTINGS_PER_AREA_TERM,
        recent: int = 0,
        now: datetime | None = None,
        vector: VectorQuery | None = None,
        words: WordQuery | None = None,
    ) -> MemoryTermLookup:
        """Per (area, term) one range of `memory_postings_by_area`, highest impact first,
        cut at `per_area_term` — or, with `words`, its safe top k read page by page
        (`topk.run`); the member's project areas join the given areas. Stats, memberships,
        postings and recent memories come from one snapshot; the vectors
        (`VectorStore.search_vectors` over the areas read) after it."""
        wanted_terms = sorted(set(terms))
        ranking = None
        with self._snapshot() as conn:
            stats = self._memory_stats(conn, tenant)
            projects = None if member is None else member_projects(conn, tenant, member)
            read = searched_areas(areas, projects, path)
            result: dict[str, list[MemoryPosting]] = {}
            if words is not None:
                lists = [(area, term) for area in read for term in words.terms]
                ranking = run(
                    words, lists, stats, lambda step: [read_page(conn, tenant, r) for r in step]
                )
                wanted_terms = []
            for area in read:
                for term in wanted_terms:
                    rows = conn.execute(
                        "SELECT typ, number, tf, doc_len, nutzer, expires_at, text_term, dup"
                        " FROM memory_postings INDEXED BY memory_postings_by_area"
                        " WHERE tenant = ? AND area = ? AND term = ?"
                        " ORDER BY impact DESC, typ, number LIMIT ?",
                        (tenant, area, term, per_area_term),
                    ).fetchall()
                    result.setdefault(term, []).extend(
                        MemoryPosting(
                            MemoryId(MemoryType(typ), number),
                            tf,
                            doc_len,
                            nutzer,
                            opt_datetime(expires_at),
                            area,
                            None if text_term is None else bool(text_term),
                            decode_sign(dup),
                        )
                        for typ, number, tf, doc_len, nutzer, expires_at, text_term, dup in rows
                    )
            latest = (
                recent_in_areas(conn, tenant, MemoryType.SHORTTERM, read, now, recent)
                if recent > 0 and now is not None
                else []
            )
        postings = {term: found for term, found in result.items() if found}
        vectors = None
        if vector is not None:
            vectors = VectorRanking.of(self.search_vectors, replace(vector, areas=frozenset(read)))
        return MemoryTermLookup(postings, stats, projects, latest, vectors, ranking)

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
