"""Contract: the retry layer's findings of issue 20, on every adapter, through the one
dispatcher — each test failed on the Powertools layer that keyed on scrubbed text after
the tools' own authorization."""

from __future__ import annotations

import json
import secrets
import time
import uuid
from typing import Any

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.domain import MemoryId, MemoryType
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.storage.sqlite import SqliteStorage
from shared.tools.dispatch import call_tool
from tests.clock import Clock
from tests.contract.ledger_builders import ANNA, booking_entry, ledger_args

INSERT = "insert_brain_longterm_memory"


def principal(nutzer: str) -> Principal:
    return Principal(
        tenant="acme",
        subject=f"acme:{nutzer}",
        nutzer=frozenset({nutzer}),
        agents=frozenset({"bot"}),
        scopes=ALL_SCOPES,
    )


U1, U2 = principal("u1"), principal("u2")


def insert_args(text: str, nutzer: str = "u1", **referenzfelder: Any) -> dict[str, Any]:
    entry = {
        "kurzbeschreibung": text,
        "memory": f"{text}: vertraulich.",
        "tags": [],
        "scope": "kunde",
        "scope_vk": "K-1",
        "nutzer": nutzer,
        "agent": "bot",
    }
    args: dict[str, Any] = {"inhalt": {"memories": [entry], "nutzer": nutzer, "agent": "bot"}}
    if referenzfelder:
        args["referenzfelder"] = referenzfelder
    return args


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def ctx(storage: StoragePort, clock: Clock) -> ServiceContext:
    return ServiceContext(storage, Settings(), clock=clock)


def stored_texts(ctx: ServiceContext, count: int = 20) -> list[str]:
    ids = [MemoryId(MemoryType.LONGTERM, n) for n in range(1, count + 1)]
    found = ctx.storage.get_memories("acme", ids, ctx.clock())
    return sorted(m.kurzbeschreibung for m in found.values())


def test_a_replay_never_reaches_a_caller_who_may_not_make_the_call(ctx: ServiceContext) -> None:
    # Given u1 stored a text and deleted another
    first = call_tool(ctx, U1, INSERT, insert_args("Gehalt Müller"))
    assert first["erfolg"] is True
    delete = {"inhalt": {"memories": {"longterm": ["longterm_1"]}, "nutzer": "u1", "agent": "bot"}}
    # When u2, who may not act as u1, sends exactly u1's arguments
    probe = call_tool(ctx, U2, INSERT, insert_args("Gehalt Müller"))
    probe_delete = call_tool(ctx, U2, "delete_brain_memories", delete)
    # Then u2 is refused like for any other text: no ID, no sign that u1 sent it
    for answer in (probe, probe_delete):
        assert answer["erfolg"] is False and answer["daten"] is None
        assert answer["fehler"][0]["meldung"].startswith("nicht berechtigt")
    other = call_tool(ctx, U2, INSERT, insert_args("Etwas anderes"))
    assert other["fehler"] == probe["fehler"]
    # And another token of u1's tenant acting as itself is a call of its own
    assert call_tool(ctx, U2, INSERT, insert_args("Gehalt Müller", "u2"))["daten"][0]["ID"] == (
        "longterm_2"
    )


@pytest.mark.parametrize("where", ["call", "entry"])
def test_random_idempotency_keys_never_collapse_two_bookings(
    ctx: ServiceContext, where: str
) -> None:
    # Given two different bookings, each under its own random key
    keys = [uuid.uuid4().hex, secrets.token_urlsafe()]
    answers = []
    for betrag, key in zip(("3.50", "120.00"), keys, strict=True):
        if where == "call":
            args = ledger_args("buchen", eintraege=[booking_entry(betrag=betrag)])
            args["referenzfelder"] = {"idempotenz_schluessel": key}
        else:
            entry = booking_entry(betrag=betrag, referenzfelder={"idempotenz_schluessel": key})
            args = ledger_args("buchen", eintraege=[entry])
        # When each is sent
        answers.append(call_tool(ctx, ANNA, "ledger", args))
    # Then both are booked under their own IDs, and the echo keeps each key as sent
    assert [a["erfolg"] for a in answers] == [True, True], answers
    assert answers[0]["daten"][0]["ID"] != answers[1]["daten"][0]["ID"]
    assert not any("hinweis" in a["daten"][0] for a in answers)
    if where == "call":
        assert [a["referenzfelder"]["idempotenz_schluessel"] for a in answers] == keys
    query = call_tool(ctx, ANNA, "ledger", ledger_args("abfragen"))
    assert query["daten"]["summen"][0]["saldo"] == "-123.50"


