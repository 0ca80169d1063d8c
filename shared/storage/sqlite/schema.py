"""The SQLite schema (version 5) and its idempotent migration from older versions.

Version history (`PRAGMA user_version`):
1. counters, tags, memories, embeddings, ratings, brain entries with postings and stats.
2. memory search index: memories gain `terms` and `doc_len` (v1 rows: `{}` and 0);
   new tables `memory_postings` and `memory_stats`; index for the expiry sweep.
3. areas: memories and memory postings gain `area` (backfilled: a `remember` memory's
   path area, else its nutzer's area); new tables `projects` and `project_members`
   (backfilled for project areas that already hold memories: the first writer is owner,
   every writer a member).
4. cost that follows the caller: memory postings gain `impact` (backfilled from tf and
   doc_len, `shared/search/postings.py`) and are read per (area, term), highest impact
   first (index `memory_postings_by_area`); recent short-term memories are read per area
   (index `memories_recent_by_area`).
5. superseded memories (issue 25): memories gain `gueltig_bis` and `ersetzt_durch`
   (NULL: current; nothing to backfill).
The ledger tables (`ledger_schema.py`) are new tables only: created on open, no version step.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from shared.domain import derived_area
from shared.search.postings import posting_impact
from shared.storage.sqlite.ledger_schema import LEDGER_SCHEMA

SCHEMA_VERSION = 5

# Tables and indexes, all `IF NOT EXISTS`: run on every open. A fresh database gets the
# current shape at once; an older one gets what is missing (columns: `_ADDED_COLUMNS`).
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
    # The primary key also serves recent_memories (tenant, typ, number DESC).
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
        terms                 TEXT NOT NULL DEFAULT '{}',
        doc_len               INTEGER NOT NULL DEFAULT 0,
        area                  TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (tenant, typ, number)
    )
    """,
    """
    CREATE INDEX IF NOT EXISTS memories_by_scope
        ON memories (tenant, scope, scope_vk, typ, number)
    """,
    # The expiry sweep, across tenants by design (bounded by LIMIT): covers its query and
    # yields rows in its order (typ first, as the sweep takes short-term memories only).
    """
    CREATE INDEX IF NOT EXISTS memories_by_expiry
        ON memories (typ, expires_at, tenant, number) WHERE expires_at IS NOT NULL
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
    # Memory postings carry nutzer and expiry so that search filters before loading.
    """
    CREATE TABLE IF NOT EXISTS memory_postings (
        tenant     TEXT NOT NULL,
        term       TEXT NOT NULL,
        typ        TEXT NOT NULL,
        number     INTEGER NOT NULL,
        tf         INTEGER NOT NULL,
        doc_len    INTEGER NOT NULL,
        nutzer     TEXT NOT NULL,
        expires_at INTEGER,
        area       TEXT,
        PRIMARY KEY (tenant, term, typ, number)
    ) WITHOUT ROWID
    """,
    # Deletes and replaces remove a memory's postings through this index, without a scan.
    """
    CREATE INDEX IF NOT EXISTS memory_postings_by_memory
        ON memory_postings (tenant, typ, number, term)
    """,
    """
    CREATE TABLE IF NOT EXISTS memory_stats (
        tenant    TEXT NOT NULL PRIMARY KEY,
        documents INTEGER NOT NULL,
        total_len INTEGER NOT NULL
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE IF NOT EXISTS projects (
        tenant     TEXT NOT NULL,
        name       TEXT NOT NULL,
        owner      TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (tenant, name)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE IF NOT EXISTS project_members (
        tenant  TEXT NOT NULL,
        project TEXT NOT NULL,
        nutzer  TEXT NOT NULL,
        PRIMARY KEY (tenant, project, nutzer),
        FOREIGN KEY (tenant, project) REFERENCES projects (tenant, name) ON DELETE CASCADE
    ) WITHOUT ROWID
    """,
    # "Areas of a nutzer": the projects of one nutzer without a scan.
    """
    CREATE INDEX IF NOT EXISTS project_members_by_nutzer
        ON project_members (tenant, nutzer, project)
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
    *LEDGER_SCHEMA,
    # Retry-safe writes (no version bump: new tables only, and transient ones dropped): the
    # call records of the retry layer (calls.py). The Powertools records, per-entry
    # reservations and write marks they replace held only in-flight retry state.
    "DROP TABLE IF EXISTS idempotency_records",
    "DROP TABLE IF EXISTS id_reservations",
    "DROP TABLE IF EXISTS write_marks",
    """
    CREATE TABLE IF NOT EXISTS call_records (
        tenant           TEXT NOT NULL,
        ckey             TEXT NOT NULL,
        body             TEXT NOT NULL,
        token            TEXT NOT NULL,
        running_until_us INTEGER,
        expires_us       INTEGER NOT NULL,
        ids              TEXT NOT NULL,
        marks            TEXT NOT NULL,
        answer           TEXT,
        PRIMARY KEY (tenant, ckey)
    ) WITHOUT ROWID
    """,
    # Expired records are purged a few at a time by the claims that add new ones (bounded
    # work per call): this index finds them without a scan.
    "CREATE INDEX IF NOT EXISTS call_records_by_expiry ON call_records (expires_us)",
)

# Columns added after version 1: (table, column, definition for ALTER TABLE ADD COLUMN).
_ADDED_COLUMNS = (
    ("memories", "terms", "TEXT NOT NULL DEFAULT '{}'"),
    ("memories", "doc_len", "INTEGER NOT NULL DEFAULT 0"),
    ("memories", "area", "TEXT NOT NULL DEFAULT ''"),
    ("memory_postings", "area", "TEXT"),
    ("memory_postings", "impact", "INTEGER NOT NULL DEFAULT 0"),
    # Superseded memories (issue 25): NULL while current.
    ("memories", "gueltig_bis", "INTEGER"),
    ("memories", "ersetzt_durch", "TEXT"),
    # The near-duplicate check's data (MemoryPosting): NULL in postings written before
    # (nothing is ruled out by them; `brain reindex` rewrites them).
    ("memory_postings", "text_term", "INTEGER"),
    ("memory_postings", "dup", "TEXT"),
)

# Indexes on added columns: created after `_ADDED_COLUMNS` (an older database gets the
# column first). memories_by_area serves list_memories: one area, newest first.
_INDEXES_ON_ADDED_COLUMNS = (
    """
    CREATE INDEX IF NOT EXISTS memories_by_area
        ON memories (tenant, area, created_at, typ, number)
    """,
    # A search reads one (area, term) list, highest impact first, at most the cut-off:
    # covering, so the read never touches the table.
    """
    CREATE INDEX IF NOT EXISTS memory_postings_by_area
        ON memory_postings (tenant, area, term, impact DESC, typ, number,
                            tf, doc_len, nutzer, expires_at)
    """,
    # recall_context's recent short-term memories: per area, newest (highest number) first.
    """
    CREATE INDEX IF NOT EXISTS memories_recent_by_area
        ON memories (tenant, area, typ, number)
    """,
    # Vector search: which dimensions a tenant's embedding profile has (vectors.py).
    """
    CREATE INDEX IF NOT EXISTS memories_by_profile
        ON memories (tenant, embedding_profil_hash, embedding_dim)
        WHERE embedding_profil_hash IS NOT NULL
    """,
)

# Version 2 counts every memory as a document of its tenant's memory index. Rows from
# version 1 have no terms (doc_len 0); memory_stats is derived from them once, when the
# database moves to version 2 (nothing older writes memory_stats).
_BACKFILL_MEMORY_STATS = (
    "DELETE FROM memory_stats",
    "INSERT INTO memory_stats (tenant, documents, total_len)"
    " SELECT tenant, count(*), coalesce(sum(doc_len), 0) FROM memories GROUP BY tenant",
)


def migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the database to SCHEMA_VERSION; idempotent. Runs inside the caller's write
    transaction, so a migration is all or nothing and concurrent openers wait for it."""
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    if version > SCHEMA_VERSION:
        raise RuntimeError(
            f"{path}: schema version {version} is newer than this code ({SCHEMA_VERSION})"
        )
    for statement in _SCHEMA:
        conn.execute(statement)
    for table, column, definition in _ADDED_COLUMNS:
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if column not in present:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")
    for statement in _INDEXES_ON_ADDED_COLUMNS:
        conn.execute(statement)
    if version < 2:
        for statement in _BACKFILL_MEMORY_STATS:
            conn.execute(statement)
    if version < 3:
        _backfill_areas(conn)
    if version < 4:
        conn.create_function("posting_impact", 2, posting_impact, deterministic=True)
        conn.execute("UPDATE memory_postings SET impact = posting_impact(tf, doc_len)")
    if version < SCHEMA_VERSION:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _backfill_areas(conn: sqlite3.Connection) -> None:
    """Version 3: every memory and posting gets its area; project areas that hold
    memories get a project record (owner: the nutzer of the oldest memory there)."""
    rows = conn.execute(
        "SELECT tenant, typ, number, nutzer, referenzfelder, scope, scope_vk FROM memories"
        " WHERE area = '' ORDER BY tenant, number"
    ).fetchall()
    conn.executemany(
        "UPDATE memories SET area = ? WHERE tenant = ? AND typ = ? AND number = ?",
        [
            (derived_area(nutzer, json.loads(referenzfelder), scope, scope_vk), tenant, typ, num)
            for tenant, typ, num, nutzer, referenzfelder, scope, scope_vk in rows
        ],
    )
    conn.execute(
        "UPDATE memory_postings SET area = (SELECT m.area FROM memories m"
        " WHERE m.tenant = memory_postings.tenant AND m.typ = memory_postings.typ"
        " AND m.number = memory_postings.number) WHERE area IS NULL"
    )
    writers = conn.execute(
        "SELECT tenant, substr(area, 10) AS project, nutzer, min(created_at) FROM memories"
        " WHERE area LIKE 'projects/%' GROUP BY tenant, project, nutzer"
        " ORDER BY tenant, project, min(created_at)"
    ).fetchall()
    for tenant, project, nutzer, created_at in writers:
        conn.execute(
            "INSERT OR IGNORE INTO projects (tenant, name, owner, created_at) VALUES (?, ?, ?, ?)",
            (tenant, project, nutzer, created_at),
        )
        conn.execute(
            "INSERT OR IGNORE INTO project_members (tenant, project, nutzer) VALUES (?, ?, ?)",
            (tenant, project, nutzer),
        )
