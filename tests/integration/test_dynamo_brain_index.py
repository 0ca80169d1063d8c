"""Brain entries on DynamoDB: replace chains, concurrent replaces, and index healing."""

from __future__ import annotations

from shared.domain import BrainWrite, CorpusStats, EntryFailure, EntryFailureCode
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage
from shared.storage.dynamo.items import brain_key
from tests.contract.builders import TENANT, at, make_entry
from tests.integration.conftest import TABLE, inject_failure


def terms_found(storage: DynamoStorage, *terms: str) -> dict[str, list[tuple[int, int]]]:
    postings = storage.lookup_terms(TENANT, list(terms)).postings
    return {term: [(p.entry_id, p.tf) for p in found] for term, found in postings.items()}


def test_failed_postings_report_storage_and_heal_on_the_next_upsert(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given entry 1 with the terms a and b, and a BatchWriteItem that keeps failing
    v1 = make_entry(1, terms={"a": 1, "b": 1}, doc_len=2)
    assert storage.put_brain_entries([BrainWrite(v1)]) == [None]
    broken = inject_failure(clients.dynamodb, "dynamodb.BatchWriteItem")
    # When it is replaced by a version with b and c
    v2 = make_entry(1, titel="v2", terms={"b": 2, "c": 1}, doc_len=3, updated_at=at(1))
    result = storage.put_brain_entries([BrainWrite(v2, previous=v1)])[0]
    # Then the write reports STORAGE: the entry and stats are stored, the index is not
    assert isinstance(result, EntryFailure) and result.code == EntryFailureCode.STORAGE
    assert broken.requests
    stored = storage.get_brain_entries(TENANT, [1])[1]
    assert stored.titel == "v2"
    assert storage.brain_stats(TENANT) == CorpusStats(1, 3)
    assert terms_found(storage, "a", "b", "c") == {"a": [(1, 1)], "b": [(1, 1)]}
    # And the entry names the dropped term a (tf 0, written with it): the next upsert
    # deletes its posting
    assert stored.terms == {"b": 2, "c": 1, "a": 0}
    # When the index works again and the entry is upserted from what the service reads
    broken.active = False
    v3 = make_entry(1, titel="v3", terms={"b": 1, "d": 1}, doc_len=2, updated_at=at(2))
    assert storage.put_brain_entries([BrainWrite(v3, previous=stored)]) == [None]
    # Then the index matches the entry again: no stale a, no c, b updated, d added
    assert terms_found(storage, "a", "b", "c", "d") == {"b": [(1, 1)], "d": [(1, 1)]}
    assert storage.get_brain_entries(TENANT, [1])[1].terms == {"b": 1, "d": 1}
    assert storage.brain_stats(TENANT) == CorpusStats(1, 2)


def test_two_replaces_of_one_entry_in_a_batch_apply_in_order(storage: DynamoStorage) -> None:
    # Given entry 1 with the term alt
    v1 = make_entry(1, terms={"alt": 1}, doc_len=1)
    assert storage.put_brain_entries([BrainWrite(v1)]) == [None]
    # When one batch replaces it twice, both times from the version the service read
    first = make_entry(1, titel="erst", terms={"erst": 2}, doc_len=4, updated_at=at(1))
    second = make_entry(1, titel="zweit", terms={"zweit": 1}, doc_len=7, updated_at=at(2))
    results = storage.put_brain_entries(
        [BrainWrite(first, previous=v1), BrainWrite(second, previous=v1)]
    )
    # Then both apply in order: the second wins, index and stats follow the final version
    assert results == [None, None]
    stored = storage.get_brain_entries(TENANT, [1])[1]
    assert (stored.titel, stored.created_at) == ("zweit", v1.created_at)
    assert terms_found(storage, "alt", "erst", "zweit") == {"zweit": [(1, 1)]}
    assert storage.brain_stats(TENANT) == CorpusStats(1, 7)


def test_replace_from_a_stale_version_wins_and_keeps_index_and_stats_consistent(
    storage: DynamoStorage,
) -> None:
    # Given entry 1, which another writer replaced after our caller read it
    v1 = make_entry(1, terms={"alt": 1}, doc_len=1)
    assert storage.put_brain_entries([BrainWrite(v1)]) == [None]
    other = make_entry(1, titel="anderer", terms={"fremd": 1}, doc_len=5, updated_at=at(1))
    assert storage.put_brain_entries([BrainWrite(other, previous=v1)]) == [None]
    # When our caller replaces it, still describing the old version as previous
    ours = make_entry(1, titel="unser", terms={"unser": 3}, doc_len=3, updated_at=at(2))
    assert storage.put_brain_entries([BrainWrite(ours, previous=v1)]) == [None]
    # Then the last writer wins, the stats count the stored length once,
    # and no posting of either older version is left
    assert storage.get_brain_entries(TENANT, [1])[1].titel == "unser"
    assert storage.brain_stats(TENANT) == CorpusStats(1, 3)
    assert terms_found(storage, "alt", "fremd", "unser") == {"unser": [(1, 3)]}


def test_stats_are_summed_over_their_shards(storage: DynamoStorage) -> None:
    # Given 20 entries (spread over all stats shards by ID)
    writes = [BrainWrite(make_entry(i, terms={"x": 1}, doc_len=i)) for i in range(1, 21)]
    # When they are created
    assert storage.put_brain_entries(writes) == [None] * 20
    # Then the stats count every document and length exactly once
    assert storage.brain_stats(TENANT) == CorpusStats(20, sum(range(1, 21)))
    assert storage.lookup_terms(TENANT, ["x"]).stats == CorpusStats(20, 210)


def create_fails_with_storage(storage: DynamoStorage) -> bool:
    """Create entry 1 (term `neu`): does it report STORAGE?"""
    (result,) = storage.put_brain_entries([BrainWrite(make_entry(1, terms={"neu": 2}, doc_len=2))])
    return isinstance(result, EntryFailure) and result.code == EntryFailureCode.STORAGE


def test_a_create_writes_its_postings_beside_the_entry_and_a_failed_one_leaves_none(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a TransactWriteItems that fails (the create of entry 1 and its stats)
    broken = inject_failure(clients.dynamodb, "dynamodb.TransactWriteItems")
    # When entry 1 is created (its postings are written side by side with the create)
    # Then it reports STORAGE and nothing of it is left: no entry, no posting, no stats
    assert create_fails_with_storage(storage) and broken.requests
    assert storage.get_brain_entries(TENANT, [1]) == {}
    assert terms_found(storage, "neu") == {}
    assert storage.brain_stats(TENANT) == CorpusStats(0, 0)


def test_a_create_whose_postings_fail_reports_storage(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a BatchWriteItem that keeps failing
    broken = inject_failure(clients.dynamodb, "dynamodb.BatchWriteItem")
    # When entry 1 is created, then the answer says STORAGE
    assert create_fails_with_storage(storage) and broken.requests
    # And the entry and its stats are stored, the index is not
    assert storage.brain_stats(TENANT) == CorpusStats(1, 2)
    # And the next upsert of the entry (from what the service reads) heals the index
    broken.active = False
    again = make_entry(1, titel="neu", terms={"neu": 2}, doc_len=2, updated_at=at(1))
    stored = storage.get_brain_entries(TENANT, [1])[1]
    assert storage.put_brain_entries([BrainWrite(again, previous=stored)]) == [None]
    assert terms_found(storage, "neu") == {"neu": [(1, 2)]}


def test_a_replace_of_a_vanished_entry_reports_not_found_and_leaves_no_posting(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given entry 1 with the term alt, whose item then vanishes (stats and postings stay)
    v1 = make_entry(1, terms={"alt": 1}, doc_len=1)
    assert storage.put_brain_entries([BrainWrite(v1)]) == [None]
    clients.dynamodb.delete_item(TableName=TABLE, Key=brain_key(TENANT, 1))
    # When it is replaced by a version with neu (its postings diff runs beside the
    # transaction: alt deleted, neu put)
    v2 = make_entry(1, titel="v2", terms={"neu": 2}, doc_len=2, updated_at=at(1))
    (result,) = storage.put_brain_entries([BrainWrite(v2, previous=v1)])
    # Then it reports NOT_FOUND, and its postings are those of what is stored: none
    assert isinstance(result, EntryFailure) and result.code == EntryFailureCode.NOT_FOUND
    assert terms_found(storage, "alt", "neu") == {}
    assert storage.brain_stats(TENANT) == CorpusStats(1, 1)


def test_a_replace_clears_the_marks_of_the_terms_it_dropped(storage: DynamoStorage) -> None:
    # Given entry 1 with the terms a and b
    v1 = make_entry(1, terms={"a": 1, "b": 1}, doc_len=2)
    assert storage.put_brain_entries([BrainWrite(v1)]) == [None]
    # When it is replaced by a version with b only (a is marked in the transaction)
    v2 = make_entry(1, titel="v2", terms={"b": 3}, doc_len=3, updated_at=at(1))
    assert storage.put_brain_entries([BrainWrite(v2, previous=v1)]) == [None]
    # Then, its postings complete, the stored entry names only b, and only b is indexed
    assert storage.get_brain_entries(TENANT, [1])[1].terms == {"b": 3}
    assert terms_found(storage, "a", "b") == {"b": [(1, 3)]}
    assert storage.brain_stats(TENANT) == CorpusStats(1, 3)
