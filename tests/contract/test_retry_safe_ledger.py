"""Contract: the ledger's writing actions are safe to resend (CONTRACT §3, issues 10 and 14),
on every adapter, through the one dispatcher: call-level records answer an identical resend,
entry keys derived from the call's write key complete a batch a crash cut off."""

from __future__ import annotations

from typing import Any

import pytest

from shared.config import Settings
from shared.ledger.model import LedgerWrite
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.tools.catalog import TOOLS
from shared.tools.dispatch import call_tool
from shared.tools.idempotency_fields import IN_PROGRESS_FIELD
from tests.clock import Clock
from tests.contract.ledger_builders import ANNA, booking_entry, ledger_args


class _Crash(BaseException):
    """The process dying mid-call: no cleanup runs, the call's record stays in progress."""


def book(*betraege: str) -> dict[str, Any]:
    return ledger_args("buchen", eintraege=[booking_entry(betrag=b) for b in betraege])


def query(ctx: ServiceContext) -> dict[str, Any]:
    answer = call_tool(ctx, ANNA, "ledger", ledger_args("abfragen"))
    assert answer["erfolg"] is True, answer
    daten: dict[str, Any] = answer["daten"]
    return daten


def test_the_ledgers_writing_actions_run_once_and_its_reads_do_not() -> None:
    spec = TOOLS["ledger"]
    assert spec.idempotent
    for aktion in ("buchen", "storno", "bezahlen"):
        assert spec.runs_once(ledger_args(aktion)), aktion
    assert not spec.runs_once(ledger_args("abfragen"))


def test_an_identical_ledger_resend_without_a_key_books_nothing_twice(
    storage: StoragePort,
) -> None:
    ctx = ServiceContext(storage, Settings())
    # Given a booking call and a storno call that were answered
    first = call_tool(ctx, ANNA, "ledger", book("10.00", "2.50"))
    storno = ledger_args("storno", eintraege=[{"ID": 1, "grund": "doppelt"}])
    reversed_once = call_tool(ctx, ANNA, "ledger", storno)
    assert first["erfolg"] and reversed_once["erfolg"], (first, reversed_once)
    before = query(ctx)
    # When both are resent unchanged, without referenzfelder.idempotenz_schluessel
    again = call_tool(ctx, ANNA, "ledger", book("10.00", "2.50"))
    reversed_again = call_tool(ctx, ANNA, "ledger", storno)
    # Then they get the first answers and nothing more is booked
    assert again == first and reversed_again == reversed_once
    after = query(ctx)
    assert [e["ID"] for e in after["eintraege"]] == [e["ID"] for e in before["eintraege"]]
    assert after["summen"][0]["saldo"] == "-2.50"
    # And a query is never answered from a record: after a new booking it sees it
    call_tool(ctx, ANNA, "ledger", book("1.00"))
    assert query(ctx)["summen"][0]["saldo"] == "-3.50"


def test_a_ledger_batch_cut_off_by_a_crash_is_completed_by_the_resend(
    storage: StoragePort, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    ctx = ServiceContext(storage, Settings(), clock=clock)
    arguments = book("1.00", "2.00", "3.00", "4.00", "5.00")
    append = storage.append_ledger

    def dies_after_two(writes: list[LedgerWrite]) -> Any:
        append(writes[:2])
        raise _Crash

    # Given a booking of 5 entries whose process died after booking 2
    monkeypatch.setattr(storage, "append_ledger", dies_after_two)
    with pytest.raises(_Crash):
        call_tool(ctx, ANNA, "ledger", arguments)
    monkeypatch.setattr(storage, "append_ledger", append)
    assert len(query(ctx)["eintraege"]) == 2
    # When it is resent while the dead call's record still counts as running
    busy = call_tool(ctx, ANNA, "ledger", arguments)
    # Then the resend is refused in German and books nothing
    assert busy["erfolg"] is False
    assert busy["fehler"][0]["feld"] == IN_PROGRESS_FIELD
    assert len(query(ctx)["eintraege"]) == 2
    # When it is resent after the in-progress record expired (on Lambda: the deadline)
    clock.advance(ctx.settings.idempotency_in_progress_s + 1)
    again = call_tool(ctx, ANNA, "ledger", arguments)
    # Then all 5 succeed, the 2 booked before under their first IDs, each booked once
    assert again["erfolg"] is True and again["anzahl_erfolgreich"] == 5, again
    done = [r for r in again["daten"] if "Bereits ausgeführt" in r.get("hinweis", "")]
    assert sorted(r["ID"] for r in done) == [1, 2]
    daten = query(ctx)
    assert sorted(e["betrag"] for e in daten["eintraege"]) == [
        "1.00",
        "2.00",
        "3.00",
        "4.00",
        "5.00",
    ]
    assert daten["summen"][0]["saldo"] == "-15.00"
    # And a further resend is answered from the record of the completed call
    assert call_tool(ctx, ANNA, "ledger", arguments) == again
