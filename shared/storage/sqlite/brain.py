"""Brain entries and their search index (postings + corpus stats)."""

# SQL text is only ever built from this module's constants; every value is a bound parameter.
# ruff: noqa: S608

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.domain import (
    BrainEntry,
    BrainWrite,
    CorpusStats,
    EntryFailure,
    EntryFailureCode,
    Posting,
    TermLookup,
    VkTyp,
)
from shared.storage.sqlite.base import Abort, SqliteBase, failure
from shared.storage.values import dump, from_us, to_us

_log = logging.getLogger(__name__)

BRAIN_COLUMNS = (
    "tenant, id, titel, inhalt, vk_typ, vk_referenz_id, tags, stammdaten, nutzer, agent,"
    " created_at, updated_at, referenzfelder, terms, doc_len"
)


@dataclass(frozen=True)
class _StoredBrain:
    terms: dict[str, int]
    doc_len: int


def brain_row(e: BrainEntry) -> tuple[Any, ...]:
    return (
        e.tenant,
        e.id,
        e.titel,
        e.inhalt,
        VkTyp(e.vk_typ).value,
        e.vk_referenz_id,
        dump(list(e.tags)),
        dump(e.stammdaten),
        e.nutzer,
        e.agent,
        to_us(e.created_at),
        to_us(e.updated_at),
        dump(e.referenzfelder),
        dump(e.terms),
        e.doc_len,
    )


def brain_from_row(row: Sequence[Any]) -> BrainEntry:
    return BrainEntry(
        tenant=row[0],
        id=row[1],
        titel=row[2],
        inhalt=row[3],
        vk_typ=VkTyp(row[4]),
        vk_referenz_id=row[5],
        tags=json.loads(row[6]),
        stammdaten=json.loads(row[7]),
        nutzer=row[8],
        agent=row[9],
        created_at=from_us(row[10]),
        updated_at=from_us(row[11]),
        referenzfelder=json.loads(row[12]),
        terms=json.loads(row[13]),
        doc_len=row[14],
    )


