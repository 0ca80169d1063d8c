"""Contract: what a resend after a crash needs from storage, on every adapter — completing
memory writes (`complete_memories`: written again, never a second count).
A delete's tombstones are the call record's marks (test_storage_calls.py)."""

from __future__ import annotations

from shared.storage.port import StoragePort
from tests.contract.builders import T0, TENANT, embedding, lt, new_memory


def test_completing_a_complete_memory_write_changes_nothing(storage: StoragePort) -> None:
    # Given two memories stored completely, one with an embedding
    memories = [
        new_memory(lt(1), terms={"rueckruf": 2, "vormittag": 1}, doc_len=3),
        new_memory(lt(2), terms={"rueckruf": 1}, doc_len=1, vector=embedding(0.5, 1.5)),
    ]
    assert storage.put_memories(memories) == [None, None]
    stats = storage.memory_stats(TENANT)
    stored = storage.get_memories(TENANT, [lt(1), lt(2)], T0)
    areas = [stored[lt(1)].area]
    postings = storage.lookup_memory_terms(TENANT, ["rueckruf", "vormittag"], areas)
    assert len(postings.postings["rueckruf"]) == 2
    # When a resend completes their writes (as it read them)
    storage.complete_memories([(stored[lt(1)], None), (stored[lt(2)], embedding(0.5, 1.5))])
    # Then the stats count each memory once and the rest is unchanged (postings missing
    # before: tests/integration/test_dynamo_crash_completion.py)
    assert storage.memory_stats(TENANT) == stats
    assert storage.lookup_memory_terms(TENANT, ["rueckruf", "vormittag"], areas) == postings
    assert (stats.documents, stats.total_len) == (2, 4)
    assert storage.get_embedding(TENANT, lt(2)) == embedding(0.5, 1.5)
    assert set(storage.get_memories(TENANT, [lt(1), lt(2), lt(7)], T0)) == {lt(1), lt(2)}
