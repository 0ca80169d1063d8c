"""SQLite adapter of the storage port, for the local server (`brain serve`).

One database file in WAL mode. Every thread gets its own connection (created lazily);
writes run in `BEGIN IMMEDIATE` transactions, so read-modify-write sequences (ratings,
brain replaces) are serialised across threads and processes alike.

Storage conventions:
- the tenant is the first column of every primary key and index;
- datetimes are integer microseconds since the Unix epoch (UTC) and come back as
  timezone-aware UTC datetimes; naive datetimes are rejected with ValueError;
- Decimal scores are stored as text and read back as Decimal, so sums stay exact;
- dicts and lists (tags, referenzfelder, stammdaten, terms) are JSON text;
- embeddings are stored byte for byte (little-endian float32) in their own table.
"""

# SQL text is only ever built from this module's constants; every value is a bound parameter.
# ruff: noqa: S608

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shared.domain import (
    BrainEntry,
    BrainWrite,
    CorpusStats,
    CounterName,
    EntryFailure,
    EntryFailureCode,
    Memory,
    MemoryId,
    MemoryType,
    NewMemory,
    Posting,
    Rating,
    RatingOutcome,
    TermLookup,
    VkTyp,
)

if TYPE_CHECKING:
    from shared.storage.port import StoragePort

_log = logging.getLogger(__name__)

DATABASE_FILE_NAME = "brain.sqlite3"
SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 30_000

