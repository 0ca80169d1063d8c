"""Issue 11 for the ledger: control characters refused per field and secrets refused in fields
that cannot hold `[ENTFERNT:…]` (path, referenzfelder keys), with the memory tools' rules and
messages; a refused entry writes nothing and advances no counter. A ledger call past its time
budget writes nothing and answers in German. Both adapters."""

from __future__ import annotations

from typing import Any

import pytest

from shared.config import Settings
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.tools.dispatch import call_tool
from tests.contract.ledger_builders import ANNA, booking_entry, ledger_args
from tests.security.conftest import stored_state

# Fake credentials in real formats, assembled at run time (no token-shaped literals in git).
SLACK = "xoxb-" + "123456789012-1234567890123-abcdefghijklmnopqrstuvwx"
GITHUB = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def book(backend: StoragePort, settings: Settings, *entries: dict[str, Any]) -> Any:
    ctx = ServiceContext(backend, settings)
    return call_tool(ctx, ANNA, "ledger", ledger_args("buchen", eintraege=list(entries)))


@pytest.mark.parametrize(
    ("overrides", "feld", "rule"),
    [
        ({"beschreibung": "Server\u0000März"}, "beschreibung", "Steuerzeichen"),
        ({"gegenpartei": "Hetz\tner"}, "gegenpartei", "Steuerzeichen"),
        ({"kategorie": "infra\u001bstruktur"}, "kategorie", "Steuerzeichen"),
        ({"path": f"teams/finanzen/{SLACK}"}, "path", "Geheimnis (slack_token)"),
        ({"referenzfelder": {GITHUB: "x"}}, "referenzfelder", "Geheimnis (github_pat)"),
    ],
)
def test_a_refused_ledger_entry_writes_nothing_and_advances_no_counter(
    backend: StoragePort, settings: Settings, overrides: dict[str, Any], feld: str, rule: str
) -> None:
    # Given a batch of a valid booking and one with a control character or a secret in a
    # field that cannot hold a marker
    answer = book(backend, settings, booking_entry(), booking_entry(**overrides))
    # Then the valid one is booked, the other refused with the German rule naming the field
    assert [r["erfolg"] for r in answer["daten"]] == [True, False], answer
    error = answer["daten"][1]["fehler"][0]
    assert error["feld"] == f"inhalt.eintraege[1].{feld}"
    assert rule in error["meldung"]
    # And the secret is never echoed
    assert SLACK not in str(answer) and GITHUB not in str(answer)
    # And the refused entry took no ID: the next booking is number 2
    again = book(backend, settings, booking_entry())
    assert again["daten"][0]["ID"] == 2


@pytest.mark.parametrize(("aktion", "feld"), [("storno", "grund"), ("bezahlen", "notiz")])
def test_control_characters_in_storno_and_payment_texts_are_refused(
    backend: StoragePort, settings: Settings, aktion: str, feld: str
) -> None:
    # Given a booked reminder
    booked = book(backend, settings, booking_entry(faellig_am="2026-12-24"))
    before = stored_state(backend)
    # When it is reversed / paid with a NUL in the free text
    ctx = ServiceContext(backend, settings)
    eintrag = {"ID": booked["daten"][0]["ID"], feld: "a\u0000b"}
    answer = call_tool(ctx, ANNA, "ledger", ledger_args(aktion, eintraege=[eintrag]))
    # Then that entry is refused and nothing was appended
    assert answer["daten"][0]["erfolg"] is False
    assert answer["daten"][0]["fehler"][0]["feld"] == f"inhalt.eintraege[0].{feld}"
    assert stored_state(backend) == before


def test_a_ledger_batch_past_its_budget_writes_nothing(
    backend: StoragePort, settings: Settings
) -> None:
    # Given a budget far below what scrubbing 100 bookings takes
    tight = settings.model_copy(update={"tool_time_budget_s": 1e-6})
    before = stored_state(backend)
    # When 100 bookings are sent
    answer = book(backend, tight, *[booking_entry() for _ in range(100)])
    # Then the call fails as a whole with the German budget error and nothing was stored
    assert answer["erfolg"] is False
    assert answer["fehler"][0]["feld"] == "anfrage"
    assert "Zeitbudget überschritten" in answer["fehler"][0]["meldung"]
    assert stored_state(backend) == before
