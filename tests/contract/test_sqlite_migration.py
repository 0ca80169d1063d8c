"""SQLite only: schema versions 2 (memory search index) and 3 (areas, projects) and the
migrations from older versions."""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from shared.domain import (
    BrainWrite,
    CorpusStats,
    CounterName,
    EmbeddingChange,
    EntryFailure,
    EntryFailureCode,
    ExpiredMemory,
    MemoryPosting,
    MemoryReplace,
    MemoryType,
    NewMemory,
)
from shared.storage.sqlite import SCHEMA_VERSION, SqliteStorage
from shared.storage.sqlite.brain import BrainStore
from shared.storage.sqlite.memories import MemoryStore
from shared.storage.sqlite.memory_index import MemoryIndex
from shared.storage.sqlite.projects import ProjectStore
from shared.storage.sqlite.ratings import RatingStore
from tests.contract.builders import (
    OTHER_TENANT,
    T0,
    TENANT,
    at,
    embedding,
    lt,
    make_entry,
    make_memory,
    st,
)

# The version-1 schema, as shipped before the memory search index (verbatim DDL).
V1_SCHEMA = (
    """CREATE TABLE counters (tenant TEXT NOT NULL, name TEXT NOT NULL, value INTEGER NOT NULL,
        PRIMARY KEY (tenant, name)) WITHOUT ROWID""",
    """CREATE TABLE tags (tenant TEXT NOT NULL, name_key TEXT NOT NULL, name TEXT NOT NULL,
        PRIMARY KEY (tenant, name_key)) WITHOUT ROWID""",
    """CREATE TABLE memories (
        tenant TEXT NOT NULL, typ TEXT NOT NULL, number INTEGER NOT NULL,
        kurzbeschreibung TEXT NOT NULL, memory TEXT NOT NULL, tags TEXT NOT NULL,
        scope TEXT NOT NULL, scope_vk TEXT NOT NULL, nutzer TEXT NOT NULL, agent TEXT NOT NULL,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, referenzfelder TEXT NOT NULL,
        expires_at INTEGER, embedding_dim INTEGER, embedding_profil_hash TEXT,
        score_count INTEGER NOT NULL, score_sum TEXT NOT NULL, last_call INTEGER,
        version INTEGER NOT NULL,
        PRIMARY KEY (tenant, typ, number))""",
    "CREATE INDEX memories_by_scope ON memories (tenant, scope, scope_vk, typ, number)",
    """CREATE TABLE embeddings (tenant TEXT NOT NULL, typ TEXT NOT NULL,
        number INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (tenant, typ, number),
        FOREIGN KEY (tenant, typ, number)
            REFERENCES memories (tenant, typ, number) ON DELETE CASCADE)""",
    """CREATE TABLE ratings (tenant TEXT NOT NULL, insert_id INTEGER NOT NULL,
        typ TEXT NOT NULL, number INTEGER NOT NULL, agent TEXT NOT NULL, nutzer TEXT NOT NULL,
        score TEXT NOT NULL, datum INTEGER NOT NULL, referenzfelder TEXT NOT NULL,
        PRIMARY KEY (tenant, insert_id),
        FOREIGN KEY (tenant, typ, number)
            REFERENCES memories (tenant, typ, number) ON DELETE CASCADE)""",
    "CREATE INDEX ratings_by_memory ON ratings (tenant, typ, number, insert_id)",
    """CREATE TABLE brain_entries (tenant TEXT NOT NULL, id INTEGER NOT NULL,
        titel TEXT NOT NULL, inhalt TEXT NOT NULL, vk_typ TEXT NOT NULL,
        vk_referenz_id TEXT NOT NULL, tags TEXT NOT NULL, stammdaten TEXT NOT NULL,
        nutzer TEXT NOT NULL, agent TEXT NOT NULL, created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL, referenzfelder TEXT NOT NULL, terms TEXT NOT NULL,
        doc_len INTEGER NOT NULL, PRIMARY KEY (tenant, id))""",
    "CREATE INDEX brain_by_reference ON brain_entries (tenant, vk_typ, vk_referenz_id, id)",
    "CREATE INDEX brain_by_typ ON brain_entries (tenant, vk_typ, id)",
    """CREATE TABLE postings (tenant TEXT NOT NULL, term TEXT NOT NULL,
        entry_id INTEGER NOT NULL, tf INTEGER NOT NULL, doc_len INTEGER NOT NULL,
        PRIMARY KEY (tenant, term, entry_id)) WITHOUT ROWID""",
    """CREATE TABLE brain_stats (tenant TEXT NOT NULL PRIMARY KEY,
        documents INTEGER NOT NULL, total_len INTEGER NOT NULL) WITHOUT ROWID""",
)


