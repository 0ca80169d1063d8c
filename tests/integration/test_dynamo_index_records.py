"""Index records on DynamoDB Local: an item without its record (no write leaves one: the
insert writes both in one transaction) is not counted until a replace records it; a
transaction that meets another one is sent again with a fresh token; the expiry sweep
finishes a sweep cut off after its transaction (short-term records are in the sweep's GSI
too); updates racing deletes count nothing twice."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from shared.domain import CorpusStats, MemoryId, MemoryReplace, NewMemory
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage
from shared.storage.dynamo.items import MEMORY_STATS, stats_key
from shared.storage.dynamo.memory_items import memory_posting_item
from shared.storage.dynamo.memory_records import GONE, record_item, record_key, record_of
from tests.contract.builders import TENANT, at, lt, make_memory, st
from tests.integration.conftest import TABLE, inject_response


def raw(clients: AwsClients, key: dict[str, Any]) -> dict[str, Any] | None:
    return clients.dynamodb.get_item(TableName=TABLE, Key=key, ConsistentRead=True).get("Item")


def test_an_item_without_its_record_counts_from_its_next_replace(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a memory whose record is gone (removed by hand here): item and postings
    # stored, no record, not counted
    m = make_memory(lt(1), terms={"kunde": 1}, doc_len=1)
    assert storage.put_memories([NewMemory(m)]) == [None]
    clients.dynamodb.delete_item(TableName=TABLE, Key=record_key(TENANT, lt(1)))
    _add(clients, lt(1), -1, -1)
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)
    # When the memory is replaced
    read = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
    v2 = replace(read, memory="v2", terms={"kunde": 2}, doc_len=2)
    assert storage.replace_memories([MemoryReplace(v2, read)], at(0)) == [None]
    # Then it is counted once, with its new length, and recorded
    assert storage.memory_stats(TENANT) == CorpusStats(1, 2)
    assert raw(clients, record_key(TENANT, lt(1))) is not None


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
    assert raw(clients, record_key(TENANT, lt(1))) is not None


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
    # (uncounted with their items; the records stay as tombstones naming the postings)
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)
    assert all(GONE in (raw(clients, record_key(TENANT, st(n))) or {}) for n in (1, 2))
    cut.active = False
    # When the next sweep runs
    storage.delete_expired(at(11), 100)
    # Then the postings, the records and the count are gone
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)
    assert raw(clients, record_key(TENANT, st(1))) is None
    postings = storage.lookup_memory_terms(TENANT, ["kunde"], ["users/nutzer-1"]).postings
    assert postings == {}


def test_a_delete_removes_a_record_that_a_replace_moved_after_the_delete_read_it(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a memory whose update recorded its new version just after a delete read the
    # memory's partition (the update's item write came before the read; its record after)
    m = make_memory(lt(1), terms={"alt": 1}, doc_len=1)
    assert storage.put_memories([NewMemory(m)]) == [None]
    read = storage.get_memories(TENANT, [lt(1)], at(0))[lt(1)]
    newer = replace(read, memory="neu", terms={"neu": 3}, doc_len=3)
    landed: list[str] = []

    def replace_lands(**_: Any) -> None:
        if landed:
            return
        landed.append("record")
        clients.dynamodb.put_item(
            TableName=TABLE,
            Item=record_item(record_of(newer, version=read.version + 1, write_id="other")),
        )
        _add(clients, lt(1), 0, 2)
        clients.dynamodb.put_item(TableName=TABLE, Item=memory_posting_item(newer, "neu", 3))

    clients.dynamodb.meta.events.register(
        "before-call.dynamodb.TransactWriteItems", replace_lands, unique_id="lands"
    )
    # When the delete runs into it
    assert storage.delete_memories(TENANT, [lt(1)], at(0)) == [lt(1)]
    # Then the moved record went too, with its postings, and the stats count nothing
    assert landed == ["record"]
    assert raw(clients, record_key(TENANT, lt(1))) is None
    assert storage.lookup_memory_terms(TENANT, ["neu", "alt"], ["users/nutzer-1"]).postings == {}
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)


def _add(clients: AwsClients, memory_id: Any, documents: int, total: int) -> None:
    clients.dynamodb.update_item(
        TableName=TABLE,
        Key=stats_key(TENANT, MEMORY_STATS, memory_id),
        UpdateExpression="ADD documents :d, total_len :t",
        ExpressionAttributeValues={":d": {"N": str(documents)}, ":t": {"N": str(total)}},
    )


def test_a_replace_does_not_record_a_memory_a_delete_removed_meanwhile(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given an update whose memory is deleted (item, postings, record, count) after the
    # update wrote its item and postings, before it records the new version
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
    # Then the memory stays deleted and uncounted: no record comes back
    assert deleted == [lt(1)]
    assert raw(clients, record_key(TENANT, lt(1))) is None
    assert storage.memory_stats(TENANT) == CorpusStats(0, 0)
