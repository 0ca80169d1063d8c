"""A Lambda that dies mid memory-write on DynamoDB: before the items (at the transaction
that stores them with their stats), then, on the resend, after them,
its postings and vector lost. The next send finds the items and completes the writes
(`complete_memories`) instead of trusting them; a delete resent after dying mid-batch
answers what the first call would have answered.

The death is a botocore `before-call` hook: from the named operation on, every AWS call of
the process fails, as for a Lambda stopped at its timeout; `lost` fails only the named
operations (the calls that ran beside the transaction when it died)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.domain import MemoryId, MemoryType
from shared.services.context import ServiceContext
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage
from shared.tools.dispatch import call_tool
from tests.clock import Clock
from tests.integration.conftest import CallRecorder

INSERT = "insert_brain_longterm_memory"
PRINCIPAL = Principal(
    tenant="tenant-idem",
    subject="test",
    nutzer=frozenset({"*"}),
    agents=frozenset({"*"}),
    scopes=ALL_SCOPES,
)
CALLER = {"nutzer": "anna", "agent": "bot"}


class _Killed(BaseException):
    """The invocation stopped: nothing after this point runs, no cleanup either."""


class Death:
    """From the `nth` call of `operation` on, every call of the process fails (none: only
    the `lost` operations fail)."""

    def __init__(
        self, operation: str | None = None, nth: int = 1, *, lost: tuple[str, ...] = ()
    ) -> None:
        self.operation = operation
        self.nth = nth
        self.lost = lost
        self.dead = False
        self.sent: list[str] = []

    def __call__(self, model: Any, **_: Any) -> None:
        if model.name == self.operation and self.sent.count(self.operation) + 1 == self.nth:
            self.dead = True
        if self.dead or model.name in self.lost:
            raise _Killed
        self.sent.append(model.name)

    def attach(self, clients: AwsClients) -> Death:
        clients.dynamodb.meta.events.register("before-call", self, unique_id="death")
        clients.s3vectors.meta.events.register("before-call", self, unique_id="death")
        return self

    def detach(self, clients: AwsClients) -> None:
        clients.dynamodb.meta.events.unregister("before-call", unique_id="death")
        clients.s3vectors.meta.events.unregister("before-call", unique_id="death")


def memory(text: str, **extra: Any) -> dict[str, Any]:
    return {
        "kurzbeschreibung": text,
        "memory": f"{text}: Rückruf am Vormittag erwünscht.",
        "tags": [],
        "scope": "kunde",
        "scope_vk": "K-1",
        **CALLER,
        **extra,
    }


def insert_args() -> dict[str, Any]:
    entries = [
        memory("Alpha"),
        memory("Beta", embedding=[0.25, 0.5, 0.75], embedding_profil_hash="crash-3d"),
        memory("Gamma"),
    ]
    return {"inhalt": {"memories": entries, **CALLER}}


CLOCK = Clock()


def context(storage: DynamoStorage) -> ServiceContext:
    return ServiceContext(storage, Settings(), clock=CLOCK)


def mark_expires(ctx: ServiceContext) -> None:
    """A dead call's running mark ends (on Lambda: with the invocation's deadline)."""
    CLOCK.advance(ctx.settings.idempotency_in_progress_s + 1)


def found_by_search(ctx: ServiceContext, query: str) -> list[str]:
    """What anna's search finds (her memories live in her area, users/anna)."""
    anna = replace(PRINCIPAL, subject="tenant-idem:anna", nutzer=frozenset({"anna"}))
    answer = call_tool(ctx, anna, "search_memory", {"query": query, "limit": 10})
    assert answer["erfolg"] is True, answer
    return sorted(hit["ID"] for hit in answer["daten"]["treffer"])