def micros(value: datetime) -> int:
    return (value - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)


def v1_memory(
    tenant: str, typ: str, number: int, *, expires_at: datetime | None = None
) -> tuple[object, ...]:
    return (
        tenant,
        typ,
        number,
        f"Kurz {typ}_{number}",
        f"Inhalt von {typ}_{number}",
        json.dumps(["Alpha"]),
        "kunde",
        "K-1",
        "nutzer-1",
        "agent-1",
        micros(T0),
        micros(T0),
        "{}",
        None if expires_at is None else micros(expires_at),
        None,
        None,
        0,
        "0",
        None,
        0,
    )


@pytest.fixture
def v1_path(tmp_path: Path) -> Path:
    """A version-1 database: a rated long-term memory with an embedding, an expired
    short-term one, a memory of another tenant and a brain entry."""
    path = tmp_path / "v1.sqlite3"
    conn = sqlite3.connect(path)
    try:
        with conn:
            for statement in V1_SCHEMA:
                conn.execute(statement)
            conn.executemany(
                f"INSERT INTO memories VALUES ({', '.join('?' * 20)})",
                [
                    v1_memory(TENANT, "longterm", 1),
                    v1_memory(TENANT, "shortterm", 1, expires_at=at(1)),
                    v1_memory(OTHER_TENANT, "longterm", 1),
                ],
            )
            conn.execute(
                "INSERT INTO embeddings VALUES (?, 'longterm', 1, ?)", (TENANT, embedding(1.0))
            )
            conn.execute(
                "INSERT INTO ratings VALUES (?, 1, 'longterm', 1, 'a', 'n', '7', ?, '{}')",
                (TENANT, micros(T0)),
            )
            conn.execute(
                "UPDATE memories SET score_count = 1, score_sum = '7', version = 1"
                " WHERE tenant = ? AND typ = 'longterm' AND number = 1",
                (TENANT,),
            )
            conn.execute("INSERT INTO counters VALUES (?, 'longterm', 1)", (TENANT,))
            conn.execute(
                f"INSERT INTO brain_entries VALUES ({', '.join('?' * 15)})",
                (
                    TENANT,
                    1,
                    "Titel",
                    "Inhalt",
                    "kunde",
                    "K-1",
                    "[]",
                    "{}",
                    "n",
                    "a",
                    micros(T0),
                    micros(T0),
                    "{}",
                    '{"vertrag":1}',
                    1,
                ),
            )
            conn.execute("INSERT INTO postings VALUES (?, 'vertrag', 1, 1, 1)", (TENANT,))
            conn.execute("INSERT INTO brain_stats VALUES (?, 1, 1)", (TENANT,))
            conn.execute("PRAGMA user_version = 1")
    finally:
        conn.close()
    return path


# The areas of the nutzer whose memories these tests store (builders' default nutzer).
NUTZER_AREAS = ["users/nutzer-1"]


def user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def test_v1_database_is_migrated_and_old_memories_keep_working(v1_path: Path) -> None:
    # When a version-1 database is opened by this code
    with SqliteStorage(v1_path) as storage:
        # Then it is at the current version
        assert user_version(v1_path) == SCHEMA_VERSION == 5
        # And old memories read back with empty terms, their scores, ratings and embedding
        old = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
        assert (old.terms, old.doc_len, old.version) == ({}, 0, 1)
        assert (old.score_count, old.score_sum) == (1, Decimal(7))
        assert [r.score for r in storage.get_ratings(TENANT, lt(1))] == [Decimal(7)]
        assert storage.get_embedding(TENANT, lt(1)) == embedding(1.0)
        # And every old memory counts as a document of its tenant (the expired one too)
        assert storage.memory_stats(TENANT) == CorpusStats(2, 0)
        assert storage.memory_stats(OTHER_TENANT) == CorpusStats(1, 0)
        # And counters and the brain continue
        assert storage.reserve_ids(TENANT, CounterName.LONGTERM, 1) == range(2, 3)
        assert storage.get_brain_entries(TENANT, [1])[1].terms == {"vertrag": 1}
        assert storage.lookup_terms(TENANT, ["vertrag"]).stats == CorpusStats(1, 1)
        assert storage.put_brain_entries([BrainWrite(make_entry(2))]) == [None]


