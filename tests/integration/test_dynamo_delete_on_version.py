"""A delete on the version the caller read (issue 22: delete in 3 round trips).

`read_for_delete` reads each memory's partition (one Query: item, ratings, a tombstone);
`delete_memories(..., read=...)` then sends the item's Delete, conditioned on the version
read, in one transaction with its tombstone's Put and the stats decrement, side by
side with the deletes of its ratings, guards and postings. Every rating moves the version,
so the read saw every rating record the memory had when it went; a memory rated after the
read is read again and deleted on its new version, the late rating with it.
"""

from __future__ import annotations

from shared.calls import CallMarks
from shared.domain import CorpusStats, DeleteRead, EntryFailure, NewMemory
from shared.storage.dynamo import DynamoStorage
from tests.contract.builders import TENANT, at, lt, make_memory, make_rating
from tests.integration.conftest import CallRecorder


def rated_memory(storage: DynamoStorage) -> DeleteRead:
    """Memory longterm_1 with two ratings, as a delete reads it."""
    memory = make_memory(lt(1), terms={"kunde": 2}, doc_len=2)
    assert storage.put_memories([NewMemory(memory)]) == [None]
    ratings = [make_rating(1, lt(1), 5), make_rating(2, lt(1), 7)]
    assert not any(isinstance(o, EntryFailure) for o in storage.record_ratings(ratings, at(0)))
    read = storage.read_for_delete(TENANT, [lt(1)], at(0))
    assert read.memories == storage.get_memories(TENANT, [lt(1)], at(0))
    return read


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
    # Then one transaction beside one BatchWriteItem was enough (no second read), and
    # nothing of it is left (its tombstone goes after its postings: a second
    # BatchWriteItem)
    operations = [c.operation for c in recorder.calls]
    assert (operations.count("TransactWriteItems"), operations.count("Query")) == (1, 0)
    assert (operations.count("BatchWriteItem"), operations.count("DeleteItem")) == (2, 0)
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


def test_a_delete_refused_after_its_side_data_went_puts_it_back(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given a rated memory as a delete read it, and a call record this send does not own
    read = rated_memory(storage)
    marks = CallMarks("no-such-call", "token", {lt(1): "mark"})
    recorder.start()
    # When it is deleted on that version: its ratings, guards and postings go beside the
    # transaction, which the call record's condition refuses
    assert storage.delete_memories(TENANT, [lt(1)], at(0), read, marks) == []
    assert [c.operation for c in recorder.calls][:2].count("BatchWriteItem") == 1
    # Then the memory is whole again: ratings, postings and stats as before
    assert set(storage.get_memories(TENANT, [lt(1)], at(0))) == {lt(1)}
    assert len(storage.get_ratings(TENANT, lt(1))) == 2
    postings = storage.lookup_memory_terms(TENANT, ["kunde"], ["users/nutzer-1"]).postings
    assert set(postings) == {"kunde"}
    assert storage.memory_stats(TENANT) == CorpusStats(1, 2)
    # And the ratings' guards are back: an insert_ID already used is refused
    again = storage.record_ratings([make_rating(1, lt(1), 5)], at(0))
    assert isinstance(again[0], EntryFailure)
