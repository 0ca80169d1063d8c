"""Memory counts and tombstones on DynamoDB Local: a replace whose snapshot is not what
the item indexes counts from the item; a transaction that meets another one is sent again
with a fresh token; the expiry sweep finishes a sweep cut off after its transaction
(tombstones are in the sweep's GSI too); updates racing deletes count nothing twice and
leave no posting."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from shared.domain import CorpusStats, EntryFailure, MemoryId, MemoryReplace, NewMemory
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage
from shared.storage.dynamo.items import MEMORY_STATS, key, memory_key, memory_pk, stats_key
from shared.storage.dynamo.memory_items import (
    SK_GONE,
    memory_item,
    posting_keys,
    postings,
    stale_attribute,
)
from tests.contract.builders import TENANT, at, lt, make_memory, st
from tests.integration.conftest import TABLE, inject_failure, inject_response


def raw(clients: AwsClients, key: dict[str, Any]) -> dict[str, Any] | None:
    return clients.dynamodb.get_item(TableName=TABLE, Key=key, ConsistentRead=True).get("Item")


def test_a_replace_from_a_snapshot_that_is_not_what_the_item_indexes_counts_from_the_item(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a stored memory (doc_len 1) and a snapshot of its version that says doc_len 5
    # and other terms (not what the item indexes)
    m = make_memory(lt(1), terms={"kunde": 1}, doc_len=1)
    assert storage.put_memories([NewMemory(m)]) == [None]
    read = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
    wrong = replace(read, terms={"anders": 5}, doc_len=5)
    # When the memory is replaced from it
    v2 = replace(read, memory="v2", terms={"neu": 2}, doc_len=2)
    assert storage.replace_memories([MemoryReplace(v2, wrong)], at(0)) == [None]
    # Then the stats changed by what the item held, and its old posting went too
    assert storage.memory_stats(TENANT) == CorpusStats(1, 2)
    postings = storage.lookup_memory_terms(TENANT, ["kunde", "neu"], ["users/nutzer-1"])
    assert set(postings.postings) == {"neu"}


def test_a_record_transaction_that_meets_another_is_sent_again_with_a_fresh_token(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a first TransactWriteItems that DynamoDB cancels for a conflicting transaction
    tokens: list[str] = []

    def conflict_once(request: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        tokens.append(json.loads(request["body"])["ClientRequestToken"])
        if len(tokens) > 1:
            return None
        reasons = [{"Code": "TransactionConflict"}, {"Code": "None"}]
        error = {"Code": "TransactionCanceledException", "Message": "conflict"}
        return 400, {"Error": error, "CancellationReasons": reasons}

    inject_response(clients.dynamodb, "dynamodb.TransactWriteItems", conflict_once)
    # When a memory is stored
    m = make_memory(lt(1), terms={"kunde": 2}, doc_len=2)
    assert storage.put_memories([NewMemory(m)]) == [None]
    # Then the transaction went again, with another token, and counted once
    assert len(tokens) == 2 and tokens[0] != tokens[1]
    assert storage.memory_stats(TENANT) == CorpusStats(1, 2)
    assert raw(clients, memory_key(TENANT, lt(1))) is not None


def test_the_sweep_finishes_a_sweep_cut_off_after_its_delete(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given two expired short-term memories and a sweep that died after its DeleteItems
    new = [make_memory(st(n), terms={"kunde": 1}, doc_len=1, expires_at=at(5)) for n in (1, 2)]
    assert storage.put_memories([NewMemory(m) for m in new]) == [None, None]
    cut = inject_response(
        clients.dynamodb,
        "dynamodb.BatchWriteItem",
        lambda _: (500, {"Error": {"Code": "InternalError", "Message": "cut"}}),
    )
    storage.delete_expired(at(10), 100)
    assert storage.get_memories(TENANT, [st(1), st(2)], at(0)) == {}
    # (uncounted with their items; their tombstones stay, naming the postings)
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)
    assert all(raw(clients, _tombstone(st(n))) is not None for n in (1, 2))
    cut.active = False
    # When the next sweep runs
    storage.delete_expired(at(11), 100)
    # Then the postings, the tombstones and the count are gone
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)
    assert raw(clients, _tombstone(st(1))) is None
    postings = storage.lookup_memory_terms(TENANT, ["kunde"], ["users/nutzer-1"]).postings
    assert postings == {}


def test_a_delete_removes_what_a_replace_wrote_after_the_delete_read_the_memory(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a memory whose update lands just after a delete read the memory's partition:
    # the item at the new version (naming the old postings stale), its stats change and
    # its new posting
    m = make_memory(lt(1), terms={"alt": 1}, doc_len=1)
    assert storage.put_memories([NewMemory(m)]) == [None]
    read = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
    newer = replace(read, memory="neu", terms={"neu": 3}, doc_len=3, version=read.version + 1)
    landed: list[str] = []

    def replace_lands(**_: Any) -> None:
        if landed:
            return
        landed.append("replace")
        stale = stale_attribute(posting_keys(read))
        item = memory_item(newer, write_id="other", embedding_key=None) | stale
        clients.dynamodb.put_item(TableName=TABLE, Item=item)
        _add(clients, lt(1), 0, 2)
        clients.dynamodb.put_item(TableName=TABLE, Item=postings(newer)[0])  # neu, tf 3

    clients.dynamodb.meta.events.register(
        "before-call.dynamodb.TransactWriteItems", replace_lands, unique_id="lands"
    )
    # When the delete runs into it
    assert storage.delete_memories(TENANT, [lt(1)], at(0)) == [lt(1)]
    # Then the new version went too, with its postings and tombstone, and the stats count
    # nothing
    assert landed == ["replace"]
    assert raw(clients, memory_key(TENANT, lt(1))) is None
    assert raw(clients, _tombstone(lt(1))) is None
    assert storage.lookup_memory_terms(TENANT, ["neu", "alt"], ["users/nutzer-1"]).postings == {}
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)


def test_a_cut_off_delete_of_a_memory_with_stale_postings_is_finished_by_its_resend(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a memory whose replace could not write its postings (the old one, alt, is
    # named stale on the item; the new one, neu, may or may not exist), and a delete of it
    # whose postings' deletes fail after its transaction
    v1 = make_memory(lt(1), terms={"alt": 1}, doc_len=1)
    assert storage.put_memories([NewMemory(v1)]) == [None]
    read = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
    broken = inject_failure(clients.dynamodb, "dynamodb.BatchWriteItem")
    v2 = replace(read, memory="v2", terms={"neu": 1}, doc_len=1)
    assert isinstance(storage.replace_memories([MemoryReplace(v2, read)], at(0))[0], EntryFailure)
    clients.dynamodb.put_item(TableName=TABLE, Item=postings(v2)[0])  # neu, tf 1
    assert storage.delete_memories(TENANT, [lt(1)], at(0)) == [lt(1)]
    assert raw(clients, _tombstone(lt(1))) is not None
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)
    broken.active = False
    # When the delete is sent again
    assert storage.delete_memories(TENANT, [lt(1)], at(0)) == []
    # Then the postings of both versions are gone, and the tombstone; nothing was counted
    # twice
    assert storage.lookup_memory_terms(TENANT, ["alt", "neu"], ["users/nutzer-1"]).postings == {}
    assert raw(clients, _tombstone(lt(1))) is None
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)


def _tombstone(memory_id: MemoryId) -> dict[str, Any]:
    return key(memory_pk(TENANT, memory_id), SK_GONE)


def _add(clients: AwsClients, memory_id: Any, documents: int, total: int) -> None:
    clients.dynamodb.update_item(
        TableName=TABLE,
        Key=stats_key(TENANT, MEMORY_STATS, memory_id),
        UpdateExpression="ADD documents :d, total_len :t",
        ExpressionAttributeValues={":d": {"N": str(documents)}, ":t": {"N": str(total)}},
    )


def test_a_replace_does_not_bring_back_a_memory_a_delete_removed_meanwhile(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given an update whose memory is deleted (item, postings, count) just before the
    # update's transaction
    m = make_memory(lt(1), terms={"alt": 1}, doc_len=1)
    assert storage.put_memories([NewMemory(m)]) == [None]
    read = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
    deleted: list[MemoryId] = []

    def delete_lands(**_: Any) -> None:
        if not deleted:
            deleted.append(lt(1))
            assert storage.delete_memories(TENANT, [lt(1)], at(0)) == [lt(1)]

    clients.dynamodb.meta.events.register(
        "before-call.dynamodb.TransactWriteItems", delete_lands, unique_id="delete"
    )
    newer = replace(read, memory="neu", terms={"neu": 3}, doc_len=3)
    storage.replace_memories([MemoryReplace(newer, read)], at(0))
    clients.dynamodb.meta.events.unregister("before-call.dynamodb.TransactWriteItems", "delete")
    # Then the memory stays deleted and uncounted, and the update's postings went again
    assert deleted == [lt(1)]
    assert raw(clients, memory_key(TENANT, lt(1))) is None
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)
    assert storage.lookup_memory_terms(TENANT, ["neu", "alt"], ["users/nutzer-1"]).postings == {}