def test_new_features_work_on_a_migrated_database(v1_path: Path) -> None:
    with SqliteStorage(v1_path) as storage:
        # A new memory is indexed next to the old ones
        new = make_memory(lt(2), terms={"neu": 1}, doc_len=1)
        assert storage.put_memories([NewMemory(new)]) == [None]
        assert storage.memory_stats(TENANT) == CorpusStats(3, 1)
        # An old memory can be replaced: it gains terms, keeps its rating
        old = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
        changed = replace(old, memory="jetzt mit Index", terms={"index": 2}, doc_len=2)
        result = storage.replace_memories(
            [MemoryReplace(changed, old, EmbeddingChange.REMOVE)], at(0)
        )
        assert result == [None]
        assert storage.lookup_memory_terms(TENANT, ["index"], NUTZER_AREAS).postings == {
            "index": [MemoryPosting(lt(1), 2, 2, "nutzer-1", None, "users/nutzer-1")]
        }
        assert storage.get_embedding(TENANT, lt(1)) is None
        assert storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)].score_count == 1
        assert storage.memory_stats(TENANT) == CorpusStats(3, 3)
        # The sweep takes the old expired memory; recent_memories no longer shows it
        assert storage.delete_expired(at(5), 10) == [ExpiredMemory(TENANT, st(1))]
        assert storage.recent_memories(TENANT, MemoryType.SHORTTERM, NUTZER_AREAS, at(0), 5) == []
        # Deleting old and new memories takes them out of the stats
        assert storage.delete_memories(TENANT, [lt(1), lt(2)], at(0)) == [lt(1), lt(2)]
        assert storage.get_ratings(TENANT, lt(1)) == []
        assert storage.memory_stats(TENANT) == CorpusStats(0, 0)
        assert storage.lookup_memory_terms(TENANT, ["index", "neu"], NUTZER_AREAS).postings == {}
        # The other tenant is untouched
        assert storage.memory_stats(OTHER_TENANT) == CorpusStats(1, 0)


def test_v1_remember_memories_get_their_area_and_their_project(v1_path: Path) -> None:
    # Given a v1 database with memories `remember` wrote into project memory-os by anna
    # (first) and bruno, and a Brain-tool memory of carla
    conn = sqlite3.connect(v1_path)
    try:
        for number, nutzer, minutes in ((5, "anna", 0), (6, "bruno", 3), (7, "anna", 5)):
            row = list(v1_memory(TENANT, "longterm", number))
            row[6:10] = ["projekt", "memory-os", nutzer, "agent-1"]
            row[10] = micros(at(minutes))
            row[12] = json.dumps({"pfad": "projects/memory-os/decisions", "quelle": "remember"})
            conn.execute(f"INSERT INTO memories VALUES ({', '.join('?' * len(row))})", row)
        carla = list(v1_memory(TENANT, "longterm", 8))
        carla[8] = "carla"
        conn.execute(f"INSERT INTO memories VALUES ({', '.join('?' * len(carla))})", carla)
        conn.commit()
    finally:
        conn.close()
    # When the database is opened by this code
    with SqliteStorage(v1_path) as storage:
        found = storage.get_memories(TENANT, [lt(5), lt(6), lt(8)], at(10))
        # Then the remember memories lie in the project's area, the other in carla's
        assert [found[lt(n)].area for n in (5, 6, 8)] == [
            "projects/memory-os",
            "projects/memory-os",
            "users/carla",
        ]
        # And the project exists: anna (first writer) owns it, both writers are members
        project = storage.get_project(TENANT, "memory-os")
        assert project is not None
        assert (project.owner, project.members) == ("anna", {"anna", "bruno"})
        assert storage.projects_of(TENANT, "bruno") == {"memory-os"}


def test_v2_postings_get_the_area_of_their_memory(tmp_path: Path) -> None:
    # Given a version-2 database: memories and postings without an area
    path = tmp_path / "v2.sqlite3"
    with SqliteStorage(path) as storage:
        storage.put_memories([NewMemory(make_memory(lt(1), nutzer="anna", terms={"x": 1}))])
    conn = sqlite3.connect(path)
    try:
        conn.execute("UPDATE memories SET area = ''")
        conn.execute("UPDATE memory_postings SET area = NULL")
        conn.execute("PRAGMA user_version = 2")
        conn.commit()
    finally:
        conn.close()
    # When it is opened again
    with SqliteStorage(path) as storage:
        # Then memory and posting name anna's area
        posting = storage.lookup_memory_terms(TENANT, ["x"], ["users/anna"]).postings["x"][0]
        assert posting.area == "users/anna"
        assert storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)].area == "users/anna"
    assert user_version(path) == SCHEMA_VERSION


