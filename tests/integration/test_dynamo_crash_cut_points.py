"""Every cut point of a memory write on DynamoDB (moto): the Lambda dies before its N-th
AWS call (from there on every call fails, nothing after it runs, no cleanup), its
call record's running mark expires (on AWS it ends with the invocation's deadline), and the
client resends the same call. Then the index is exact — search finds
exactly the right memories, the table holds exactly the postings of the stored versions
(read back, none stale) and no tombstone of a stored memory, and the memory stats count
each memory once with its doc_len — for inserts, updates and deletes cut anywhere.

A cut point past the call's last AWS call is a call that completed: the resend gets the
stored answer, and the same checks hold.
"""

from __future__ import annotations

from typing import Any

import pytest

from shared.domain import CorpusStats, MemoryId, MemoryType
from shared.services.context import ServiceContext
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage
from shared.storage.dynamo.items import PK, SK, get_s
from shared.storage.dynamo.memory_items import SK_GONE, posting_keys
from shared.tools.dispatch import call_tool
from tests.integration.conftest import TABLE
from tests.integration.test_dynamo_crash_completion import (
    CALLER,
    INSERT,
    PRINCIPAL,
    context,
    found_by_search,
    insert_args,
    mark_expires,
)

UPDATE = "update_brain_memories"
DELETE = "delete_brain_memories"
IDS = [MemoryId(MemoryType.LONGTERM, n) for n in (1, 2, 3)]
# Every ID a write and its resend may take (a cut after the counter step leaves a gap).
ANY_ID = [MemoryId(MemoryType.LONGTERM, n) for n in range(1, 10)]


class _Killed(BaseException):
    """The invocation stopped at its deadline."""


class CutAt:
    """The N-th AWS call of the process and every call after it fail."""

    def __init__(self, nth: int) -> None:
        self.nth = nth
        self.sent = 0

    def __call__(self, **_: Any) -> None:
        self.sent += 1
        if self.sent >= self.nth:
            raise _Killed

    @property
    def dead(self) -> bool:
        return self.sent >= self.nth

    def run(self, clients: AwsClients, send: Any) -> None:
        for client in (clients.dynamodb, clients.s3vectors):
            client.meta.events.register("before-call", self, unique_id="cut")
        try:
            send()
        except _Killed:
            pass
        finally:
            for client in (clients.dynamodb, clients.s3vectors):
                client.meta.events.unregister("before-call", unique_id="cut")


def index_items(clients: AwsClients) -> tuple[set[tuple[str, str]], set[str]]:
    """(every memory posting key, every memory with a tombstone — which a delete cut off
    beside its answer leaves until TTL) in the table."""
    postings: set[tuple[str, str]] = set()
    tombstones: set[str] = set()
    pages = clients.dynamodb.get_paginator("scan").paginate(TableName=TABLE)
    for item in (i for page in pages for i in page["Items"]):
        if "#MPOST#" in get_s(item, PK):
            postings.add((get_s(item, PK), get_s(item, SK)))
        elif get_s(item, SK) == SK_GONE:
            tombstones.add(get_s(item, "memory_id"))
    return postings, tombstones


def assert_index_exact(
    ctx: ServiceContext, storage: DynamoStorage, clients: AwsClients, query: str
) -> None:
    stored = storage.get_memories(PRINCIPAL.tenant, ANY_ID, ctx.clock())
    postings, tombstones = index_items(clients)
    wanted = {k for m in stored.values() for k in posting_keys(m)}
    assert postings == wanted  # nothing missing, nothing stale
    assert not tombstones & {str(i) for i in stored}  # only of deleted memories
    stats = storage.memory_stats(PRINCIPAL.tenant)
    assert stats == CorpusStats(len(stored), sum(m.doc_len for m in stored.values()))
    hits = {str(i) for i, m in stored.items() if query.casefold() in m.memory.casefold()}
    assert set(found_by_search(ctx, query)) == hits


def resend(ctx: ServiceContext, clients: AwsClients, tool: str, args: dict[str, Any]) -> Any:
    mark_expires(ctx)  # what the dead invocation's deadline does to its running mark
    return call_tool(ctx, PRINCIPAL, tool, args)


# Cut points: every AWS call of the write (a few more than it makes: completed calls).
INSERT_CUTS = range(1, 22)  # the duplicate check's postings Queries, QueryVectors included
UPDATE_CUTS = range(1, 11)
DELETE_CUTS = range(1, 14)


@pytest.mark.parametrize("nth", INSERT_CUTS)
def test_an_insert_cut_before_any_call_is_completed_by_its_resend(
    storage: DynamoStorage, clients: AwsClients, nth: int
) -> None:
    ctx = context(storage)
    # Given an insert of 3 memories whose Lambda dies before its nth AWS call
    CutAt(nth).run(clients, lambda: call_tool(ctx, PRINCIPAL, INSERT, insert_args()))
    # When the client resends it
    again = resend(ctx, clients, INSERT, insert_args())
    # Then every entry is stored once (with its first ID if the first send reserved it)
    # and the index is exact
    assert again["erfolg"] is True, again
    answered = [entry["ID"] for entry in again["daten"]]
    stored = storage.get_memories(PRINCIPAL.tenant, ANY_ID, ctx.clock())
    assert sorted(answered) == sorted(str(i) for i in stored) and len(stored) == 3
    assert_index_exact(ctx, storage, clients, "Vormittag")


