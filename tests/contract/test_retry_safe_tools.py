"""Contract: every write tool is safe to resend (CONTRACT §3), on every adapter, through the
one dispatcher (`call_tool`) that the local server, the Lambdas and the router share."""

from __future__ import annotations

from typing import Any

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.domain import MemoryId, MemoryType
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.tools.catalog import TOOLS
from shared.tools.dispatch import call_tool
from shared.tools.idempotency_fields import IN_PROGRESS_FIELD
from tests.clock import Clock

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
        # a number of its own: distinct facts, never near-duplicates of each other
        "memory": f"{text}: Details zu Vorgang {ord(text[0])}.",
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
    # And a different call (other referenzfelder) is a new write: the duplicate check
    # answers it with the stored A, and with copies allowed it stores a new memory
    other = call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", insert(memory("A"), lauf=2))
    assert other["daten"][0]["duplikat_von"] == "longterm_1"
    copy = insert(memory("A"), lauf=2, duplikat_erlaubt=True)
    stored_copy = call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", copy)["daten"][0]
    assert stored_copy["ID"] not in ("longterm_1", "longterm_2")
    assert "duplikat_von" not in stored_copy


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


def test_a_changed_batch_under_the_same_key_is_a_conflict_not_a_replay(
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
    # Then it is refused in German as a conflict and nothing more is stored
    assert fixed["erfolg"] is False
    assert fixed["fehler"][0]["feld"] == "referenzfelder.idempotenz_schluessel"
    assert fixed["fehler"][0]["meldung"].startswith("Konflikt")
    assert stored(ctx, 10) == ["A"]
    # And the failed entry alone, under a new key, is stored
    retried = call_tool(
        ctx,
        PRINCIPAL,
        "insert_brain_longterm_memory",
        insert(memory("B"), idempotenz_schluessel="import-7b"),
    )
    assert retried["erfolg"] is True and stored(ctx, 10) == ["A", "B"]


def test_a_duplicate_while_the_first_runs_is_refused_in_german(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    arguments = insert(memory("A"))
    inner: list[dict[str, Any]] = []
    put = ctx.storage.put_memories

    def duplicate_arrives(memories: Any) -> Any:
        # The identical call arrives while the first one is still storing
        inner.append(call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", arguments))
        return put(memories)

    monkeypatch.setattr(ctx.storage, "put_memories", duplicate_arrives)
    answer = call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", arguments)
    assert answer["erfolg"] is True
    (duplicate,) = inner
    assert duplicate["erfolg"] is False
    assert duplicate["fehler"][0]["feld"] == IN_PROGRESS_FIELD
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
    """The process dying mid-call: no cleanup runs, the call's record stays running."""


def crashed(ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch, method: str, keep: int) -> None:
    """Make storage `method` store its first `keep` items and then die (until undone)."""
    original = getattr(ctx.storage, method)

    def dies(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(ctx.storage, method, original)
        cut = list(args)
        position = 1 if method == "delete_memories" else 0  # (tenant, ids, now)
        cut[position] = cut[position][:keep]
        original(*cut, **kwargs)
        raise _Crash

    monkeypatch.setattr(ctx.storage, method, dies)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def timed(storage: StoragePort, clock: Clock) -> ServiceContext:
    return ServiceContext(storage, Settings(), clock=clock)


def test_a_resend_after_a_crash_mid_batch_stores_each_entry_once(
    timed: ServiceContext, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    arguments = insert(*(memory(f"M{i}") for i in range(5)))
    # Given an insert of 5 whose process died after storing 2
    crashed(timed, monkeypatch, "put_memories", 2)
    with pytest.raises(_Crash):
        call_tool(timed, PRINCIPAL, "insert_brain_longterm_memory", arguments)
    # When it is resent while the dead call's mark still holds
    busy = call_tool(timed, PRINCIPAL, "insert_brain_longterm_memory", arguments)
    # Then it is refused as running and nothing more is stored
    assert busy["fehler"][0]["feld"] == IN_PROGRESS_FIELD and len(stored(timed, 20)) == 2
    # When it is resent after the mark (on Lambda: the invocation's deadline)
    clock.advance(timed.settings.idempotency_in_progress_s + 1)
    answer = call_tool(timed, PRINCIPAL, "insert_brain_longterm_memory", arguments)
    # Then all 5 succeed and each is stored once, the 2 under their first IDs
    assert answer["anzahl_erfolgreich"] == 5
    assert stored(timed, 20) == [f"M{i}" for i in range(5)]
    assert [e["ID"] for e in answer["daten"]] == [f"longterm_{n}" for n in range(1, 6)]
    # And a further resend is answered from the record
    assert call_tool(timed, PRINCIPAL, "insert_brain_longterm_memory", arguments) == answer


@pytest.mark.parametrize(
    ("tool", "arguments", "method"),
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
            "put_brain_entries",
        ),
        ("rate_brain_memories", rate("longterm_1", 6), "record_ratings"),
        (
            "remember",
            {"content": "Wir nutzen OAuth.", "path": "users/anna/notizen"},
            "put_memories",
        ),
    ],
    ids=["upsert_brain", "rate", "remember"],
)
def test_entries_written_before_a_crash_are_recognised_on_resend(
    timed: ServiceContext,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
    tool: str,
    arguments: dict[str, Any],
    method: str,
) -> None:
    call_tool(timed, PRINCIPAL, "insert_brain_longterm_memory", insert(memory("A")))
    # Given a call that wrote everything but died before its answer was recorded
    crashed(timed, monkeypatch, method, 100)
    with pytest.raises(_Crash):
        call_tool(timed, PRINCIPAL, tool, arguments)
    # When it is resent after its mark
    clock.advance(timed.settings.idempotency_in_progress_s + 1)
    again = call_tool(timed, PRINCIPAL, tool, arguments)
    # Then it succeeds and nothing was written twice
    assert again["erfolg"], again
    if tool == "upsert_brain":
        assert len(timed.storage.list_brain_entries("acme", 10)) == 3
        assert [e["ID"] for e in again["daten"]] == [1, 2, 3]
    if tool == "rate_brain_memories":
        ratings = timed.storage.get_ratings("acme", MemoryId(MemoryType.LONGTERM, 1))
        assert len(ratings) == 1 and again["daten"][0]["insert_ID"] == ratings[0].insert_id
    if tool == "remember":
        assert len(stored(timed, 5)) == 2 and again["daten"]["ID"] == "longterm_2"


def test_a_delete_resent_after_a_crash_answers_like_the_first(
    timed: ServiceContext, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    call_tool(timed, PRINCIPAL, "insert_brain_longterm_memory", insert(*map(memory, "ABC")))
    ids = ["longterm_1", "longterm_2", "longterm_3", "longterm_9"]
    arguments = {"inhalt": {"memories": {"longterm": ids}, **CALLER}}
    # Given a delete of three memories (and one that never existed) that died after one
    crashed(timed, monkeypatch, "delete_memories", 1)
    with pytest.raises(_Crash):
        call_tool(timed, PRINCIPAL, "delete_brain_memories", arguments)
    assert stored(timed, 5) == ["B", "C"]
    # When it is resent after its mark
    clock.advance(timed.settings.idempotency_in_progress_s + 1)
    again = call_tool(timed, PRINCIPAL, "delete_brain_memories", arguments)
    # Then it answers what the first call would have answered, also where the memory the
    # first send deleted was (its mark carries the place)
    place = {"bereich": "users/anna", "pfad": "users/anna"}
    assert again["daten"] == {
        "geloescht": ids[:3],
        "nicht_gefunden": ids[3:],
        "orte": [{"ID": raw, **place} for raw in ids[:3]],
        "handelnd_als": "anna",
        "entfernt": ["erinnerung", "bewertungen", "vektor", "suchindex"],
    }
    assert stored(timed, 5) == []
    # And another write (other referenzfelder: another record) learns nothing from its marks
    other = call_tool(
        timed, PRINCIPAL, "delete_brain_memories", {**arguments, "referenzfelder": {"lauf": 2}}
    )
    assert other["daten"] == {
        "geloescht": [],
        "nicht_gefunden": ids,
        "orte": [],
        "handelnd_als": "anna",
        "entfernt": [],
    }
