"""The insert stage on DynamoDB (memories.py): per stats shard one TransactWriteItems of the
items (conditioned absent) with the stats, beside the postings' BatchWriteItem chunks and
PutVectors.

Measured on the production pool behind the simulated network (`pooled`, conftest): the
calls and waves of inserts of 1, 10 and 100 memories and of `remember`. On DynamoDB Local:
that every item goes through its transaction, that a failed chunk or a transaction whose
answer was lost leaves nothing of its memories behind, an unprocessed chunk is written
again after a backoff (failures injected with botocore hooks).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest
from botocore.exceptions import ClientError

from shared.domain import CorpusStats, CounterName, EntryFailure, MemoryId, MemoryType, NewMemory
from shared.search.duplicates import term_set
from shared.services.memory_os import remember
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage
from shared.storage.dynamo.calls import ITEM_MAX_BYTES
from shared.storage.dynamo.items import memory_key, stats_shard
from shared.validation.memory_requests import parse_remember
from tests.contract.builders import TENANT, at, embedding, lt, make_memory
from tests.integration.conftest import CallRecorder, Sleeps
from tests.integration.test_dynamo_batches import first_call_unprocessed
from tests.integration.test_dynamo_memory_index import found, object_keys, raw_item
from tests.integration.test_dynamo_round_trips import ANNA, PRINCIPAL, context, insert


def reserved(storage: DynamoStorage, count: int) -> list[MemoryId]:
    return [lt(n) for n in storage.reserve_ids(TENANT, CounterName.LONGTERM, count)]


def new_memory(memory_id: MemoryId, **overrides: Any) -> NewMemory:
    return NewMemory(make_memory(memory_id, **overrides))


# 100 long-term: test_dynamo_round_trips.py (the exact call count)
@pytest.mark.parametrize(
    ("count", "typ"),
    [
        (1, MemoryType.LONGTERM),
        (10, MemoryType.LONGTERM),
        (1, MemoryType.SHORTTERM),
        (100, MemoryType.SHORTTERM),
    ],
)
def test_an_insert_writes_its_items_with_the_stats_beside_the_postings(
    pooled: DynamoStorage,
    recorder: CallRecorder,
    count: int,
    typ: MemoryType,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given the vector index of the profile the entries use
    first = make_memory(lt(999), tenant=PRINCIPAL.tenant, embedding_profil_hash="profil-1")
    assert pooled.put_memories([NewMemory(first, embedding(1.0, 2.0, 3.0, 4.0))]) == [None]
    pooled.delete_memories(PRINCIPAL.tenant, [lt(999)], at(0))
    # When `count` memories are inserted through the service
    recorder.start()
    ids = insert(pooled, typ, count)
    stages, waves, calls = recorder.stages(), recorder.waves(), len(recorder.calls)
    # Then: tags beside the near-duplicate check's postings Queries (one wave), counter
    # (outside the retry layer, which reserves the IDs with its call record instead), then
    # one stage of the postings in chunks of 25, one PutVectors and per stats shard the
    # items with the stats (one TransactWriteItems), 3 waves
    wanted = [mid for raw in ids if (mid := MemoryId.parse(raw)) is not None]
    stored = pooled.get_memories(PRINCIPAL.tenant, wanted, at(0))
    assert len(stored) == count
    postings = sum(len(m.terms) for m in stored.values())
    shards = {stats_shard(mid) for mid in wanted}
    chunks = math.ceil(postings / 25)
    assert sorted(sorted(stage) for stage in stages[:2]) == [["Query"], ["UpdateItem"]]
    assert stages[2] == Counter({"UpdateItem": 1})
    assert stages[3] == Counter(
        {"BatchWriteItem": chunks, "PutVectors": 1, "TransactWriteItems": len(shards)}
    )
    assert len(stages) == 4 and waves == 3
    with capsys.disabled():
        print(f"\ninsert {count} {typ.value}: {calls} calls, {waves} waves")


def test_remember_writes_its_item_with_its_postings(
    pooled: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given anna's area
    recorder.start()
    # When she remembers a note about a customer
    request = parse_remember(
        {"path": "users/anna/kunden/k-1", "content": "K-1 wünscht Rückruf am Vormittag."}
    )
    response = remember(context(pooled), ANNA, request)
    # Then: tag beside the near-duplicate check's postings Queries (one per term of the
    # text, and the stats), counter (outside the retry layer), then the postings in one
    # BatchWriteItem beside the item with the stats
    assert response["erfolg"], response
    stages = recorder.stages()
    terms = term_set("K-1 wünscht Rückruf am Vormittag.")
    assert sorted(stages[:2], key=sorted) == [
        Counter({"Query": len(terms) + 1}),
        Counter({"UpdateItem": 1}),
    ]
    assert stages[2:] == [
        Counter({"UpdateItem": 1}),
        Counter({"BatchWriteItem": 1, "TransactWriteItems": 1}),
    ]
    assert recorder.waves() == 3


def test_every_item_goes_through_its_stats_transaction(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given two IDs from the counter and one that is not (e.g. reused by a resend)
    ids = reserved(storage, 2)
    recorder.reset()
    # When all three are stored
    terms: dict[str, Any] = {"terms": {"rueckruf": 1}, "doc_len": 1}
    batch = [
        new_memory(ids[0], **terms),
        new_memory(ids[1], **terms),
        NewMemory(make_memory(lt(50))),
    ]
    assert storage.put_memories(batch) == [None] * 3
    # Then one stage: the postings' BatchWriteItem beside one transaction per stats shard
    # (items conditioned absent, the stats) — no PutItem of an item
    shards = len(_shards([*ids, lt(50)]))
    assert recorder.stages() == [Counter({"BatchWriteItem": 1, "TransactWriteItems": shards})]
    # And an ID stored again is refused without touching the stored memory or the stats
    again = storage.put_memories([NewMemory(make_memory(lt(50), memory="anders"))])
    assert isinstance(again[0], EntryFailure)
    assert storage.get_memories(TENANT, [lt(50)], at(0))[lt(50)].memory == "Inhalt von longterm_50"
    assert storage.memory_stats(TENANT).documents == 3


def test_an_oversized_item_fails_alone_before_any_call(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given two reserved IDs, one for a memory larger than DynamoDB's item limit
    small, big = reserved(storage, 2)
    recorder.reset()
    # When both are stored
    results = storage.put_memories(
        [new_memory(small), new_memory(big, memory="x" * ITEM_MAX_BYTES)]
    )
    # Then the big one failed before any call (it would fail its whole transaction); the
    # small one is stored
    assert recorder.stages() == [Counter({"TransactWriteItems": 1})]
    assert results[0] is None and isinstance(results[1], EntryFailure)
    assert set(storage.get_memories(TENANT, [small, big], at(0))) == {small}
    assert storage.memory_stats(TENANT).documents == 1


def test_a_chunk_written_but_answered_with_an_error_is_undone(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given 30 memories with one term each and an embedding, whose first
    # BatchWriteItem chunk (the postings of the first 25) is written but answered with an
    # error
    ids = reserved(storage, 30)
    lost = {"calls": 0}

    def lose_first_answer(**_: Any) -> None:
        lost["calls"] += 1
        if lost["calls"] == 1:
            raise ClientError({"Error": {"Code": "InternalServerError"}}, "BatchWriteItem")

    clients.dynamodb.meta.events.register("after-call.dynamodb.BatchWriteItem", lose_first_answer)
    batch = [
        NewMemory(
            make_memory(i, terms={f"t{i.number}": 1}, doc_len=1, embedding_dim=1),
            embedding(float(i.number)),
        )
        for i in ids
    ]
    # When they are stored
    results = storage.put_memories(batch)
    clients.dynamodb.meta.events.unregister("after-call.dynamodb.BatchWriteItem", lose_first_answer)
    # Then the first 25 fail, and nothing of them is left: items, postings, vectors, stats
    assert [r is None for r in results] == [False] * 25 + [True] * 5
    for memory_id in ids[:25]:
        assert raw_item(clients, memory_key(TENANT, memory_id)) is None
    terms = [f"t{i.number}" for i in ids]
    assert sorted(found(storage, *terms)) == terms[25:]
    assert len(object_keys(clients)) == 5
    assert storage.memory_stats(TENANT) == CorpusStats(5, 5)


def test_a_transaction_applied_but_answered_with_an_error_is_undone(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given two memories in one stats shard, whose transaction is applied but answered
    # with an error (its outcome unknown to the writer)
    ids = [i for i in (lt(n) for n in range(1, 40)) if stats_shard(i) == 0][:2]
    lost = {"calls": 0}

    def lose_first_answer(**_: Any) -> None:
        lost["calls"] += 1
        if lost["calls"] == 1:
            raise ClientError({"Error": {"Code": "InternalServerError"}}, "TransactWriteItems")

    event = "after-call.dynamodb.TransactWriteItems"
    clients.dynamodb.meta.events.register(event, lose_first_answer)
    batch = [
        NewMemory(
            make_memory(i, terms={f"t{i.number}": 1}, doc_len=1, embedding_dim=1), embedding(1.0)
        )
        for i in ids
    ]
    # When they are stored
    results = storage.put_memories(batch)
    clients.dynamodb.meta.events.unregister(event, lose_first_answer)
    # Then both fail, and the undo took out what had applied: items, postings, vectors,
    # stats
    assert all(isinstance(r, EntryFailure) for r in results)
    for memory_id in ids:
        assert raw_item(clients, memory_key(TENANT, memory_id)) is None
    assert found(storage, *(f"t{i.number}" for i in ids)) == {}
    assert object_keys(clients) == []
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)


def test_unprocessed_postings_are_written_after_a_backoff(
    storage: DynamoStorage, clients: AwsClients, sleeps: Sleeps
) -> None:
    # Given a BatchWriteItem that first leaves every item unprocessed
    ids = reserved(storage, 2)
    seen = first_call_unprocessed(clients, "BatchWriteItem", "UnprocessedItems")
    # When two memories are stored
    results = storage.put_memories([new_memory(i, terms={"rueckruf": 1}, doc_len=1) for i in ids])
    # Then both are stored after one backoff, the postings on the retry
    assert results == [None, None]
    assert len(seen) == 2 and len(sleeps.delays) == 1
    assert set(storage.get_memories(TENANT, ids, at(0))) == set(ids)
    assert [p[0] for p in found(storage, "rueckruf")["rueckruf"]] == [str(i) for i in ids]
    assert storage.memory_stats(TENANT) == CorpusStats(2, 2)


def _shards(ids: list[MemoryId]) -> set[int]:
    return {stats_shard(i) for i in ids}