def test_the_same_key_with_another_body_is_a_conflict(ctx: ServiceContext) -> None:
    key = secrets.token_urlsafe()
    first = call_tool(ctx, U1, INSERT, insert_args("A", idempotenz_schluessel=key))
    # When the key comes back with another text, or another provenance field
    changed = [
        call_tool(ctx, U1, INSERT, insert_args("B", idempotenz_schluessel=key)),
        call_tool(ctx, U1, INSERT, insert_args("A", idempotenz_schluessel=key, quelle="crm")),
    ]
    # Then each is refused as a conflict in German and nothing more is stored
    for answer in changed:
        assert answer["erfolg"] is False
        (error,) = answer["fehler"]
        assert error["feld"] == "referenzfelder.idempotenz_schluessel"
        assert error["meldung"].startswith("Konflikt")
        assert key not in error["meldung"]
    assert stored_texts(ctx) == ["A"]
    # And the same body under the key is the replay
    assert call_tool(ctx, U1, INSERT, insert_args("A", idempotenz_schluessel=key)) == first


@pytest.mark.parametrize("change", ["delete", "update"])
def test_deleting_or_changing_a_memory_ends_the_replay_that_answered_with_it(
    ctx: ServiceContext, clock: Clock, change: str
) -> None:
    # Given a stored memory
    first = call_tool(ctx, U1, INSERT, insert_args("Rückruf"))
    caller = {"nutzer": "u1", "agent": "bot"}
    # When it is deleted (or changed) and the same insert is sent again within the window
    if change == "delete":
        args = {"inhalt": {"memories": {"longterm": ["longterm_1"]}, **caller}}
        assert call_tool(ctx, U1, "delete_brain_memories", args)["daten"]["geloescht"]
    else:
        clock.advance(1)
        entry = {"ID": "longterm_1", "memory": "Neuer Text."}
        args = {"inhalt": {"memories": [entry], **caller}}
        assert call_tool(ctx, U1, "update_brain_memories", args)["erfolg"]
    again = call_tool(ctx, U1, INSERT, insert_args("Rückruf"))
    # Then it is stored anew, under a new ID
    assert again["erfolg"] is True
    assert again["daten"][0]["ID"] != first["daten"][0]["ID"]
    expected = ["Rückruf"] if change == "delete" else ["Rückruf", "Rückruf"]
    assert stored_texts(ctx) == expected
    # And a resend of that is the replay again
    assert call_tool(ctx, U1, INSERT, insert_args("Rückruf")) == again


def _call_records(storage: StoragePort) -> list[str]:
    if isinstance(storage, SqliteStorage):
        return [json.dumps(list(row)) for row in storage._read("SELECT * FROM call_records", ())]
    calls = storage._calls  # type: ignore[attr-defined]
    items = calls.client.scan(TableName=calls.table)["Items"]
    return [json.dumps(item) for item in items if "#CALL#" in item["pk"]["S"]]


def test_a_record_holds_the_answer_never_the_requests_text(ctx: ServiceContext) -> None:
    # Given writes of texts (and a secret) under a named key, then their deletion
    key = "vorgang-" + secrets.token_hex(8)
    call_tool(ctx, U1, INSERT, insert_args("Diagnose Meier", idempotenz_schluessel=key))
    call_tool(ctx, U1, INSERT, insert_args("Passwort: Sommer2024!xyz"))
    delete = {"inhalt": {"memories": {"longterm": ["longterm_1"]}, "nutzer": "u1", "agent": "bot"}}
    call_tool(ctx, U1, "delete_brain_memories", delete)
    # Then no call record contains a text, the secret or the key (only digests and IDs)
    records = _call_records(ctx.storage)
    assert len(records) == 3
    for record in records:
        for text in ("Diagnose", "Meier", "vertraulich", "Sommer2024", key):
            assert text not in record
    # And the stored memory keeps its provenance without the key
    (memory,) = ctx.storage.get_memories(
        "acme", [MemoryId(MemoryType.LONGTERM, 2)], ctx.clock()
    ).values()
    assert "idempotenz_schluessel" not in memory.referenzfelder