class BrainStore(SqliteBase):
    """The brain-entry part of `StoragePort`."""

    def put_brain_entries(self, writes: Sequence[BrainWrite]) -> list[EntryFailure | None]:
        rows = [brain_row(write.entry) for write in writes]
        results: list[EntryFailure | None] = []
        for write, row in zip(writes, rows, strict=True):
            try:
                if write.previous is None:
                    self._create_brain(write.entry, row)
                else:
                    self._replace_brain(write.entry, write.previous, row)
            except Abort as abort:
                results.append(abort.failure)
            except sqlite3.IntegrityError:
                results.append(
                    EntryFailure(EntryFailureCode.STORAGE, f"brain entry {write.entry.id} exists")
                )
            except sqlite3.Error as exc:
                _log.exception("put_brain_entries: entry %s failed", write.entry.id)
                results.append(EntryFailure(EntryFailureCode.STORAGE, str(exc)))
            else:
                results.append(None)
        return results

    def _create_brain(self, entry: BrainEntry, row: tuple[Any, ...]) -> None:
        with self._write() as conn:
            conn.execute(
                f"INSERT INTO brain_entries ({BRAIN_COLUMNS}) VALUES ({', '.join('?' * len(row))})",
                row,
            )
            self._insert_brain_postings(conn, entry)
            conn.execute(
                "INSERT INTO brain_stats (tenant, documents, total_len) VALUES (?, 1, ?)"
                " ON CONFLICT (tenant) DO UPDATE SET documents = documents + 1,"
                " total_len = total_len + excluded.total_len",
                (entry.tenant, entry.doc_len),
            )

    def _replace_brain(self, entry: BrainEntry, previous: BrainEntry, row: tuple[Any, ...]) -> None:
        with self._write() as conn:
            found = conn.execute(
                "SELECT terms, doc_len FROM brain_entries WHERE tenant = ? AND id = ?",
                (entry.tenant, entry.id),
            ).fetchone()
            if found is None:
                raise failure(EntryFailureCode.NOT_FOUND, f"brain entry {entry.id}")
            stored = _StoredBrain(json.loads(found[0]), int(found[1]))
            old_terms = set(stored.terms) | set(previous.terms)
            conn.executemany(
                "DELETE FROM postings WHERE tenant = ? AND term = ? AND entry_id = ?",
                [(entry.tenant, term, entry.id) for term in sorted(old_terms)],
            )
            self._insert_brain_postings(conn, entry)
            # Every column but the key and created_at, which the stored row keeps.
            columns = [c.strip() for c in BRAIN_COLUMNS.split(",")]
            updates = {
                c: v
                for c, v in zip(columns, row, strict=True)
                if c not in ("tenant", "id", "created_at")
            }
            conn.execute(
                f"UPDATE brain_entries SET {', '.join(f'{c} = ?' for c in updates)}"
                " WHERE tenant = ? AND id = ?",
                (*updates.values(), entry.tenant, entry.id),
            )
            conn.execute(
                "UPDATE brain_stats SET total_len = total_len + ? WHERE tenant = ?",
                (entry.doc_len - stored.doc_len, entry.tenant),
            )

    @staticmethod
    def _insert_brain_postings(conn: sqlite3.Connection, entry: BrainEntry) -> None:
        conn.executemany(
            "INSERT INTO postings (tenant, term, entry_id, tf, doc_len) VALUES (?, ?, ?, ?, ?)",
            [(entry.tenant, term, entry.id, tf, entry.doc_len) for term, tf in entry.terms.items()],
        )

    def get_brain_entries(self, tenant: str, ids: Sequence[int]) -> dict[int, BrainEntry]:
        if not ids:
            return {}
        rows = self._read(
            f"SELECT {BRAIN_COLUMNS} FROM brain_entries"
            " WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))",
            (tenant, dump(sorted({int(i) for i in ids}))),
        )
        entries = (brain_from_row(row) for row in rows)
        return {entry.id: entry for entry in entries}

    def find_brain_by_reference(
        self, tenant: str, vk_typ: str, vk_referenz_id: str | None, limit: int
    ) -> list[BrainEntry]:
        if limit <= 0:
            return []
        if vk_referenz_id is None:
            rows = self._read(
                f"SELECT {BRAIN_COLUMNS} FROM brain_entries"
                " WHERE tenant = ? AND vk_typ = ? ORDER BY id DESC LIMIT ?",
                (tenant, str(vk_typ), limit),
            )
            return [brain_from_row(row) for row in rows]
        return self._brain_about(self._conn(), tenant, (str(vk_typ), vk_referenz_id), limit)

    def find_brain_by_references(
        self, tenant: str, references: Sequence[tuple[str, str]], limit: int
    ) -> dict[tuple[str, str], list[BrainEntry]]:
        pairs = list(dict.fromkeys((str(vk_typ), ref) for vk_typ, ref in references))
        if not pairs or limit <= 0:
            return {}
        found: dict[tuple[str, str], list[BrainEntry]] = {}
        with self._snapshot() as conn:  # all pairs from one snapshot
            for pair in pairs:
                entries = self._brain_about(conn, tenant, pair, limit)
                if entries:
                    found[pair] = entries
        return found

    @staticmethod
    def _brain_about(
        conn: sqlite3.Connection, tenant: str, pair: tuple[str, str], limit: int
    ) -> list[BrainEntry]:
        """One entity, newest first: a range of brain_by_reference walked backwards."""
        vk_typ, vk_referenz_id = pair
        rows = conn.execute(
            f"SELECT {BRAIN_COLUMNS} FROM brain_entries"
            " WHERE tenant = ? AND vk_typ = ? AND vk_referenz_id = ?"
            " ORDER BY id DESC LIMIT ?",
            (tenant, vk_typ, vk_referenz_id, limit),
        ).fetchall()
        return [brain_from_row(row) for row in rows]

    def list_brain_entries(self, tenant: str, limit: int) -> list[BrainEntry]:
        if limit <= 0:
            return []
        rows = self._read(
            f"SELECT {BRAIN_COLUMNS} FROM brain_entries WHERE tenant = ? ORDER BY id DESC LIMIT ?",
            (tenant, limit),
        )
        return [brain_from_row(row) for row in rows]

    def lookup_terms(self, tenant: str, terms: Sequence[str]) -> TermLookup:
        stats = self.brain_stats(tenant)
        if not terms:
            return TermLookup({}, stats)
        rows = self._read(
            "SELECT p.term, p.entry_id, p.tf, p.doc_len, b.vk_typ, b.vk_referenz_id"
            " FROM postings p JOIN brain_entries b ON b.tenant = p.tenant AND b.id = p.entry_id"
            " WHERE p.tenant = ? AND p.term IN (SELECT value FROM json_each(?))"
            " ORDER BY p.term, p.entry_id",
            (tenant, dump(sorted(set(terms)))),
        )
        result: dict[str, list[Posting]] = {}
        for term, entry_id, tf, doc_len, vk_typ, vk_referenz_id in rows:
            posting = Posting(entry_id, tf, doc_len, vk_typ, vk_referenz_id)
            result.setdefault(term, []).append(posting)
        return TermLookup(result, stats)

    def brain_stats(self, tenant: str) -> CorpusStats:
        rows = self._read(
            "SELECT documents, total_len FROM brain_stats WHERE tenant = ?", (tenant,)
        )
        if not rows:
            return CorpusStats(documents=0, total_len=0)
        return CorpusStats(documents=rows[0][0], total_len=rows[0][1])
