"""SQLite only: concurrent writers on one database file (threads, instances, processes)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path

import pytest

from shared.domain import (
    BrainWrite,
    CounterName,
    MemoryId,
    Rating,
    RatingOutcome,
)
from shared.storage.sqlite import SCHEMA_VERSION, SqliteStorage
from tests.contract.builders import (
    T0,
    TENANT,
    at,
    embedding,
    lt,
    make_entry,
    make_rating,
    new_memory,
)

SCORES = [Decimal("7.5"), Decimal("3"), Decimal("10"), Decimal("0.1"), Decimal("4.25")]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "brain.sqlite3"


@pytest.fixture
def file_storage(db_path: Path) -> Iterator[SqliteStorage]:
    store = SqliteStorage(db_path)
    yield store
    store.close()


def run_in_threads[T](count: int, work: Callable[[int, threading.Barrier], T]) -> list[T]:
    """Run work(index, barrier) in `count` threads that start together; re-raise errors."""
    barrier = threading.Barrier(count, timeout=30)
    with ThreadPoolExecutor(max_workers=count) as pool:
        futures = [pool.submit(work, index, barrier) for index in range(count)]
        return [future.result(timeout=60) for future in futures]


def test_concurrent_ratings_of_one_memory_lose_no_update(file_storage: SqliteStorage) -> None:
    # Given one memory and 12 threads with 20 ratings each (varied scores and dates)
    assert file_storage.put_memories([new_memory(lt(1))]) == [None]
    threads, per_thread = 12, 20

    def rate(index: int, barrier: threading.Barrier) -> list[tuple[Rating, RatingOutcome]]:
        barrier.wait()
        ids = file_storage.reserve_ids(TENANT, CounterName.RATING, per_thread)
        ratings = [
            make_rating(
                insert_id,
                lt(1),
                SCORES[(index + k) % len(SCORES)],
                datum=at(index * per_thread + k),
            )
            for k, insert_id in enumerate(ids)
        ]
        # Half the threads send single ratings, the other half batches of five.
        size = 1 if index % 2 == 0 else 5
        done: list[tuple[Rating, RatingOutcome]] = []
        for start in range(0, per_thread, size):
            chunk = ratings[start : start + size]
            for rating, result in zip(
                chunk, file_storage.record_ratings(chunk, now=T0), strict=True
            ):
                assert isinstance(result, RatingOutcome), result
                done.append((rating, result))
        return done

    # When they all rate at once
    results = [pair for chunk in run_in_threads(threads, rate) for pair in chunk]

    # Then every rating is recorded exactly once
    total = threads * per_thread
    submitted = [rating for rating, _ in results]
    stored = file_storage.get_ratings(TENANT, lt(1))
    assert len(stored) == total
    assert sorted(stored, key=lambda r: r.insert_id) == sorted(submitted, key=lambda r: r.insert_id)
    # And each rating saw a distinct running count: no two read the same aggregate
    assert sorted(o.score_count for _, o in results) == list(range(1, total + 1))
    # And the aggregate is exactly the sum of the submitted scores
    score_sum = sum((r.score for r in submitted), Decimal(0))
    memory = file_storage.get_memories(TENANT, [lt(1)], now=T0)[lt(1)]
    assert memory.score_count == total
    assert memory.score_sum == score_sum
    assert memory.score_avg == score_sum / total
    assert memory.last_call == max(r.datum for r in submitted)
    assert memory.version == total
    final = max((o for _, o in results), key=lambda o: o.score_count)
    assert final.score_avg == score_sum / total


def test_parallel_reservations_and_inserts_never_share_an_id(file_storage: SqliteStorage) -> None:
    # Given 8 threads that each reserve 10 ranges of 3 IDs and insert those memories
    threads, rounds, size = 8, 10, 3

    def insert(index: int, barrier: threading.Barrier) -> list[MemoryId]:
        barrier.wait()
        mine: list[MemoryId] = []
        for _ in range(rounds):
            ids = [lt(n) for n in file_storage.reserve_ids(TENANT, CounterName.LONGTERM, size)]
            batch = [
                new_memory(i, agent=f"thread-{index}", vector=embedding(float(i.number)))
                for i in ids
            ]
            assert file_storage.put_memories(batch) == [None] * size
            mine.extend(ids)
        return mine

    # When they run at once
    per_thread = run_in_threads(threads, insert)

    # Then no ID was handed to two threads and together they cover 1..240
    all_ids = [i for ids in per_thread for i in ids]
    assert len(set(all_ids)) == len(all_ids) == threads * rounds * size
    assert sorted(i.number for i in all_ids) == list(range(1, len(all_ids) + 1))
    # And every memory is stored as its own thread wrote it
    stored = file_storage.get_memories(TENANT, all_ids, now=T0)
    assert len(stored) == len(all_ids)
    for index, ids in enumerate(per_thread):
        for memory_id in ids:
            assert stored[memory_id].agent == f"thread-{index}"
            assert file_storage.get_embedding(TENANT, memory_id) == embedding(
                float(memory_id.number)
            )


def test_second_instance_sees_the_data_and_continues_the_counters(db_path: Path) -> None:
    # Given a first instance that has written data and used its counters
    first = SqliteStorage(db_path)
    assert first.reserve_ids(TENANT, CounterName.LONGTERM, 5) == range(1, 6)
    assert first.put_memories([new_memory(lt(1), memory="von eins")]) == [None]
    first.ensure_tags(TENANT, ["Rechnung"])
    assert first.put_brain_entries([BrainWrite(make_entry(1))]) == [None]

    # When a second instance opens the same file (as a second process would)
    second = SqliteStorage(db_path)
    try:
        # Then it sees the data
        assert second.get_memories(TENANT, [lt(1)], now=T0)[lt(1)].memory == "von eins"
        assert second.ensure_tags(TENANT, ["RECHNUNG"]) == {"rechnung": "Rechnung"}
        assert second.get_brain_entries(TENANT, [1]) == {1: make_entry(1)}
        # And both continue one shared sequence
        assert second.reserve_ids(TENANT, CounterName.LONGTERM, 2) == range(6, 8)
        assert first.reserve_ids(TENANT, CounterName.LONGTERM, 1) == range(8, 9)
        # And writes of one are visible to the other
        result = second.record_ratings([make_rating(1, lt(1), "2.5")], now=T0)[0]
        assert isinstance(result, RatingOutcome)
        assert first.get_memories(TENANT, [lt(1)], now=T0)[lt(1)].score_sum == Decimal("2.5")
    finally:
        second.close()
        first.close()

    # And after both are closed, a reopened instance continues the counter too
    with SqliteStorage(db_path) as third:
        assert third.reserve_ids(TENANT, CounterName.LONGTERM, 1) == range(9, 10)


_RESERVE_SCRIPT = """
import sys
from pathlib import Path
from shared.domain import CounterName
from shared.storage.sqlite import SqliteStorage

