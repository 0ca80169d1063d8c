"""Batched calls: unprocessed keys/items are retried, full pages are continued (each in
its own task of the stage)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from shared.domain import BrainWrite
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage
from tests.contract.builders import T0, TENANT, lt, make_entry, new_memory
from tests.integration.conftest import TABLE, CallRecorder, Sleeps, inject_response
from tests.integration.stages import Stage, current_stage


def first_call_unprocessed(
    clients: AwsClients, operation: str, response_key: str
) -> list[Stage | None]:
    """The first call of `operation` returns every requested key/item as unprocessed.
    Returns the stage of every call of `operation` (the test hook runs before the
    recorder's, which does not see a short-circuited call)."""
    seen: list[Stage | None] = []

    def answer(request: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        seen.append(current_stage())
        if len(seen) > 1:
            return None
        body = json.loads(request["body"])
        parsed: dict[str, Any] = {response_key: body["RequestItems"]}
        if operation == "BatchGetItem":
            parsed["Responses"] = {TABLE: []}
        return 200, parsed

    inject_response(clients.dynamodb, f"dynamodb.{operation}", answer)
    return seen


def test_unprocessed_keys_are_fetched_again_after_a_backoff(
    storage: DynamoStorage, clients: AwsClients, sleeps: Sleeps
) -> None:
    # Given three memories, and a BatchGetItem that first leaves every key unprocessed
    assert storage.put_memories([new_memory(lt(i)) for i in (1, 2, 3)]) == [None] * 3
    seen = first_call_unprocessed(clients, "BatchGetItem", "UnprocessedKeys")
    # When they are read
    found = storage.get_memories(TENANT, [lt(1), lt(2), lt(3)], now=T0)
    # Then all come back, after one backoff and a second BatchGetItem of the same task
    assert set(found) == {lt(1), lt(2), lt(3)}
    assert len(sleeps.delays) == 1
    assert len(seen) == 2
    assert seen[0] is not None and seen[0] == seen[1]


def test_unprocessed_items_are_written_again_after_a_backoff(
    storage: DynamoStorage, clients: AwsClients, sleeps: Sleeps
) -> None:
    # Given a BatchWriteItem that first leaves every posting unprocessed
    seen = first_call_unprocessed(clients, "BatchWriteItem", "UnprocessedItems")
    # When an entry with two terms is created
    entry = make_entry(1, terms={"vertrag": 2, "muster": 1}, doc_len=3)
    assert storage.put_brain_entries([BrainWrite(entry)]) == [None]
    # Then the postings were written on the retry
    assert len(seen) == 2
    assert len(sleeps.delays) == 1
    postings = storage.lookup_terms(TENANT, ["vertrag", "muster"]).postings
    assert {term: [p.tf for p in found] for term, found in postings.items()} == {
        "vertrag": [2],
        "muster": [1],
    }


def test_full_query_pages_are_continued_only_for_their_partition(
    storage: DynamoStorage, clients: AwsClients, recorder: CallRecorder
) -> None:
    # Given three entries sharing "vertrag", one with "muster", and pages of one item
    writes = [BrainWrite(make_entry(i, terms={"vertrag": i}, doc_len=i)) for i in (1, 2, 3)]
    writes.append(BrainWrite(make_entry(4, terms={"muster": 1}, doc_len=1)))
    assert storage.put_brain_entries(writes) == [None] * 4

    def one_item_pages(params: dict[str, Any], **_: Any) -> None:
        params.setdefault("Limit", 1)

    clients.dynamodb.meta.events.register("before-parameter-build.dynamodb.Query", one_item_pages)
    recorder.reset()
    # When both terms are looked up
    lookup = storage.lookup_terms(TENANT, ["vertrag", "muster"])
    # Then every posting and the stats of all shards come back
    assert sorted(p.entry_id for p in lookup.postings["vertrag"]) == [1, 2, 3]
    assert [p.entry_id for p in lookup.postings["muster"]] == [4]
    assert (lookup.stats.documents, lookup.stats.total_len) == (4, 7)
    # And one stage queried all partitions side by side, each task continuing only its own
    # partition: once per item and once more (DynamoDB answers a full page with a
    # LastEvaluatedKey even when nothing follows): "vertrag" 3 + 1, "muster" 1 + 1, the
    # stats (shards 1-4) 4 + 1
    assert recorder.stages() == [Counter({"Query": 11})]
    per_task = Counter(call.stage.task for call in recorder.calls if call.stage is not None)
    assert sorted(per_task.values()) == [2, 4, 5]
    assert recorder.sequential_round_trips() == 5


def test_limited_queries_stop_at_the_limit(storage: DynamoStorage, recorder: CallRecorder) -> None:
    # Given five entries about one customer
    writes = [BrainWrite(make_entry(i)) for i in range(1, 6)]
    assert storage.put_brain_entries(writes) == [None] * 5
    recorder.reset()
    # When the two newest are asked for
    found = storage.find_brain_by_reference(TENANT, "kunde", "K-1", 2)
    # Then one Query page of two suffices
    assert [e.id for e in found] == [5, 4]
    assert recorder.operations() == Counter({"Query": 1})
    # And listing the newest three queries the four vk_typ partitions side by side
    recorder.reset()
    assert [e.id for e in storage.list_brain_entries(TENANT, 3)] == [5, 4, 3]
    assert recorder.stages() == [Counter({"Query": 4})]


def test_existing_tags_cost_no_extra_round_trip(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given the tag "Rechnung"
    assert storage.ensure_tags(TENANT, ["Rechnung"]) == {"rechnung": "Rechnung"}
    recorder.reset()
    # When it is ensured in another spelling with a new tag
    result = storage.ensure_tags(TENANT, ["RECHNUNG", "Neu"])
    # Then the stored spelling comes back from the update itself: one stage
    assert result == {"rechnung": "Rechnung", "neu": "Neu"}
    assert recorder.stages() == [Counter({"UpdateItem": 2})]