def test_v3_postings_get_their_impact_and_are_read_in_impact_order(tmp_path: Path) -> None:
    # Given a version-3 database whose postings have no impact yet
    path = tmp_path / "v3.sqlite3"
    with SqliteStorage(path) as storage:
        memories = [
            make_memory(lt(i), nutzer="anna", terms={"x": i}, doc_len=10) for i in (1, 2, 3)
        ]
        assert storage.put_memories([NewMemory(m) for m in memories]) == [None] * 3
    conn = sqlite3.connect(path)
    try:
        conn.execute("UPDATE memory_postings SET impact = 0")
        conn.execute("PRAGMA user_version = 3")
        conn.commit()
    finally:
        conn.close()
    # When it is opened again
    with SqliteStorage(path) as storage:
        # Then the lookup cut at 2 reads the two postings of highest impact (tf 3 and 2)
        found = storage.lookup_memory_terms(TENANT, ["x"], ["users/anna"], per_area_term=2)
        assert [p.entry_id for p in found.postings["x"]] == [lt(3), lt(2)]
    assert user_version(path) == SCHEMA_VERSION


def test_migration_is_idempotent(v1_path: Path) -> None:
    # Given a v1 database whose migration was interrupted after one column was added
    conn = sqlite3.connect(v1_path)
    try:
        conn.execute("ALTER TABLE memories ADD COLUMN terms TEXT NOT NULL DEFAULT '{}'")
        conn.commit()
    finally:
        conn.close()
    # When it is opened, written to, and opened again
    with SqliteStorage(v1_path) as storage:
        assert storage.put_memories([NewMemory(make_memory(lt(2), doc_len=4))]) == [None]
    with SqliteStorage(v1_path) as storage:
        # Then the second open changed nothing
        assert storage.memory_stats(TENANT) == CorpusStats(3, 4)
        assert set(storage.get_memories(TENANT, [lt(1), lt(2)], at(0))) == {lt(1), lt(2)}
    assert user_version(v1_path) == SCHEMA_VERSION


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    conn = sqlite3.connect(path)
    try:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    finally:
        conn.close()
    with pytest.raises(RuntimeError, match="newer than this code"):
        SqliteStorage(path)


def test_memory_deletes_and_the_sweep_use_indexes(tmp_path: Path) -> None:
    with SqliteStorage(tmp_path / "plans.sqlite3") as storage:
        conn = storage._conn()

        def plan(sql: str, params: tuple[object, ...]) -> str:
            return " | ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params))

        by_memory = plan(
            "DELETE FROM memory_postings WHERE tenant = ? AND typ = ? AND number = ?",
            (TENANT, "longterm", 1),
        )
        sweep = plan(
            "SELECT tenant, typ, number FROM memories"
            " WHERE typ = ? AND expires_at IS NOT NULL AND expires_at <= ?"
            " ORDER BY expires_at, tenant, number LIMIT ?",
            ("shortterm", 0, 10),
        )
    assert "memory_postings_by_memory" in by_memory and "SCAN" not in by_memory
    assert "memories_by_expiry" in sweep and "SCAN" not in sweep and "TEMP B-TREE" not in sweep


def test_adapter_parts_define_distinct_members() -> None:
    # The parts are mixins of one class: a name defined twice would silently shadow one.
    parts = (MemoryStore, MemoryIndex, RatingStore, BrainStore, ProjectStore, SqliteStorage)
    seen: dict[str, str] = {}
    for part in parts:
        for name in vars(part):
            if name.startswith("__") and name.endswith("__"):
                continue
            assert name not in seen, f"{name} in {seen.get(name)} and {part.__name__}"
            seen[name] = part.__name__


def test_concurrent_replaces_from_one_read_apply_once(tmp_path: Path) -> None:
    # Given one memory read by 6 threads
    with SqliteStorage(tmp_path / "race.sqlite3") as storage:
        assert storage.put_memories([NewMemory(make_memory(lt(1), terms={"a": 1}))]) == [None]
        read = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
        barrier = threading.Barrier(6, timeout=30)
        results: list[EntryFailure | None] = []
        lock = threading.Lock()

        def write(index: int) -> None:
            new = replace(read, memory=f"Version {index}", terms={f"t{index}": 1}, doc_len=1)
            barrier.wait()
            outcome = storage.replace_memories([MemoryReplace(new, read)], at(0))
            with lock:
                results.extend(outcome)

        threads = [threading.Thread(target=write, args=(i,)) for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        # Then exactly one replace applied, the others were conflicts
        assert results.count(None) == 1
        assert all(
            isinstance(r, EntryFailure) and r.code is EntryFailureCode.CONFLICT
            for r in results
            if r is not None
        )
        # And the index holds exactly the winner's term
        got = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
        winner = got.memory.removeprefix("Version ")
        found = storage.lookup_memory_terms(
            TENANT, ["a", *(f"t{i}" for i in range(6))], NUTZER_AREAS
        )
        assert list(found.postings) == [f"t{winner}"]
        assert found.stats == CorpusStats(1, 1)
        assert got.version == read.version + 1