storage = SqliteStorage(Path(sys.argv[1]))
print("ready", flush=True)
sys.stdin.readline()
for _ in range(int(sys.argv[2])):
    print(*storage.reserve_ids("tenant-a", CounterName.BRAIN, 2), flush=True)
storage.close()
"""


def test_separate_processes_reserve_disjoint_ids(
    file_storage: SqliteStorage, db_path: Path
) -> None:
    # Given two other processes on the same file, each about to reserve 40 ranges of 2
    rounds = 40
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _RESERVE_SCRIPT, str(db_path), str(rounds)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        for _ in range(2)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "ready"
        # When they and this process reserve at the same time
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        here = [
            i for _ in range(rounds) for i in file_storage.reserve_ids(TENANT, CounterName.BRAIN, 2)
        ]
        outputs = [proc.communicate(timeout=60)[0] for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    assert [proc.returncode for proc in procs] == [0, 0]
    # Then no ID was handed out twice and together they cover 1..240
    there = [int(n) for out in outputs for n in out.split()]
    assert sorted(here + there) == list(range(1, 3 * rounds * 2 + 1))


def test_database_file_settings(tmp_path: Path) -> None:
    # Given a data directory that does not exist yet
    data_dir = tmp_path / "nested" / "data"
    # When the storage is opened in it
    with SqliteStorage.in_data_dir(data_dir) as store:
        assert store.reserve_ids(TENANT, CounterName.LONGTERM, 1) == range(1, 2)
    # Then the directory and brain.sqlite3 exist, in WAL mode, with the schema version set
    path = data_dir / "brain.sqlite3"
    assert path.is_file()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    finally:
        conn.close()
    # And reopening an existing database is harmless (idempotent schema)
    with SqliteStorage.in_data_dir(data_dir) as store:
        assert store.reserve_ids(TENANT, CounterName.LONGTERM, 1) == range(2, 3)
    # And a closed instance refuses further use
    with pytest.raises(sqlite3.ProgrammingError):
        store.reserve_ids(TENANT, CounterName.LONGTERM, 1)
