"""remember and insert_brain_*: a financial transaction gets a `hinweis` pointing to ledger
(advice, never a refusal); ordinary notes that mention money do not."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.ledger.classify import looks_like_transaction
from shared.services.context import ServiceContext
from shared.storage.sqlite import SqliteStorage
from shared.tools.dispatch import call_tool

TRANSACTIONS = (
    "Habe heute 49,90 € an Hetzner für den Server bezahlt.",
    "Miete von 1.200 EUR am 3.11. an den Vermieter überwiesen.",
    "Die Rechnung über 310,00 EUR ist am 15.12. fällig.",
    "Kunde K-1001 hat 2.500 EUR gezahlt.",
    "Amazon hat 19,99 Euro abgebucht.",
    "Reisekosten: 86,40 € für Bahntickets ausgegeben.",
    "Erstattung von 45 CHF für das Taxi erhalten, rückerstattet am Montag.",
    "Paid $1,250.00 to Acme Corp for the annual license.",
    "Transferred 300 GBP to the contractor today.",
    "We were charged USD 15 for the API overage.",
    "Refunded 49.90 EUR to the customer.",
    "Bought a monitor for 229 EUR.",
    "Spent $12.50 on lunch with the client.",
    "Invoice of 1,800 USD due on December 1st.",
)
ORDINARY = (
    "Das Budget für Q3 beträgt 50.000 EUR.",
    "Der Preis liegt bei 20 USD pro Nutzer und Monat.",
    "Kunde bevorzugt Rückruf am Vormittag.",
    "Use OAuth for hosted ChatGPT connections.",
    "The enterprise plan costs $99 per seat.",
    "Umsatzziel 2027: 2 Mio. Euro.",
    "Wir haben die Rechnung an den Kunden geschickt.",
    "The payment flow needs a retry button.",
    "Zahlungsarten: Kreditkarte, PayPal und Rechnung.",
    "Salary range for the role is 60,000-70,000 EUR.",
    "Release delayed due to 3 open bugs.",
    "Ticketpreis 12 Euro, Anmeldung bis Freitag.",
    "Die Zahl 42 ist die Antwort.",
)


@pytest.mark.parametrize("text", TRANSACTIONS)
def test_clear_transactions_are_recognised(text: str) -> None:
    assert looks_like_transaction(text)


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_notes_mentioning_money_are_not(text: str) -> None:
    assert not looks_like_transaction(text)


PRINCIPAL = Principal(
    tenant="acme",
    subject="acme:anna",
    nutzer=frozenset({"anna"}),
    agents=frozenset({"bot"}),
    scopes=ALL_SCOPES,
)


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[ServiceContext]:
    storage = SqliteStorage(tmp_path / "brain.sqlite3")
    yield ServiceContext(storage, Settings(), clock=lambda: datetime(2026, 11, 30, tzinfo=UTC))
    storage.close()


def test_remember_stores_a_transaction_and_points_to_ledger(ctx: ServiceContext) -> None:
    answer = call_tool(
        ctx, PRINCIPAL, "remember", {"content": TRANSACTIONS[0], "path": "users/anna/notizen"}
    )
    assert answer["erfolg"] is True
    assert "ledger" in answer["daten"]["hinweis"]
    plain = call_tool(ctx, PRINCIPAL, "remember", {"content": ORDINARY[0], "path": "users/anna"})
    assert plain["erfolg"] is True and "hinweis" not in plain["daten"]


def test_insert_points_to_ledger_per_entry(ctx: ServiceContext) -> None:
    who = {"nutzer": "anna", "agent": "bot", "scope": "kunde", "scope_vk": "K-1", "tags": []}
    memories = [
        {"kurzbeschreibung": "Zahlung", "memory": TRANSACTIONS[7], **who},
        {"kurzbeschreibung": "Preis", "memory": ORDINARY[1], **who},
    ]
    for tool in ("insert_brain_longterm_memory", "insert_brain_shortterm_memory"):
        answer = call_tool(
            ctx,
            PRINCIPAL,
            tool,
            {"inhalt": {"memories": memories, "nutzer": "anna", "agent": "bot"}},
        )
        assert answer["erfolg"] is True, answer
        first, second = answer["daten"]
        assert "ledger" in first["hinweis"] and "hinweis" not in second