def update_args() -> dict[str, Any]:
    changed = [
        {"ID": "longterm_1", "memory": "Alpha: Angebot bis Freitag schicken."},
        {"ID": "longterm_2", "memory": "Beta: Angebot für Lagerhalle, Rückruf am Vormittag."},
    ]
    return {"inhalt": {"memories": changed, **CALLER}}


@pytest.mark.parametrize("nth", UPDATE_CUTS)
def test_an_update_cut_before_any_call_is_completed_by_its_resend(
    storage: DynamoStorage, clients: AwsClients, nth: int
) -> None:
    ctx = context(storage)
    # Given 3 stored memories and an update of two of them (new words, new lengths) whose
    # Lambda dies before its nth AWS call
    assert call_tool(ctx, PRINCIPAL, INSERT, insert_args())["erfolg"] is True
    CutAt(nth).run(clients, lambda: call_tool(ctx, PRINCIPAL, UPDATE, update_args()))
    # When the client resends it
    again = resend(ctx, clients, UPDATE, update_args())
    # Then both memories hold the new texts and the index is exact: the old words are gone
    # from the postings, the stats changed once
    assert again["erfolg"] is True, again
    stored = storage.get_memories(PRINCIPAL.tenant, IDS, ctx.clock())
    assert stored[IDS[0]].memory == "Alpha: Angebot bis Freitag schicken."
    assert_index_exact(ctx, storage, clients, "Vormittag")
    assert_index_exact(ctx, storage, clients, "Angebot")


@pytest.mark.parametrize("nth", DELETE_CUTS)
def test_a_delete_cut_before_any_call_is_completed_by_its_resend(
    storage: DynamoStorage, clients: AwsClients, nth: int
) -> None:
    ctx = context(storage)
    # Given 3 stored memories (one rated) and a delete of two whose Lambda dies before its
    # nth AWS call
    assert call_tool(ctx, PRINCIPAL, INSERT, insert_args())["erfolg"] is True
    rating = {
        "typ": "longterm",
        "parameter": {"memory_ID": "longterm_2", "score": 7, "agent": CALLER["agent"]},
    }
    rated = call_tool(
        ctx, PRINCIPAL, "rate_brain_memories", {"inhalt": {"memories": [rating], **CALLER}}
    )
    assert rated["erfolg"] is True, rated
    args = {"inhalt": {"memories": {"longterm": ["longterm_1", "longterm_2"]}, **CALLER}}
    CutAt(nth).run(clients, lambda: call_tool(ctx, PRINCIPAL, DELETE, args))
    # When the client resends it
    again = resend(ctx, clients, DELETE, args)
    # Then it answers as the first call would have, and only longterm_3 is left: in the
    # postings, the stats and the search; no rating of longterm_2 is left
    assert again["daten"]["geloescht"] == ["longterm_1", "longterm_2"]
    assert again["daten"]["nicht_gefunden"] == []
    assert [o["bereich"] for o in again["daten"]["orte"]] == ["users/anna", "users/anna"]
    assert set(storage.get_memories(PRINCIPAL.tenant, IDS, ctx.clock())) == {IDS[2]}
    assert storage.get_ratings(PRINCIPAL.tenant, IDS[1]) == []
    assert_index_exact(ctx, storage, clients, "Vormittag")


def test_every_cut_point_range_covers_the_whole_write(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    """The parametrized ranges reach past each write's last call (so every cut is tried)."""
    ctx = context(storage)
    counted = CutAt(10**6)
    for client in (clients.dynamodb, clients.s3vectors):
        client.meta.events.register("before-call", counted, unique_id="count")
    try:
        sent = []
        for tool, args in (
            (INSERT, insert_args()),
            (UPDATE, update_args()),
            (
                DELETE,
                {"inhalt": {"memories": {"longterm": ["longterm_1", "longterm_2"]}, **CALLER}},
            ),
        ):
            before = counted.sent
            assert call_tool(ctx, PRINCIPAL, tool, args)["erfolg"] is True
            sent.append(counted.sent - before)
    finally:
        for client in (clients.dynamodb, clients.s3vectors):
            client.meta.events.unregister("before-call", unique_id="count")
    print(f"\nAWS calls: insert 3 {sent[0]}, update 2 {sent[1]}, delete 2 {sent[2]}")
    assert sent[0] < INSERT_CUTS.stop and sent[1] < UPDATE_CUTS.stop
    assert sent[2] < DELETE_CUTS.stop
