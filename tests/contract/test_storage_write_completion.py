"""Contract: what a resend after a crash needs from storage, on every adapter — marks of a
keyed write (`mark_write`: a delete's tombstones) and completing memory writes
(`complete_memories`: never a second count of what is already complete)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from shared.storage.port import StoragePort
from tests.contract.builders import T0, TENANT, embedding, lt, new_memory

LATER = datetime.now(UTC) + timedelta(hours=1)


def test_a_write_gets_back_what_its_earlier_send_marked(storage: StoragePort) -> None:
    # Given the first send of a keyed write that marks two IDs
    assert storage.mark_write(TENANT, "write-a", ["longterm_1", "longterm_2"], LATER) == set()
    # When the write is sent again marking what it still sees
    again = storage.mark_write(TENANT, "write-a", ["longterm_2"], LATER)
    # Then it learns everything the first send marked
    assert again == {"longterm_1", "longterm_2"}
    # And a mark-free look says the same; other keys and tenants share nothing
    assert storage.mark_write(TENANT, "write-a", [], LATER) == {"longterm_1", "longterm_2"}
    assert storage.mark_write(TENANT, "write-b", ["longterm_1"], LATER) == set()
    assert storage.mark_write("tenant-b", "write-a", [], LATER) == set()


def test_expired_marks_are_forgotten(storage: StoragePort) -> None:
    past = datetime.now(UTC) - timedelta(seconds=5)
    storage.mark_write(TENANT, "write-x", ["longterm_9"], past)
    assert storage.mark_write(TENANT, "write-x", ["longterm_3"], LATER) == set()
    assert storage.mark_write(TENANT, "write-x", [], LATER) == {"longterm_3"}


def test_completing_a_complete_memory_write_changes_nothing(storage: StoragePort) -> None:
    # Given two memories stored completely, one with an embedding
    memories = [
        new_memory(lt(1), terms={"rueckruf": 2, "vormittag": 1}, doc_len=3),
        new_memory(lt(2), terms={"rueckruf": 1}, doc_len=1, vector=embedding(0.5, 1.5)),
    ]
    assert storage.put_memories(memories) == [None, None]
    stats = storage.memory_stats(TENANT)
    # When a resend completes their writes (and names one that does not exist)
    incomplete = storage.complete_memories(
        TENANT, {lt(1): None, lt(2): embedding(0.5, 1.5), lt(7): None}
    )
    # Then nothing was missing, the stats count each memory once and the rest is unchanged
    # (postings found missing: tests/integration/test_dynamo_crash_completion.py)
    assert incomplete == 0
    assert storage.memory_stats(TENANT) == stats
    assert (stats.documents, stats.total_len) == (2, 4)
    assert storage.get_embedding(TENANT, lt(2)) == embedding(0.5, 1.5)
    assert set(storage.get_memories(TENANT, [lt(1), lt(2), lt(7)], T0)) == {lt(1), lt(2)}
