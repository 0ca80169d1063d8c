"""The per-call time budget (issue 11): a call whose scrubbing runs past its budget stops
before anything is written and answers with a clear German error (both adapters)."""

from __future__ import annotations

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.tools.dispatch import call_tool
from tests.e2e.helpers import insert_args, memory_entry
from tests.security.conftest import TENANT_A, stored_state

PRINCIPAL = Principal(
    tenant=TENANT_A,
    subject="s",
    nutzer=frozenset({"anna"}),
    agents=frozenset({"bot"}),
    scopes=frozenset(ALL_SCOPES),
)


@pytest.mark.parametrize("tool", ["insert_brain_longterm_memory", "insert_brain_shortterm_memory"])
def test_a_call_past_its_budget_writes_nothing(
    backend: StoragePort, settings: Settings, tool: str
) -> None:
    # Given a budget far below what scrubbing 100 entries takes
    tight = settings.model_copy(update={"tool_time_budget_s": 1e-6})
    entries = [memory_entry(nutzer="anna", agent="bot") for _ in range(100)]
    before = stored_state(backend)
    # When the batch is inserted
    envelope = call_tool(
        ServiceContext(backend, tight),
        PRINCIPAL,
        tool,
        insert_args(*entries, nutzer="anna", agent="bot"),
    )
    # Then the whole call fails with the German budget error and nothing was stored
    assert envelope["erfolg"] is False
    assert envelope["fehler"][0]["feld"] == "anfrage"
    assert "Zeitbudget überschritten" in envelope["fehler"][0]["meldung"]
    assert stored_state(backend) == before
    # And with the normal budget the same batch goes through, numbered from 1
    again = call_tool(
        ServiceContext(backend, settings),
        PRINCIPAL,
        tool,
        insert_args(*entries, nutzer="anna", agent="bot"),
    )
    assert again["anzahl_erfolgreich"] == 100
    assert again["daten"][0]["ID"].endswith("_1")


def test_one_long_text_past_its_budget_stops_between_scrub_steps(
    backend: StoragePort, settings: Settings
) -> None:
    # Given one memory whose scrubbing alone takes several times the budget (50,000 characters
    # dense with credentials: ~100 ms of scrubbing against a 20 ms budget; that the check runs
    # between the scrubber's rows is shown by tests/unit/test_scrub_budget.py)
    tight = settings.model_copy(update={"tool_time_budget_s": 0.02})
    text = ("Passwort: Sommer2024! " * 2300)[:50_000]
    before = stored_state(backend)
    # When it is inserted
    envelope = call_tool(
        ServiceContext(backend, tight),
        PRINCIPAL,
        "insert_brain_longterm_memory",
        insert_args(
            memory_entry(nutzer="anna", agent="bot", memory=text), nutzer="anna", agent="bot"
        ),
    )
    # Then the call stops with the German budget error and nothing was stored
    assert envelope["erfolg"] is False
    assert "Zeitbudget überschritten" in envelope["fehler"][0]["meldung"]
    assert stored_state(backend) == before
