"""A delete on the version the caller read (issue 22: delete in fewer round trips).

`delete_memories(..., read=...)` sends the item's Delete, conditioned on the version the
service read, in one transaction with its index record's tombstone and the stats decrement,
side by side with the partition Query. Every rating moves the version, so the
Query (whichever of the two lands first) sees every rating record the memory had when it
went; a memory rated after the caller's read is read again and deleted on its new version.
"""

from __future__ import annotations

from shared.domain import CorpusStats, EntryFailure, Memory, MemoryId, NewMemory
from shared.storage.dynamo import DynamoStorage
from tests.contract.builders import TENANT, at, lt, make_memory, make_rating
from tests.integration.conftest import CallRecorder


def rated_memory(storage: DynamoStorage) -> dict[MemoryId, Memory]:
    """Memory longterm_1 with two ratings, as a caller reads it."""
    memory = make_memory(lt(1), terms={"kunde": 2}, doc_len=2)
    assert storage.put_memories([NewMemory(memory)]) == [None]
    ratings = [make_rating(1, lt(1), 5), make_rating(2, lt(1), 7)]
    assert not any(isinstance(o, EntryFailure) for o in storage.record_ratings(ratings, at(0)))
    return storage.get_memories(TENANT, [lt(1)], at(0))


def assert_nothing_left(storage: DynamoStorage) -> None:
    assert storage.get_memories(TENANT, [lt(1)], at(0)) == {}
    assert storage.get_ratings(TENANT, lt(1)) == []
    assert storage.lookup_memory_terms(TENANT, ["kunde"], ["users/nutzer-1"]).postings == {}
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)


def test_a_delete_on_the_version_read_takes_every_rating_with_it(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given a rated memory and the version the caller read
    read = rated_memory(storage)
    recorder.start()
    # When it is deleted on that version
    assert storage.delete_memories(TENANT, [lt(1)], at(0), read) == [lt(1)]
    # Then one transaction was enough (no second read), and nothing of it is left (its
    # record's tombstone goes after its postings: one DeleteItem)
    operations = [c.operation for c in recorder.calls]
    assert (operations.count("TransactWriteItems"), operations.count("Query")) == (1, 1)
    assert operations.count("DeleteItem") == 1
    assert_nothing_left(storage)


def test_a_memory_rated_after_the_read_is_read_again_and_loses_that_rating_too(
    storage: DynamoStorage,
) -> None:
    # Given a rated memory, the version a caller read, and a rating that lands after it
    read = rated_memory(storage)
    late = make_rating(3, lt(1), 9)
    assert not any(isinstance(o, EntryFailure) for o in storage.record_ratings([late], at(0)))
    # When it is deleted on the version read before that rating
    assert storage.delete_memories(TENANT, [lt(1)], at(0), read) == [lt(1)]
    # Then the delete read it again and took the late rating with it
    assert_nothing_left(storage)


def test_a_memory_already_gone_is_not_reported_deleted(storage: DynamoStorage) -> None:
    # Given a memory deleted by another call after the caller read it
    read = rated_memory(storage)
    assert storage.delete_memories(TENANT, [lt(1)], at(0)) == [lt(1)]
    # When it is deleted again on the version read
    # Then it is not among the deleted
    assert storage.delete_memories(TENANT, [lt(1)], at(0), read) == []
    assert_nothing_left(storage)