def test_windows_without_and_with_a_key(ctx: ServiceContext, clock: Clock) -> None:
    settings = ctx.settings
    assert settings.retry_window_s < settings.idempotency_key_window_s
    # (copies allowed: the windows are under test here, not the duplicate check)
    copy = {"duplikat_erlaubt": True}
    plain = call_tool(ctx, U1, INSERT, insert_args("Ohne", **copy))
    named = call_tool(ctx, U1, INSERT, insert_args("Mit", idempotenz_schluessel="k-1", **copy))
    # When a retry's window has passed, but not the key's
    clock.advance(settings.retry_window_s + 1)
    # Then the call without a key is a new write, the named one still its replay
    resent = call_tool(ctx, U1, INSERT, insert_args("Ohne", **copy))
    assert resent["daten"][0]["ID"] != plain["daten"][0]["ID"]
    assert (
        call_tool(ctx, U1, INSERT, insert_args("Mit", idempotenz_schluessel="k-1", **copy)) == named
    )
    # (without the flag such a new write is a near-duplicate: answered, not stored again)
    duplicate = call_tool(ctx, U1, INSERT, insert_args("Ohne"))
    assert duplicate["daten"][0]["duplikat_von"] in {
        plain["daten"][0]["ID"],
        resent["daten"][0]["ID"],
    }
    # And after the key's window it is a new write too
    clock.advance(settings.idempotency_key_window_s)
    again = call_tool(ctx, U1, INSERT, insert_args("Mit", idempotenz_schluessel="k-1", **copy))
    assert again["daten"][0]["ID"] != named["daten"][0]["ID"]


def test_a_resend_racing_the_first_send_never_reports_a_stored_entry_failed(
    ctx: ServiceContext, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    arguments = {
        "inhalt": {
            "memories": [insert_args(f"M{i}")["inhalt"]["memories"][0] for i in range(5)],
            "nutzer": "u1",
            "agent": "bot",
        }
    }
    put = ctx.storage.put_memories
    resends: list[dict[str, Any]] = []

    def slow_first_send(memories: Any) -> Any:
        # The first send is so slow that its mark runs out and the resend takes over...
        monkeypatch.setattr(ctx.storage, "put_memories", put)
        clock.advance(ctx.settings.idempotency_in_progress_s + 1)
        resends.append(call_tool(ctx, U1, INSERT, arguments))
        # ...and only then stores the same entries under the same IDs
        return put(memories)

    monkeypatch.setattr(ctx.storage, "put_memories", slow_first_send)
    first = call_tool(ctx, U1, INSERT, arguments)
    (resend,) = resends
    # Then both answers report every entry stored, under the same IDs, each stored once
    for answer in (first, resend):
        assert answer["anzahl_erfolgreich"] == 5, answer
    assert [e["ID"] for e in first["daten"]] == [e["ID"] for e in resend["daten"]]
    assert stored_texts(ctx) == [f"M{i}" for i in range(5)]


def test_the_time_budget_covers_the_call_up_to_its_storage(
    storage: StoragePort, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(tool_time_budget_s=0.2, idempotency_in_progress_s=60)
    ctx = ServiceContext(storage, settings)
    ensure = storage.ensure_tags

    def slow_tags(tenant: str, names: Any) -> Any:
        time.sleep(0.3)
        return ensure(tenant, names)

    monkeypatch.setattr(storage, "ensure_tags", slow_tags)
    args = insert_args("Langsam")
    args["inhalt"]["memories"][0]["tags"] = ["x"]
    # When a write's steps before its storage outlast the budget
    answer = call_tool(ctx, U1, INSERT, args)
    # Then it is refused as a whole, nothing is stored, and a resend runs at once
    assert answer["fehler"][0]["meldung"].startswith("Zeitbudget überschritten")
    assert stored_texts(ctx) == []
    monkeypatch.setattr(storage, "ensure_tags", ensure)
    assert call_tool(ServiceContext(storage, Settings()), U1, INSERT, args)["erfolg"] is True


def test_the_running_mark_must_outlast_the_time_budget() -> None:
    with pytest.raises(ValueError, match="idempotency_in_progress_s"):
        Settings(tool_time_budget_s=30, idempotency_in_progress_s=30)
