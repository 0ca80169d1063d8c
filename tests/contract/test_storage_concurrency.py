"""Contract under real concurrency, on every adapter (DynamoDB: the real engine, DynamoDB
Local): counters shared by parallel callers, and identical tool calls sent at the same time.

Threads start together at a barrier; each test asserts what must hold whatever the
interleaving (no timing is asserted).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

from shared.config import Settings
from shared.domain import CounterName, MemoryId, MemoryType
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.tools.dispatch import call_tool
from shared.tools.idempotency_fields import IN_PROGRESS_FIELD
from tests.contract.test_retry_safe_tools import PRINCIPAL, insert, memory


def in_threads[T](count: int, work: Callable[[int], T]) -> list[T]:
    """work(index) in `count` threads released together; errors re-raised."""
    barrier = threading.Barrier(count, timeout=30)

    def started(index: int) -> T:
        barrier.wait()
        return work(index)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(started, range(count)))


def test_parallel_reservations_never_hand_out_an_id_twice(storage: StoragePort) -> None:
    # Given 8 callers that each reserve 10 ranges of 3 IDs of one counter at once
    def reserve(_index: int) -> list[int]:
        return [i for _ in range(10) for i in storage.reserve_ids("acme", CounterName.RATING, 3)]

    # When they all run
    ids = [i for chunk in in_threads(8, reserve) for i in chunk]
    # Then every ID was handed out once, and the sequence has no gap
    assert sorted(ids) == list(range(1, 241))
    assert storage.highest_id("acme", CounterName.RATING) == 240


def test_identical_calls_sent_at_once_store_once(storage: StoragePort) -> None:
    # Given 8 copies of one insert call, sent at the same time (a client retrying early)
    ctx = ServiceContext(storage, Settings())
    arguments = insert(memory("Gleichzeitig gesendet"))

    def send(_index: int) -> dict[str, Any]:
        return call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", arguments)

    answers = in_threads(8, send)
    # Then each answer is the first call's (the same ID) or "still running": nothing else
    stored = [a for a in answers if a["erfolg"] is True]
    busy = [a for a in answers if a["erfolg"] is False]
    assert stored, answers
    (answered,) = {a["daten"][0]["ID"] for a in stored}
    assert all(a["fehler"][0]["feld"] == IN_PROGRESS_FIELD for a in busy), busy
    # And exactly one memory was stored, the answered one (a DynamoDB container leases IDs
    # in blocks of 100 and more, shared by the tests of one process: it need not be the
    # first ID, so every ID up to two blocks past the answered one is looked at)
    now = datetime.now(UTC)
    last = MemoryId.parse(answered)
    assert last is not None
    candidates = [MemoryId(MemoryType.LONGTERM, n) for n in range(1, last.number + 512)]
    found = storage.get_memories("acme", candidates, now)
    assert [str(memory_id) for memory_id in found] == [answered]