def test_a_resend_completes_memory_writes_cut_off_after_their_items(
    storage: DynamoStorage,
    clients: AwsClients,
    recorder: CallRecorder,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ctx = context(storage)
    ids = [MemoryId(MemoryType.LONGTERM, n) for n in (1, 2, 3)]
    # Given an insert whose Lambda dies at the transaction of its items (postings and the
    # embedding beside it may have landed): nothing is stored, nothing counted
    death = Death("TransactWriteItems").attach(clients)
    with pytest.raises(_Killed):
        call_tool(ctx, PRINCIPAL, INSERT, insert_args())
    death.detach(clients)
    assert "PutItem" in death.sent
    assert storage.get_memories(PRINCIPAL.tenant, ids, ctx.clock()) == {}
    assert storage.memory_stats(PRINCIPAL.tenant).documents == 0
    # And its resend (after the dead call's in-progress record expired), whose IDs are the
    # first send's again, dies after its transaction, the postings and the vector beside
    # it lost: items and stats were written, postings and the embedding not
    mark_expires(ctx)
    death = Death(lost=("BatchWriteItem", "PutVectors")).attach(clients)
    with pytest.raises(_Killed):
        call_tool(ctx, PRINCIPAL, INSERT, insert_args())
    death.detach(clients)
    assert "TransactWriteItems" in death.sent
    assert set(storage.get_memories(PRINCIPAL.tenant, ids, ctx.clock())) == set(ids)
    assert storage.memory_stats(PRINCIPAL.tenant).documents == 3
    assert storage.get_embedding(PRINCIPAL.tenant, ids[1]) is None
    assert found_by_search(ctx, "Vormittag") == []
    # When the call is sent a third time
    mark_expires(ctx)
    recorder.reset()
    again = call_tool(ctx, PRINCIPAL, INSERT, insert_args())
    completion, rounds = recorder.operations(), recorder.sequential_round_trips()
    # Then every entry reports its first ID and each memory is stored once, complete:
    # found by search, counted once in the stats, its embedding readable
    assert again["erfolg"] is True, again
    assert [entry["ID"] for entry in again["daten"]] == [str(i) for i in ids]
    assert found_by_search(ctx, "Vormittag") == sorted(str(i) for i in ids)
    stats = storage.memory_stats(PRINCIPAL.tenant)
    assert stats.documents == 3
    assert storage.get_embedding(PRINCIPAL.tenant, ids[1]) is not None
    stored = storage.get_memories(PRINCIPAL.tenant, ids, ctx.clock())
    storage.complete_memories([(m, None) for m in stored.values()])
    assert storage.memory_stats(PRINCIPAL.tenant) == stats
    assert found_by_search(ctx, "Vormittag") == sorted(str(i) for i in ids)
    with capsys.disabled():
        print(
            f"\nresend completing 3 cut-off memory writes: {sum(completion.values())} calls, "
            f"{rounds} round trips: {dict(completion)}"
        )


def test_a_delete_resent_after_dying_mid_batch_answers_like_the_first(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    ctx = context(storage)
    assert call_tool(ctx, PRINCIPAL, INSERT, insert_args())["anzahl_erfolgreich"] == 3
    ids = ["longterm_1", "longterm_2", "longterm_3", "longterm_99"]
    args = {"inhalt": {"memories": {"longterm": ids}, **CALLER}}
    # Given a delete whose Lambda dies at the second memory's transaction (item, its
    # tombstone, stats: the three memories lie in three stats shards)
    death = Death("TransactWriteItems", nth=2).attach(clients)
    with pytest.raises(_Killed):
        call_tool(ctx, PRINCIPAL, "delete_brain_memories", args)
    death.detach(clients)
    left = storage.get_memories(
        PRINCIPAL.tenant, [MemoryId(MemoryType.LONGTERM, n) for n in (1, 2, 3)], ctx.clock()
    )
    assert len(left) == 2
    # When it is resent after the dead call's in-progress record expired
    mark_expires(ctx)
    again = call_tool(ctx, PRINCIPAL, "delete_brain_memories", args)
    # Then it answers what the first call would have: three deleted, one never existed
    assert again["erfolg"] is True, again
    # (also where each was: the one the dead call deleted from its mark)
    deleted = ["longterm_1", "longterm_2", "longterm_3"]
    place = {"bereich": "users/anna", "pfad": "users/anna"}
    assert again["daten"] == {
        "geloescht": deleted,
        "nicht_gefunden": ["longterm_99"],
        "orte": [{"ID": raw, **place} for raw in deleted],
        "handelnd_als": "anna",
        "entfernt": ["erinnerung", "bewertungen", "vektor", "suchindex"],
    }