_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS counters (
        tenant TEXT NOT NULL,
        name   TEXT NOT NULL,
        value  INTEGER NOT NULL,
        PRIMARY KEY (tenant, name)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE IF NOT EXISTS tags (
        tenant   TEXT NOT NULL,
        name_key TEXT NOT NULL,
        name     TEXT NOT NULL,
        PRIMARY KEY (tenant, name_key)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE IF NOT EXISTS memories (
        tenant                TEXT NOT NULL,
        typ                   TEXT NOT NULL,
        number                INTEGER NOT NULL,
        kurzbeschreibung      TEXT NOT NULL,
        memory                TEXT NOT NULL,
        tags                  TEXT NOT NULL,
        scope                 TEXT NOT NULL,
        scope_vk              TEXT NOT NULL,
        nutzer                TEXT NOT NULL,
        agent                 TEXT NOT NULL,
        created_at            INTEGER NOT NULL,
        updated_at            INTEGER NOT NULL,
        referenzfelder        TEXT NOT NULL,
        expires_at            INTEGER,
        embedding_dim         INTEGER,
        embedding_profil_hash TEXT,
        score_count           INTEGER NOT NULL,
        score_sum             TEXT NOT NULL,
        last_call             INTEGER,
        version               INTEGER NOT NULL,
        PRIMARY KEY (tenant, typ, number)
    )
    """,
    """
    CREATE INDEX IF NOT EXISTS memories_by_scope
        ON memories (tenant, scope, scope_vk, typ, number)
    """,
    """
    CREATE TABLE IF NOT EXISTS embeddings (
        tenant TEXT NOT NULL,
        typ    TEXT NOT NULL,
        number INTEGER NOT NULL,
        data   BLOB NOT NULL,
        PRIMARY KEY (tenant, typ, number),
        FOREIGN KEY (tenant, typ, number)
            REFERENCES memories (tenant, typ, number) ON DELETE CASCADE
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS ratings (
        tenant         TEXT NOT NULL,
        insert_id      INTEGER NOT NULL,
        typ            TEXT NOT NULL,
        number         INTEGER NOT NULL,
        agent          TEXT NOT NULL,
        nutzer         TEXT NOT NULL,
        score          TEXT NOT NULL,
        datum          INTEGER NOT NULL,
        referenzfelder TEXT NOT NULL,
        PRIMARY KEY (tenant, insert_id),
        FOREIGN KEY (tenant, typ, number)
            REFERENCES memories (tenant, typ, number) ON DELETE CASCADE
    )
    """,
    """
    CREATE INDEX IF NOT EXISTS ratings_by_memory
        ON ratings (tenant, typ, number, insert_id)
    """,
    """
    CREATE TABLE IF NOT EXISTS brain_entries (
        tenant         TEXT NOT NULL,
        id             INTEGER NOT NULL,
        titel          TEXT NOT NULL,
        inhalt         TEXT NOT NULL,
        vk_typ         TEXT NOT NULL,
        vk_referenz_id TEXT NOT NULL,
        tags           TEXT NOT NULL,
        stammdaten     TEXT NOT NULL,
        nutzer         TEXT NOT NULL,
        agent          TEXT NOT NULL,
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        referenzfelder TEXT NOT NULL,
        terms          TEXT NOT NULL,
        doc_len        INTEGER NOT NULL,
        PRIMARY KEY (tenant, id)
    )
    """,
    """
    CREATE INDEX IF NOT EXISTS brain_by_reference
        ON brain_entries (tenant, vk_typ, vk_referenz_id, id)
    """,
    """
    CREATE INDEX IF NOT EXISTS brain_by_typ
        ON brain_entries (tenant, vk_typ, id)
    """,
    """
    CREATE TABLE IF NOT EXISTS postings (
        tenant   TEXT NOT NULL,
        term     TEXT NOT NULL,
        entry_id INTEGER NOT NULL,
        tf       INTEGER NOT NULL,
        doc_len  INTEGER NOT NULL,
        PRIMARY KEY (tenant, term, entry_id)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE IF NOT EXISTS brain_stats (
        tenant    TEXT NOT NULL PRIMARY KEY,
        documents INTEGER NOT NULL,
        total_len INTEGER NOT NULL
    ) WITHOUT ROWID
    """,
)

_MEMORY_COLUMNS = (
    "tenant, typ, number, kurzbeschreibung, memory, tags, scope, scope_vk, nutzer, agent,"
    " created_at, updated_at, referenzfelder, expires_at, embedding_dim,"
    " embedding_profil_hash, score_count, score_sum, last_call, version"
)
_BRAIN_COLUMNS = (
    "tenant, id, titel, inhalt, vk_typ, vk_referenz_id, tags, stammdaten, nutzer, agent,"
    " created_at, updated_at, referenzfelder, terms, doc_len"
)
_RATING_COLUMNS = "tenant, insert_id, typ, number, agent, nutzer, score, datum, referenzfelder"
_NOT_EXPIRED = "(expires_at IS NULL OR expires_at > ?)"

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


# --- conversions ------------------------------------------------------------------------


def _to_micros(value: datetime) -> int:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"naive datetime {value!r}: storage needs timezone-aware datetimes")
    return (value - _EPOCH) // _MICROSECOND


def _opt_micros(value: datetime | None) -> int | None:
    return None if value is None else _to_micros(value)


def _from_micros(value: int) -> datetime:
    return _EPOCH + timedelta(microseconds=value)


def _opt_datetime(value: int | None) -> datetime | None:
    return None if value is None else _from_micros(value)


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _memory_key(tenant: str, memory_id: MemoryId) -> tuple[str, str, int]:
    return tenant, memory_id.typ.value, memory_id.number


class _Abort(Exception):
    """Raised inside a write transaction to roll it back and report one item's failure."""

    def __init__(self, failure: EntryFailure) -> None:
        super().__init__(failure.detail)
        self.failure = failure


def _failure(code: EntryFailureCode, detail: str) -> _Abort:
    return _Abort(EntryFailure(code, detail))


@dataclass(frozen=True)
class _StoredBrain:
    terms: dict[str, int]
    doc_len: int


# --- the adapter ------------------------------------------------------------------------


class SqliteStorage:
    """`StoragePort` on one SQLite file; safe to share between threads and processes."""

    def __init__(self, path: Path) -> None:
        self._path = Path(path)
        self._local = threading.local()
        self._closed = False
        self._init_schema()

    @classmethod
    def in_data_dir(cls, data_dir: Path) -> SqliteStorage:
        """The storage in `data_dir/brain.sqlite3`, creating the directory if needed."""
        data_dir = Path(data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        return cls(data_dir / DATABASE_FILE_NAME)

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

    def __enter__(self) -> SqliteStorage:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- connections and transactions ---------------------------------------------------

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

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        # fetchall: a half-read cursor would keep its read snapshot open.
        return self._conn().execute(sql, params).fetchall()

    def _init_schema(self) -> None:
        with self._write() as conn:
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            if version > SCHEMA_VERSION:
                raise RuntimeError(
                    f"{self._path}: schema version {version} is newer than this code "
                    f"({SCHEMA_VERSION})"
                )
            for statement in _SCHEMA:
                conn.execute(statement)
            if version < SCHEMA_VERSION:
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    # --- IDs and tags -------------------------------------------------------------------

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
                (tenant, _dump(keys)),
            ).fetchall()
        return {key: name for key, name in rows}

    # --- memories -----------------------------------------------------------------------

    def put_memories(self, memories: Sequence[NewMemory]) -> list[EntryFailure | None]:
        rows = [(self._memory_row(new.memory), new.embedding) for new in memories]
        results: list[EntryFailure | None] = []
        for (row, embedding), new in zip(rows, memories, strict=True):
            try:
                with self._write() as conn:
                    conn.execute(
                        f"INSERT INTO memories ({_MEMORY_COLUMNS})"
                        f" VALUES ({', '.join('?' * len(row))})",
                        row,
                    )
                    if embedding is not None:
                        conn.execute(
                            "INSERT INTO embeddings (tenant, typ, number, data)"
                            " VALUES (?, ?, ?, ?)",
                            (*row[:3], bytes(embedding)),
                        )
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
            f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE tenant = ? AND typ = ?"
            f" AND number IN (SELECT value FROM json_each(?)) AND {_NOT_EXPIRED}"
        )
        now_us = _to_micros(now)
        params: list[Any] = []
        for typ, wanted in sorted(numbers.items()):
            params += [tenant, typ, _dump(sorted(wanted)), now_us]
        rows = self._read(" UNION ALL ".join([branch] * len(numbers)), params)
        memories = (self._memory(row) for row in rows)
        return {memory.id: memory for memory in memories}

    def get_embedding(self, tenant: str, memory_id: MemoryId) -> bytes | None:
        rows = self._read(
            "SELECT data FROM embeddings WHERE tenant = ? AND typ = ? AND number = ?",
            _memory_key(tenant, memory_id),
        )
        return bytes(rows[0][0]) if rows else None

    def find_memories_by_scope(
        self, tenant: str, scope: str, scope_vk: str, now: datetime, limit: int
    ) -> list[Memory]:
        if limit <= 0:
            return []
        rows = self._read(
            f"SELECT {_MEMORY_COLUMNS} FROM memories"
            " WHERE tenant = ? AND scope = ? AND scope_vk = ? AND typ = ?"
            f" AND {_NOT_EXPIRED} ORDER BY number DESC LIMIT ?",
            (tenant, scope, scope_vk, MemoryType.LONGTERM.value, _to_micros(now), limit),
        )
        return [self._memory(row) for row in rows]

    @staticmethod
    def _memory_row(m: Memory) -> tuple[Any, ...]:
        return (
            *_memory_key(m.tenant, m.id),
            m.kurzbeschreibung,
            m.memory,
            _dump(list(m.tags)),
            m.scope,
            m.scope_vk,
            m.nutzer,
            m.agent,
            _to_micros(m.created_at),
            _to_micros(m.updated_at),
            _dump(m.referenzfelder),
            _opt_micros(m.expires_at),
            m.embedding_dim,
            m.embedding_profil_hash,
            m.score_count,
            str(Decimal(m.score_sum)),
            _opt_micros(m.last_call),
            m.version,
        )

    @staticmethod
    def _memory(row: Sequence[Any]) -> Memory:
        return Memory(
            tenant=row[0],
            id=MemoryId(MemoryType(row[1]), row[2]),
            kurzbeschreibung=row[3],
            memory=row[4],
            tags=json.loads(row[5]),
            scope=row[6],
            scope_vk=row[7],
            nutzer=row[8],
            agent=row[9],
            created_at=_from_micros(row[10]),
            updated_at=_from_micros(row[11]),
            referenzfelder=json.loads(row[12]),
            expires_at=_opt_datetime(row[13]),
            embedding_dim=row[14],
            embedding_profil_hash=row[15],
            score_count=row[16],
            score_sum=Decimal(row[17]),
            last_call=_opt_datetime(row[18]),
            version=row[19],
        )

    # --- ratings ------------------------------------------------------------------------

    def record_ratings(
        self,
        ratings: Sequence[Rating],
        now: datetime,
        known: Mapping[MemoryId, Memory] | None = None,
    ) -> list[RatingOutcome | EntryFailure]:
        # `known` is not needed: each rating reads the memory inside its own write lock.
        now_us = _to_micros(now)
        for rating in ratings:  # reject naive datetimes before anything is written
            _to_micros(rating.datum)
        results: list[RatingOutcome | EntryFailure] = []
        for rating in ratings:
            try:
                results.append(self._record_rating(rating, now_us))
            except _Abort as abort:
                results.append(abort.failure)
            except sqlite3.IntegrityError:
                results.append(
                    EntryFailure(EntryFailureCode.STORAGE, f"rating {rating.insert_id} exists")
                )
            except sqlite3.Error as exc:
                _log.exception("record_ratings: rating %s failed", rating.insert_id)
                results.append(EntryFailure(EntryFailureCode.STORAGE, str(exc)))
        return results

    def _record_rating(self, rating: Rating, now_us: int) -> RatingOutcome:
        key = _memory_key(rating.tenant, rating.memory_id)
        datum = _to_micros(rating.datum)
        score = Decimal(rating.score)
        with self._write() as conn:
            row = conn.execute(
                "SELECT score_count, score_sum, last_call FROM memories"
                f" WHERE tenant = ? AND typ = ? AND number = ? AND {_NOT_EXPIRED}",
                (*key, now_us),
            ).fetchone()
            if row is None:
                raise _failure(EntryFailureCode.NOT_FOUND, f"memory {rating.memory_id}")
            conn.execute(
                f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    rating.tenant,
                    rating.insert_id,
                    key[1],
                    key[2],
                    rating.agent,
                    rating.nutzer,
                    str(score),
                    datum,
                    _dump(rating.referenzfelder),
                ),
            )
            count = int(row[0]) + 1
            total = Decimal(row[1]) + score
            last_call = datum if row[2] is None else max(int(row[2]), datum)
            conn.execute(
                "UPDATE memories SET score_count = ?, score_sum = ?, last_call = ?,"
                " version = version + 1 WHERE tenant = ? AND typ = ? AND number = ?",
                (count, str(total), last_call, *key),
            )
        return RatingOutcome(
            insert_id=rating.insert_id,
            memory_id=rating.memory_id,
            score_count=count,
            score_avg=total / count,
            last_call=_from_micros(last_call),
        )

    def get_ratings(self, tenant: str, memory_id: MemoryId) -> list[Rating]:
        rows = self._read(
            f"SELECT {_RATING_COLUMNS} FROM ratings"
            " WHERE tenant = ? AND typ = ? AND number = ? ORDER BY insert_id",
            _memory_key(tenant, memory_id),
        )
        return [
            Rating(
                tenant=row[0],
                insert_id=row[1],
                memory_id=MemoryId(MemoryType(row[2]), row[3]),
                agent=row[4],
                nutzer=row[5],
                score=Decimal(row[6]),
                datum=_from_micros(row[7]),
                referenzfelder=json.loads(row[8]),
            )
            for row in rows
        ]

    # --- brain entries and their search index -------------------------------------------

    def put_brain_entries(self, writes: Sequence[BrainWrite]) -> list[EntryFailure | None]:
        for write in writes:  # programming errors surface before anything is written
            previous = write.previous
            if previous is not None and (
                previous.tenant != write.entry.tenant or previous.id != write.entry.id
            ):
                raise ValueError(
                    f"replace must keep tenant and ID: {previous.tenant}/{previous.id}"
                    f" -> {write.entry.tenant}/{write.entry.id}"
                )
        rows = [self._brain_row(write.entry) for write in writes]
        results: list[EntryFailure | None] = []
        for write, row in zip(writes, rows, strict=True):
            try:
                if write.previous is None:
                    self._create_brain(write.entry, row)
                else:
                    self._replace_brain(write.entry, write.previous, row)
            except _Abort as abort:
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
                f"INSERT INTO brain_entries ({_BRAIN_COLUMNS})"
                f" VALUES ({', '.join('?' * len(row))})",
                row,
            )
            self._insert_postings(conn, entry)
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
                raise _failure(EntryFailureCode.NOT_FOUND, f"brain entry {entry.id}")
            stored = _StoredBrain(json.loads(found[0]), int(found[1]))
            old_terms = set(stored.terms) | set(previous.terms)
            conn.executemany(
                "DELETE FROM postings WHERE tenant = ? AND term = ? AND entry_id = ?",
                [(entry.tenant, term, entry.id) for term in sorted(old_terms)],
            )
            self._insert_postings(conn, entry)
            # Every column but the key and created_at, which the stored row keeps.
            columns = [c.strip() for c in _BRAIN_COLUMNS.split(",")]
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
    def _insert_postings(conn: sqlite3.Connection, entry: BrainEntry) -> None:
        conn.executemany(
            "INSERT INTO postings (tenant, term, entry_id, tf, doc_len) VALUES (?, ?, ?, ?, ?)",
            [(entry.tenant, term, entry.id, tf, entry.doc_len) for term, tf in entry.terms.items()],
        )

    def get_brain_entries(self, tenant: str, ids: Sequence[int]) -> dict[int, BrainEntry]:
        if not ids:
            return {}
        rows = self._read(
            f"SELECT {_BRAIN_COLUMNS} FROM brain_entries"
            " WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))",
            (tenant, _dump(sorted({int(i) for i in ids}))),
        )
        entries = (self._brain(row) for row in rows)
        return {entry.id: entry for entry in entries}

    def find_brain_by_reference(
        self, tenant: str, vk_typ: str, vk_referenz_id: str | None, limit: int
    ) -> list[BrainEntry]:
        if limit <= 0:
            return []
        if vk_referenz_id is None:
            rows = self._read(
                f"SELECT {_BRAIN_COLUMNS} FROM brain_entries"
                " WHERE tenant = ? AND vk_typ = ? ORDER BY id DESC LIMIT ?",
                (tenant, str(vk_typ), limit),
            )
        else:
            rows = self._read(
                f"SELECT {_BRAIN_COLUMNS} FROM brain_entries"
                " WHERE tenant = ? AND vk_typ = ? AND vk_referenz_id = ?"
                " ORDER BY id DESC LIMIT ?",
                (tenant, str(vk_typ), vk_referenz_id, limit),
            )
        return [self._brain(row) for row in rows]

    def list_brain_entries(self, tenant: str, limit: int) -> list[BrainEntry]:
        if limit <= 0:
            return []
        rows = self._read(
            f"SELECT {_BRAIN_COLUMNS} FROM brain_entries WHERE tenant = ? ORDER BY id DESC LIMIT ?",
            (tenant, limit),
        )
        return [self._brain(row) for row in rows]

    def lookup_terms(self, tenant: str, terms: Sequence[str]) -> TermLookup:
        stats = self.brain_stats(tenant)
        if not terms:
            return TermLookup({}, stats)
        rows = self._read(
            "SELECT p.term, p.entry_id, p.tf, p.doc_len, b.vk_typ, b.vk_referenz_id"
            " FROM postings p JOIN brain_entries b ON b.tenant = p.tenant AND b.id = p.entry_id"
            " WHERE p.tenant = ? AND p.term IN (SELECT value FROM json_each(?))"
            " ORDER BY p.term, p.entry_id",
            (tenant, _dump(sorted(set(terms)))),
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

    @staticmethod
    def _brain_row(e: BrainEntry) -> tuple[Any, ...]:
        return (
            e.tenant,
            e.id,
            e.titel,
            e.inhalt,
            VkTyp(e.vk_typ).value,
            e.vk_referenz_id,
            _dump(list(e.tags)),
            _dump(e.stammdaten),
            e.nutzer,
            e.agent,
            _to_micros(e.created_at),
            _to_micros(e.updated_at),
            _dump(e.referenzfelder),
            _dump(e.terms),
            e.doc_len,
        )

    @staticmethod
    def _brain(row: Sequence[Any]) -> BrainEntry:
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
            created_at=_from_micros(row[10]),
            updated_at=_from_micros(row[11]),
            referenzfelder=json.loads(row[12]),
            terms=json.loads(row[13]),
            doc_len=row[14],
        )


if TYPE_CHECKING:

    def _implements_port(storage: SqliteStorage) -> StoragePort:
        return storage
