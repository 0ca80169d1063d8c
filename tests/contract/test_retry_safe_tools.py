"""Contract: every write tool is safe to resend (CONTRACT §3), on every adapter, through the
one dispatcher (`call_tool`) that the local server, the Lambdas and the router share."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.domain import MemoryId, MemoryType
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.tools import idempotency
from shared.tools.catalog import TOOLS
from shared.tools.dispatch import call_tool

PRINCIPAL = Principal(
    tenant="acme",
    subject="acme:anna",
    nutzer=frozenset({"anna"}),
    agents=frozenset({"bot"}),
    scopes=ALL_SCOPES,
)
CALLER = {"nutzer": "anna", "agent": "bot"}


def memory(text: str, **overrides: Any) -> dict[str, Any]:
    return {
        "kurzbeschreibung": text,
        "memory": f"{text}: Details.",
        "tags": ["kunde"],
        "scope": "kunde",
        "scope_vk": "K-1",
        **CALLER,
        **overrides,
    }


def insert(*entries: dict[str, Any], **referenzfelder: Any) -> dict[str, Any]:
    args: dict[str, Any] = {"inhalt": {"memories": list(entries), **CALLER}}
    if referenzfelder:
        args["referenzfelder"] = referenzfelder
    return args


def rate(memory_id: str, score: float) -> dict[str, Any]:
    entry = {
        "typ": "longterm",
        "parameter": {"memory_ID": memory_id, "agent": "bot", "score": score},
    }
    return {"inhalt": {"memories": [entry], **CALLER}}


@pytest.fixture
def ctx(storage: StoragePort) -> ServiceContext:
    return ServiceContext(storage, Settings())


def stored(ctx: ServiceContext, count: int) -> list[str]:
    ids = [MemoryId(MemoryType.LONGTERM, n) for n in range(1, count + 1)]
    found = ctx.storage.get_memories("acme", ids, ctx.clock())
    return sorted(m.kurzbeschreibung for m in found.values())


def test_every_write_tool_is_declared_retry_safe() -> None:
    # (a tool with read and write actions, the ledger, runs only its writes through the
    # records: test_retry_safe_ledger.py)
    writes = {name for name, spec in TOOLS.items() if not spec.read_only}
    assert writes == {name for name, spec in TOOLS.items() if spec.idempotent}


def test_identical_insert_returns_the_first_answer_and_stores_nothing(
    ctx: ServiceContext,
) -> None:
    # Given an insert that was answered
    first = call_tool(
        ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(memory("A"), memory("B"))
    )
    assert [e["ID"] for e in first["daten"]] == ["longterm_1", "longterm_2"]
    # When the identical call is resent
    again = call_tool(
        ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(memory("A"), memory("B"))
    )
    # Then it gets the first answer and nothing more is stored
    assert again == first
    assert stored(ctx, 10) == ["A", "B"]
    # And a different call (other referenzfelder) is a new write
    other = call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(memory("A"), lauf=2))
    assert other["daten"][0]["ID"] == "longterm_3"


def test_a_resent_rating_counts_once(ctx: ServiceContext) -> None:
    call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(memory("A")))
    first = call_tool(ctx, PRINCIPAL, "rate_brain_memories", rate("longterm_1", 8))
    again = call_tool(ctx, PRINCIPAL, "rate_brain_memories", rate("longterm_1", 8))
    assert again == first
    assert [r.score for r in ctx.storage.get_ratings("acme", MemoryId(MemoryType.LONGTERM, 1))] == [
        8
    ]
    third = call_tool(ctx, PRINCIPAL, "rate_brain_memories", rate("longterm_1", 2))
    assert third["daten"][0]["score_avg"] == 5 and third["daten"][0]["score_count"] == 2


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        (
            "upsert_brain",
            {
                "inhalt": {
                    "eintraege": [
                        {
                            "titel": "Beispiel",
                            "inhalt": "Maschinenbau",
                            "vk_typ": "kunde",
                            "vk_referenz_id": "K-1",
                        }
                    ],
                    **CALLER,
                }
            },
        ),
        ("remember", {"content": "Wir nutzen OAuth.", "path": "users/anna/notizen"}),
        (
            "update_brain_memories",
            {"inhalt": {"memories": [{"ID": "longterm_1", "memory": "Neu."}], **CALLER}},
        ),
        ("delete_brain_memories", {"inhalt": {"memories": {"longterm": ["longterm_1"]}, **CALLER}}),
    ],
    ids=["upsert_brain", "remember", "update", "delete"],
)
def test_other_write_tools_answer_a_resend_with_the_first_answer(
    ctx: ServiceContext, tool: str, arguments: dict[str, Any]
) -> None:
    call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(memory("A")))
    first = call_tool(ctx, PRINCIPAL, tool, arguments)
    assert first["erfolg"] is True, first
    again = call_tool(ctx, PRINCIPAL, tool, arguments)
    assert again == first
    if tool == "upsert_brain":
        assert len(ctx.storage.list_brain_entries("acme", 10)) == 1
    if tool == "remember":
        assert len(stored(ctx, 5)) == 2


def test_a_corrected_resend_under_the_callers_key_stores_each_entry_once(
    ctx: ServiceContext,
) -> None:
    # Given a batch under the caller's key whose second entry was invalid
    first = call_tool(
        ctx,
        PRINCIPAL,
        "insert_brain_longterm_memory",
        insert(memory("A"), memory("B", nutzer=True), idempotenz_schluessel="import-7"),
    )
    assert (first["anzahl_erfolgreich"], first["anzahl_fehlgeschlagen"]) == (1, 1)
    # When the corrected batch is sent under the same key
    fixed = call_tool(
        ctx,
        PRINCIPAL,
        "insert_brain_longterm_memory",
        insert(memory("A"), memory("B"), idempotenz_schluessel="import-7"),
    )
    # Then the entry stored before is recognised (same ID) and only the fixed one is added
    assert fixed["erfolg"] is True
    assert fixed["daten"][0]["ID"] == first["daten"][0]["ID"]
    assert stored(ctx, 10) == ["A", "B"]
    # And without the key the same corrected batch would be a new write
    fresh = call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(memory("A")))
    assert fresh["daten"][0]["ID"] not in {e.get("ID") for e in fixed["daten"]}


def test_a_duplicate_while_the_first_runs_is_refused_in_german(ctx: ServiceContext) -> None:
    arguments = insert(memory("A"))
    inner: list[dict[str, Any]] = []

    def first_call(keyed: ServiceContext) -> dict[str, Any]:
        # The identical call arrives while the first one is still running
        inner.append(call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", arguments))
        return TOOLS["insert_brain_longterm_memory"].handler(keyed, PRINCIPAL, arguments)

    answer = idempotency.run_once(
        ctx, PRINCIPAL, "insert_brain_longterm_memory", arguments, first_call, {}
    )
    assert answer["erfolg"] is True
    (duplicate,) = inner
    assert duplicate["erfolg"] is False
    assert duplicate["fehler"][0]["feld"] == idempotency.IN_PROGRESS_FIELD
    assert "wird bereits ausgeführt" in duplicate["fehler"][0]["meldung"]
    assert stored(ctx, 5) == ["A"]


def test_an_answer_that_stored_nothing_is_not_remembered(ctx: ServiceContext) -> None:
    # Given a rating of a memory that does not exist yet (nothing stored)
    refused = call_tool(ctx, PRINCIPAL, "rate_brain_memories", rate("longterm_1", 8))
    assert refused["anzahl_erfolgreich"] == 0
    # When the memory exists and the identical rating is resent
    call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(memory("A")))
    again = call_tool(ctx, PRINCIPAL, "rate_brain_memories", rate("longterm_1", 8))
    # Then it runs and is stored
    assert again["erfolg"] is True and again["daten"][0]["score_count"] == 1


def test_calls_of_other_nutzer_or_tenants_are_not_the_same_call(ctx: ServiceContext) -> None:
    other_tenant = Principal(
        tenant="beta",
        subject="beta:anna",
        nutzer=frozenset({"anna"}),
        agents=frozenset({"bot"}),
        scopes=ALL_SCOPES,
    )
    first = call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(memory("A")))
    second = call_tool(ctx, other_tenant, "insert_brain_longterm_memory", insert(memory("A")))
    assert first["daten"][0]["ID"] == second["daten"][0]["ID"] == "longterm_1"
    assert (
        len(ctx.storage.get_memories("beta", [MemoryId(MemoryType.LONGTERM, 1)], ctx.clock())) == 1
    )


class _Crash(BaseException):
    """The process dying mid-call: no cleanup runs, the call-level record is lost."""


def test_a_resend_after_a_crash_mid_batch_stores_each_entry_once(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = TOOLS["insert_brain_longterm_memory"]
    arguments = insert(*(memory(f"M{i}") for i in range(5)))
    keyed = replace(ctx, write_key="call-1")  # what run_once derives from the call
    put = ctx.storage.put_memories

    def dies_after_two(memories: Any) -> Any:
        put(memories[:2])
        raise _Crash

    # Given an insert of 5 whose process died after storing 2
    monkeypatch.setattr(ctx.storage, "put_memories", dies_after_two)
    with pytest.raises(_Crash):
        spec.handler(keyed, PRINCIPAL, arguments)
    monkeypatch.setattr(ctx.storage, "put_memories", put)
    # When it is run again under the same write key (the record of the dead call is gone)
    answer = spec.handler(keyed, PRINCIPAL, arguments)
    # Then all 5 succeed and each is stored once, the 2 under their first IDs
    assert answer["anzahl_erfolgreich"] == 5
    assert stored(ctx, 20) == [f"M{i}" for i in range(5)]
    assert [e["ID"] for e in answer["daten"]][:2] == ["longterm_1", "longterm_2"]


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        (
            "upsert_brain",
            {
                "inhalt": {
                    "eintraege": [
                        {"titel": f"T{i}", "inhalt": "x", "vk_typ": "kunde", "vk_referenz_id": "K"}
                        for i in range(3)
                    ],
                    **CALLER,
                }
            },
        ),
        ("rate_brain_memories", rate("longterm_1", 6)),
        ("remember", {"content": "Wir nutzen OAuth.", "path": "users/anna/notizen"}),
    ],
    ids=["upsert_brain", "rate", "remember"],
)
def test_entries_written_before_a_crash_are_recognised_on_resend(
    ctx: ServiceContext, tool: str, arguments: dict[str, Any]
) -> None:
    call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(memory("A")))
    keyed = replace(ctx, write_key=f"crashed-{tool}")
    # Given a call that wrote everything but died before its answer was recorded
    first = TOOLS[tool].handler(keyed, PRINCIPAL, arguments)
    # When it runs again under the same write key
    again = TOOLS[tool].handler(keyed, PRINCIPAL, arguments)
    # Then it reports the same IDs and nothing was written twice
    assert first["erfolg"] and again["erfolg"], again
    assert again["daten"] == first["daten"] or again["daten"]["ID"] == first["daten"]["ID"]
    if tool == "upsert_brain":
        assert len(ctx.storage.list_brain_entries("acme", 10)) == 3
    if tool == "rate_brain_memories":
        ratings = ctx.storage.get_ratings("acme", MemoryId(MemoryType.LONGTERM, 1))
        assert len(ratings) == 1
    if tool == "remember":
        assert len(stored(ctx, 5)) == 2


def test_a_delete_resent_after_a_crash_answers_like_the_first(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(*map(memory, "ABC")))
    ids = ["longterm_1", "longterm_2", "longterm_3", "longterm_9"]
    arguments = {"inhalt": {"memories": {"longterm": ids}, **CALLER}}
    spec = TOOLS["delete_brain_memories"]
    keyed = replace(ctx, write_key="delete-1")  # what run_once derives from the call
    delete = ctx.storage.delete_memories

    def dies_after_one(tenant: str, memory_ids: Any, now: Any) -> Any:
        delete(tenant, memory_ids[:1], now)
        raise _Crash

    # Given a delete of three memories (and one that never existed) that died after one
    monkeypatch.setattr(ctx.storage, "delete_memories", dies_after_one)
    with pytest.raises(_Crash):
        spec.handler(keyed, PRINCIPAL, arguments)
    monkeypatch.setattr(ctx.storage, "delete_memories", delete)
    assert stored(ctx, 5) == ["B", "C"]
    # When it runs again under the same write key
    again = spec.handler(keyed, PRINCIPAL, arguments)
    # Then it answers what the first call would have answered
    assert again["daten"] == {"geloescht": ids[:3], "nicht_gefunden": ids[3:]}
    assert stored(ctx, 5) == []
    # And another write (another key) learns nothing from these tombstones
    other = spec.handler(replace(ctx, write_key="delete-2"), PRINCIPAL, arguments)
    assert other["daten"] == {"geloescht": [], "nicht_gefunden": ids}
