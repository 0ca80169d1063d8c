"""Memories on DynamoDB: the search index under failures, replace/delete races, the GSI keys.

Failures are injected with botocore hooks (`inject_failure`); a concurrent writer is made
to land exactly between a delete's read and its conditional DeleteItem.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from shared.domain import (
    CorpusStats,
    EmbeddingChange,
    EntryFailure,
    EntryFailureCode,
    MemoryReplace,
    MemoryType,
    NewMemory,
)
from shared.search.topk import PageRequest
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage
from shared.storage.dynamo.items import TTL_ATTRIBUTE, memory_key, rating_guard_key
from shared.storage.dynamo.memory_index import read_step
from shared.storage.dynamo.memory_items import memory_posting_key, posting_keys
from tests.contract.builders import TENANT, at, embedding, lt, make_memory, make_rating, st
from tests.integration.conftest import BUCKET, TABLE, CallRecorder, inject_failure


def found(storage: DynamoStorage, *terms: str) -> dict[str, list[tuple[str, int, str]]]:
    areas = ["users/nutzer-1", "users/anna", "users/bruno"]
    postings = storage.lookup_memory_terms(TENANT, list(terms), areas).postings
    return {
        term: sorted((str(p.entry_id), p.tf, p.nutzer) for p in items)
        for term, items in postings.items()
    }


def raw_item(clients: AwsClients, key: dict[str, Any]) -> dict[str, Any] | None:
    return clients.dynamodb.get_item(TableName=TABLE, Key=key, ConsistentRead=True).get("Item")


def object_keys(clients: AwsClients) -> list[str]:
    """Every vector key of every index of the vector bucket (S3 Vectors)."""
    vectors = clients.s3vectors
    keys: list[str] = []
    for index in vectors.list_indexes(vectorBucketName=BUCKET).get("indexes", []):
        listed = vectors.list_vectors(vectorBucketName=BUCKET, indexName=index["indexName"])
        keys += [v["key"] for v in listed.get("vectors", [])]
    return sorted(keys)


def storage_failure(result: object) -> None:
    assert isinstance(result, EntryFailure), result
    assert result.code is EntryFailureCode.STORAGE


def test_failed_postings_undo_the_whole_memory(storage: DynamoStorage, clients: AwsClients) -> None:
    # Given postings of longterm_2 fail (its 25+ terms fill their own BatchWriteItem chunks)
    first = {f"a{i}": 1 for i in range(25)}
    second = {f"b{i}": 1 for i in range(5)}
    broken = inject_failure(
        clients.dynamodb,
        "dynamodb.BatchWriteItem",
        lambda r: b'"longterm_2"' in r["body"] and b"PutRequest" in r["body"],
    )
    # When both are stored with embeddings
    results = storage.put_memories(
        [
            NewMemory(make_memory(lt(1), terms=first, doc_len=25), embedding(1.0)),
            NewMemory(make_memory(lt(2), terms=second, doc_len=5), embedding(2.0)),
        ]
    )
    # Then only longterm_2 fails, and nothing of it is left: item, object, postings, stats
    assert broken.requests
    assert results[0] is None
    storage_failure(results[1])
    assert set(storage.get_memories(TENANT, [lt(1), lt(2)], at(0))) == {lt(1)}
    assert raw_item(clients, memory_key(TENANT, lt(2))) is None
    assert found(storage, "a0", "b0") == {"a0": [("longterm_1", 1, "nutzer-1")]}
    assert storage.memory_stats(TENANT) == CorpusStats(1, 25)
    assert len(object_keys(clients)) == 1


def test_duplicate_id_restores_the_postings_of_the_existing_memory(
    storage: DynamoStorage,
) -> None:
    # Given longterm_1 of anna with the terms a and b
    original = make_memory(lt(1), nutzer="anna", terms={"a": 1, "b": 2}, doc_len=3)
    assert storage.put_memories([NewMemory(original)]) == [None]
    # When another memory with the same ID (terms b and c, of bruno) is stored
    duplicate = make_memory(lt(1), nutzer="bruno", terms={"b": 5, "c": 1}, doc_len=6)
    storage_failure(storage.put_memories([NewMemory(duplicate)])[0])
    # Then the index and the stats are those of the original again
    assert found(storage, "a", "b", "c") == {
        "a": [("longterm_1", 1, "anna")],
        "b": [("longterm_1", 2, "anna")],
    }
    assert storage.memory_stats(TENANT) == CorpusStats(1, 3)


def test_failed_postings_of_a_replace_report_storage_and_heal_on_the_next_replace(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given longterm_1 with the terms alt and bleibt, and a BatchWriteItem that keeps failing
    v1 = make_memory(lt(1), terms={"alt": 1, "bleibt": 1}, doc_len=2)
    assert storage.put_memories([NewMemory(v1)]) == [None]
    read = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
    broken = inject_failure(clients.dynamodb, "dynamodb.BatchWriteItem")
    # When it is replaced by a text with the terms neu and bleibt
    v2 = replace(read, memory="v2", terms={"neu": 1, "bleibt": 2}, doc_len=3)
    storage_failure(storage.replace_memories([MemoryReplace(v2, read)], at(0))[0])
    # Then the memory and the stats are the new version (one transaction); the item names
    # the old postings (alt, and bleibt with its old weight) as stale, and keeps them until
    # the next write has deleted them
    stored = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
    assert (stored.memory, stored.version, stored.terms) == ("v2", 1, {"neu": 1, "bleibt": 2})
    item = raw_item(clients, memory_key(TENANT, lt(1)))
    old = posting_keys(v1)
    assert item is not None and {tuple(k) for k in json.loads(item["stale"]["S"])} == old
    assert storage.memory_stats(TENANT) == CorpusStats(1, 3)
    assert set(found(storage, "alt", "neu")) == {"alt"}
    # When the index works again and the memory is replaced from what the service reads
    broken.active = False
    v3 = replace(stored, memory="v3", terms={"neu": 1}, doc_len=1)
    assert storage.replace_memories([MemoryReplace(v3, stored)], at(0)) == [None]
    # Then the index matches the memory again, and nothing is stale any more
    assert found(storage, "alt", "neu", "bleibt") == {"neu": [("longterm_1", 1, "nutzer-1")]}
    assert storage.memory_stats(TENANT) == CorpusStats(1, 1)
    assert "stale" not in (raw_item(clients, memory_key(TENANT, lt(1))) or {})


def test_a_replace_refused_for_a_rating_puts_the_postings_back_and_counts_nothing(
    storage: DynamoStorage,
) -> None:
    # Given longterm_1 with the terms alt and bleibt, rated after the caller read it
    v1 = make_memory(lt(1), terms={"alt": 1, "bleibt": 1}, doc_len=2)
    assert storage.put_memories([NewMemory(v1)]) == [None]
    read = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
    storage.record_ratings([make_rating(1, lt(1), 4)], at(0))
    # When the stale read is replaced by a text with the terms neu and bleibt (the
    # postings diff runs beside the transaction that the version refuses)
    v2 = replace(read, memory="v2", terms={"neu": 1, "bleibt": 2}, doc_len=3)
    (result,) = storage.replace_memories([MemoryReplace(v2, read)], at(0))
    # Then it is a CONFLICT, and index and stats are the stored version's again
    assert isinstance(result, EntryFailure) and result.code is EntryFailureCode.CONFLICT
    assert found(storage, "alt", "neu", "bleibt") == {
        "alt": [("longterm_1", 1, "nutzer-1")],
        "bleibt": [("longterm_1", 1, "nutzer-1")],
    }
    assert storage.memory_stats(TENANT) == CorpusStats(1, 2)


def test_replace_that_conflicts_deletes_its_new_object_and_keeps_the_old(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a memory with an embedding, rated after the caller read it
    assert storage.put_memories([NewMemory(make_memory(lt(1)), embedding(1.0))]) == [None]
    read = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
    storage.record_ratings([make_rating(1, lt(1), 4)], at(0))
    (old_key,) = object_keys(clients)
    # When the stale read is replaced with a new embedding
    change = MemoryReplace(read, read, EmbeddingChange.SET, embedding(9.0))
    result = storage.replace_memories([change], at(0))[0]
    # Then it is a CONFLICT, and only the old object is left
    assert isinstance(result, EntryFailure) and result.code is EntryFailureCode.CONFLICT
    assert object_keys(clients) == [old_key]
    assert storage.get_embedding(TENANT, lt(1)) == embedding(1.0)


def test_delete_reads_again_when_a_rating_lands_before_the_delete(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a rated memory, and a second rating that lands just before the transaction
    # that deletes the item
    assert storage.put_memories([NewMemory(make_memory(lt(1), terms={"x": 1}, doc_len=1))]) == [
        None
    ]
    storage.record_ratings([make_rating(1, lt(1), 4)], at(0))
    deletes: list[int] = []

    def second_writer(params: dict[str, Any], **_: Any) -> None:
        if not any("Delete" in action for action in params["TransactItems"]):
            return  # the rating's own transaction
        deletes.append(1)
        if len(deletes) == 1:
            assert not isinstance(
                storage.record_ratings([make_rating(2, lt(1), 6)], at(0))[0], EntryFailure
            )

    clients.dynamodb.meta.events.register(
        "before-parameter-build.dynamodb.TransactWriteItems", second_writer
    )
    # When the memory is deleted
    assert storage.delete_memories(TENANT, [lt(1)], at(0)) == [lt(1)]
    # Then the first transaction failed its version condition, the retry deleted it, and
    # both ratings and their guards are gone with it
    assert len(deletes) == 2
    assert storage.get_ratings(TENANT, lt(1)) == []
    for insert_id in (1, 2):
        assert raw_item(clients, rating_guard_key(TENANT, insert_id)) is None
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)


def test_side_data_left_by_a_failed_delete_goes_with_the_next_delete(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a rated memory, and a BatchWriteItem that fails once
    assert storage.put_memories([NewMemory(make_memory(lt(1)))]) == [None]
    storage.record_ratings([make_rating(1, lt(1), 4)], at(0))
    broken = inject_failure(clients.dynamodb, "dynamodb.BatchWriteItem")
    # When it is deleted: the item goes, its rating stays behind
    assert storage.delete_memories(TENANT, [lt(1)], at(0)) == [lt(1)]
    assert broken.requests
    assert len(storage.get_ratings(TENANT, lt(1))) == 1
    # Then deleting the ID again reports nothing but removes the rest
    broken.active = False
    assert storage.delete_memories(TENANT, [lt(1)], at(0)) == []
    assert storage.get_ratings(TENANT, lt(1)) == []
    assert raw_item(clients, rating_guard_key(TENANT, 1)) is None


def test_items_carry_their_index_keys_and_postings_the_ttl(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a short-term and a long-term memory
    short = make_memory(st(1), expires_at=at(30), terms={"kurz": 1}, doc_len=1)
    assert storage.put_memories([NewMemory(short), NewMemory(make_memory(lt(1)))]) == [None] * 2
    # When their items and the short-term posting are read raw
    short_item = raw_item(clients, memory_key(TENANT, st(1)))
    long_item = raw_item(clients, memory_key(TENANT, lt(1)))
    area = "users/nutzer-1"
    posting = raw_item(clients, memory_posting_key(TENANT, area, "kurz", 1, 1, st(1)))
    assert short_item is not None and long_item is not None and posting is not None
    # Then both are in the type partition, only the short-term one in the expiry index,
    # and the posting expires (TTL) with its memory
    assert short_item["typ_pk"] == {"S": "T#tenant-a#MTYP#shortterm#users/nutzer-1"}
    assert long_item["typ_pk"] == {"S": "T#tenant-a#MTYP#longterm#users/nutzer-1"}
    assert short_item["exp_pk"]["S"].startswith("EXP#")
    assert short_item["exp_sk"] == short_item["expires_us"]
    assert "exp_pk" not in long_item and "exp_sk" not in long_item
    assert posting[TTL_ATTRIBUTE] == short_item[TTL_ATTRIBUTE]
    # And a replace that moves the expiry moves the index keys and the posting TTL along
    read = storage.get_memories(TENANT, [st(1)], at(0))[st(1)]
    later = replace(read, expires_at=at(90), terms={"kurz": 2}, doc_len=2)
    assert storage.replace_memories([MemoryReplace(later, read)], at(0)) == [None]
    moved = raw_item(clients, memory_key(TENANT, st(1)))
    posting = raw_item(clients, memory_posting_key(TENANT, area, "kurz", 2, 2, st(1)))
    assert moved is not None and posting is not None
    # (the posting of the old weight is gone: its key sorted by the old impact)
    assert raw_item(clients, memory_posting_key(TENANT, area, "kurz", 1, 1, st(1))) is None
    assert moved["exp_sk"] == moved["expires_us"] != short_item["expires_us"]
    assert moved["exp_pk"] == short_item["exp_pk"]
    assert posting[TTL_ATTRIBUTE] == moved[TTL_ATTRIBUTE] and posting["tf"] == {"N": "2"}


def test_recent_memories_page_past_expired_ones(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given five live short-term memories below five newer expired ones
    memories = [make_memory(st(i), expires_at=at(100 if i <= 5 else 1)) for i in range(1, 11)]
    assert storage.put_memories([NewMemory(m) for m in memories]) == [None] * 10
    recorder.reset()
    # When the three newest live ones are asked for
    recent = storage.recent_memories(TENANT, MemoryType.SHORTTERM, ["users/nutzer-1"], at(2), 3)
    # Then the Query continued past the filtered page until it had three
    assert [m.id for m in recent] == [st(5), st(4), st(3)]
    assert recorder.sequential_round_trips() > 1


def test_a_word_list_step_counts_exactly_what_follows_its_cursor(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given seven memories with the term kunde in one area (one list of seven postings)
    memories = [make_memory(lt(i), terms={"kunde": i}, doc_len=i) for i in range(1, 8)]
    assert storage.put_memories([NewMemory(m) for m in memories]) == [None] * 7
    key = ("users/nutzer-1", "kunde")
    recorder.reset()
    # When one step reads its first page of three and counts the list
    (first,) = read_step(storage._calls, TENANT, [PageRequest(key, None, 3, True)])
    # Then the page and the count (Select=COUNT) ran side by side: 7 follow the start
    assert (len(first.postings), first.remaining) == (3, 7)
    assert recorder.sequential_round_trips() == 1
    # And from its cursor, a step counts the 4 that follow; the last page ends the list
    (second,) = read_step(storage._calls, TENANT, [PageRequest(key, first.cursor, 4, True)])
    assert (len(second.postings), second.remaining) == (4, 4)
    (last,) = read_step(storage._calls, TENANT, [PageRequest(key, second.cursor, 4, False)])
    assert (last.postings, last.cursor, last.remaining) == ([], None, None)
