"""The `ledger` tool through the dispatcher on SQLite: booking, storno, bezahlen, abfragen,
validation, areas, identity from the token, masking and scrubbing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from shared.auth.principal import ALL_SCOPES, Principal, Scope
from shared.config import Settings
from shared.domain import Project
from shared.ledger.requests import input_schema
from shared.schemas import load_schema
from shared.services.context import ServiceContext
from shared.storage.sqlite import SqliteStorage
from shared.tools.dispatch import call_tool
from tests.contract.ledger_builders import ANNA, booking_entry, ledger_args

NOW = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
BEN = Principal(
    tenant="acme",
    subject="acme:ben",
    nutzer=frozenset({"ben"}),
    agents=frozenset({"bot"}),
    scopes=ALL_SCOPES,
)


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[ServiceContext]:
    storage = SqliteStorage(tmp_path / "ledger.sqlite3")
    yield ServiceContext(storage, Settings(), clock=lambda: NOW)
    storage.close()


entry = booking_entry


def call(ctx: ServiceContext, aktion: str, principal: Principal = ANNA, **inhalt: Any) -> Any:
    return call_tool(ctx, principal, "ledger", ledger_args(aktion, **inhalt))


def book(ctx: ServiceContext, *entries: dict[str, Any], principal: Principal = ANNA) -> Any:
    return call(ctx, "buchen", principal, eintraege=list(entries))


def query(ctx: ServiceContext, principal: Principal = ANNA, **filters: Any) -> dict[str, Any]:
    answer = call(ctx, "abfragen", principal, **filters)
    assert answer["erfolg"] is True, answer
    daten: dict[str, Any] = answer["daten"]
    return daten


def test_booking_keeps_exact_amounts_and_the_tokens_identity(ctx: ServiceContext) -> None:
    # Given three bookings whose float sum would not be exact
    answer = book(
        ctx,
        entry(betrag="0.10"),
        entry(betrag="0.20"),
        entry(art="einnahme", betrag="1000.00", kategorie="umsatz", gegenpartei="Kunde K-1"),
    )
    # Then each got an ID and its signed effect
    assert answer["erfolg"] is True
    assert [(r["ID"], r["wirkung"]) for r in answer["daten"]] == [
        (1, "-0.10"),
        (2, "-0.20"),
        (3, "1000.00"),
    ]
    # And the sums are exact, per currency and per category and month
    daten = query(ctx)
    assert daten["summen"] == [
        {
            "waehrung": "EUR",
            "saldo": "999.70",
            "einnahmen": "1000.00",
            "ausgaben": "-0.30",
            "umbuchungen": "0",
            "anzahl": 3,
        }
    ]
    assert daten["summen_quelle"] == "laufende_summen"
    assert {(r["kategorie"], r["saldo"]) for r in daten["summen_nach_monat"]} == {
        ("infrastruktur", "-0.30"),
        ("umsatz", "1000.00"),
    }
    # And every entry carries author, agent, account and device from the token
    listed = daten["eintraege"][0]
    assert (listed["autor"], listed["nutzer"], listed["agent"]) == (
        "acme:anna",
        "anna",
        "buchhaltung-bot",
    )
    assert (listed["konto"], listed["geraet"]) == ("acme-konto", "laptop-7")


def test_each_entry_is_validated_on_its_own(ctx: ServiceContext) -> None:
    # Given one good entry and entries breaking one rule each
    answer = book(
        ctx,
        entry(),
        entry(betrag=49.9),
        entry(betrag="-5.00"),
        entry(betrag="1.234"),
        entry(waehrung="EURO"),
        entry(datum="30.11.2026"),
        entry(art="spende"),
        entry(path="privat/anna"),
        entry(iban="DE00 1234 5678 9012 3456 78"),
        entry(unbekannt=1),
    )
    # Then only the first is booked and every failure names its field in German
    assert answer["erfolg"] is False
    assert (answer["anzahl_erfolgreich"], answer["anzahl_fehlgeschlagen"]) == (1, 9)
    fields = [r["fehler"][0]["feld"] for r in answer["daten"][1:]]
    assert fields == [
        "inhalt.eintraege[1].betrag",
        "inhalt.eintraege[2].betrag",
        "inhalt.eintraege[3].betrag",
        "inhalt.eintraege[4].waehrung",
        "inhalt.eintraege[5].datum",
        "inhalt.eintraege[6].art",
        "inhalt.eintraege[7].path",
        "inhalt.eintraege[8].iban",
        "inhalt.eintraege[9].unbekannt",
    ]
    messages = " ".join(r["fehler"][0]["meldung"] for r in answer["daten"][1:])
    for words in ("Zeichenkette", "Vorzeichen", "Nachkommastellen", "ISO-4217", "JJJJ-MM-TT"):
        assert words in messages
    assert "Modulo 97" in messages


def test_envelope_errors_fail_the_whole_call(ctx: ServiceContext) -> None:
    for inhalt, feld in (
        ({}, "inhalt.aktion"),
        ({"aktion": "loeschen"}, "inhalt.aktion"),
        ({"aktion": "buchen"}, "inhalt.eintraege"),
        ({"aktion": "buchen", "eintraege": [entry()] * 101}, "inhalt.eintraege"),
        ({"aktion": "abfragen", "limit": 0}, "inhalt.limit"),
        ({"aktion": "abfragen", "von": "2026-12-01", "bis": "2026-11-01"}, "inhalt.bis"),
    ):
        answer = call_tool(ctx, ANNA, "ledger", {"inhalt": inhalt})
        assert answer["erfolg"] is False, inhalt
        assert answer["fehler"][0]["feld"] == feld
    assert query(ctx)["eintraege"] == []


def test_areas_follow_the_membership_rules_of_remember(ctx: ServiceContext) -> None:
    # When anna books into her own area, her team, and into ben's area and a foreign team
    answer = book(
        ctx,
        entry(path="users/anna/privat"),
        entry(path="teams/finanzen"),
        entry(path="users/ben"),
        entry(path="teams/vertrieb/reisen"),
    )
    # Then only her own and her team's bookings are written
    assert [r["erfolg"] for r in answer["daten"]] == [True, True, False, False]
    assert all("nicht berechtigt" in r["fehler"][0]["meldung"] for r in answer["daten"][2:])
    # And ben sees none of them, nor can he reverse or pay them
    assert query(ctx, BEN)["eintraege"] == []
    refused = call(ctx, "storno", BEN, eintraege=[{"ID": 1}])
    assert refused["daten"][0]["fehler"][0]["meldung"].startswith("nicht_gefunden")
    assert len(query(ctx)["eintraege"]) == 2


def test_storno_reverses_without_rewriting_history(ctx: ServiceContext) -> None:
    # Given a booking
    book(ctx, entry(betrag="120.00"))
    # When it is reversed, then reversed again
    first = call(ctx, "storno", eintraege=[{"ID": 1, "grund": "doppelt gebucht"}])
    second = call(ctx, "storno", eintraege=[{"ID": 1}])
    # Then the first storno is a new record, the second is refused
    assert first["daten"][0] | {"erfolg": True} == first["daten"][0]
    assert (first["daten"][0]["ID"], first["daten"][0]["storno_von"]) == (2, 1)
    assert first["daten"][0]["wirkung"] == "120.00"
    # (naming the storno that did it, although the retry-safe call left the check to storage)
    assert "bereits storniert (durch 2)" in second["daten"][0]["fehler"][0]["meldung"]
    # And the original is still there, marked, and the month sums to zero
    daten = query(ctx)
    by_id = {e["ID"]: e for e in daten["eintraege"]}
    assert by_id[1]["betrag"] == "120.00" and by_id[1]["storniert_durch"] == 2
    assert by_id[2]["satz"] == "storno" and by_id[2]["beschreibung"] == "doppelt gebucht"
    assert daten["summen"][0]["saldo"] == "0.00"
    # And a storno cannot be reversed itself
    again = call(ctx, "storno", eintraege=[{"ID": 2}])
    assert "nur Buchungen" in again["daten"][0]["fehler"][0]["meldung"]


def test_reminders_are_due_oldest_first_until_paid(ctx: ServiceContext) -> None:
    # Given two reminders and a plain booking
    book(
        ctx,
        entry(betrag="1200.00", faellig_am="2026-12-01", gegenpartei="Vermieter"),
        entry(betrag="89.00", faellig_am="2026-11-25", gegenpartei="Versicherung"),
        entry(),
    )
    # When the reminders due by December 15 are listed
    due = query(ctx, faellig_bis="2026-12-15")["offene_erinnerungen"]
    # Then the two open ones come oldest first
    assert [(r["ID"], r["status"]) for r in due] == [(2, "offen"), (1, "offen")]
    # When the insurance is paid
    paid = call(ctx, "bezahlen", eintraege=[{"ID": 2, "bezahlt_am": "2026-11-29"}])
    # Then the payment is a record with who and when, and only the rent is still due
    assert paid["daten"][0]["bezahlt"] == 2
    assert (paid["daten"][0]["bezahlt_am"], paid["daten"][0]["bezahlt_von"]) == (
        "2026-11-29",
        "anna",
    )
    assert [r["ID"] for r in query(ctx, faellig_bis="2026-12-15")["offene_erinnerungen"]] == [1]
    assert [e["ID"] for e in query(ctx, status="offen")["eintraege"]] == [1]
    # And paying twice, or paying a booking that was never open, is refused
    twice = call(ctx, "bezahlen", eintraege=[{"ID": 2}, {"ID": 3}, {"ID": 99}])
    messages = [r["fehler"][0]["meldung"] for r in twice["daten"]]
    assert "bereits bezahlt" in messages[0] and "bereits bezahlt" in messages[1]
    assert messages[2].startswith("nicht_gefunden")


def test_query_filters_and_their_sum_source(ctx: ServiceContext) -> None:
    # Given bookings in two months, currencies and counterparties
    book(
        ctx,
        entry(betrag="10.00", datum="2026-10-05"),
        entry(betrag="20.00", datum="2026-11-05"),
        entry(betrag="7", waehrung="JPY", datum="2026-11-06", gegenpartei="Tokio"),
        entry(betrag="5.00", datum="2026-11-07", kategorie="reisen", path="users/anna"),
    )
    # When November is queried per whole month: the running totals answer
    november = query(ctx, von="2026-11-01", bis="2026-11-30")
    assert november["summen_quelle"] == "laufende_summen"
    assert {s["waehrung"]: s["saldo"] for s in november["summen"]} == {
        "EUR": "-25.00",
        "JPY": "-7",
    }
    # And with a category, a currency or a path only that part is summed
    assert query(ctx, kategorie="reisen")["summen"][0]["saldo"] == "-5.00"
    assert [s["waehrung"] for s in query(ctx, waehrung="JPY")["summen"]] == ["JPY"]
    assert query(ctx, path="users/anna")["summen"][0]["saldo"] == "-5.00"
    # When a counterparty or a cut month is asked for: the matching entries are summed
    tokio = query(ctx, gegenpartei="Tokio")
    assert (tokio["summen_quelle"], tokio["summen"][0]["saldo"]) == ("eintraege", "-7")
    cut = query(ctx, von="2026-11-06", bis="2026-11-30", waehrung="EUR")
    assert (cut["summen_quelle"], cut["summen"][0]["saldo"]) == ("eintraege", "-5.00")
    assert [e["ID"] for e in query(ctx, limit=2)["eintraege"]] == [4, 3]
    # And the calendar's edges are periods like any other
    edges = query(ctx, von="0001-01-01", bis="9999-12-31")
    assert (edges["summen_quelle"], len(edges["eintraege"])) == ("laufende_summen", 4)
    assert query(ctx, limit=2)["weitere"] is True


def test_payment_data_is_masked_and_secrets_are_scrubbed(ctx: ServiceContext) -> None:
    # Given a booking whose texts hold an IBAN, a card number and a password
    answer = book(
        ctx,
        entry(
            beschreibung=(
                "Überweisung an DE89 3704 0044 0532 0130 00, Karte 4111 1111 1111 1111, "
                "Passwort: Sommer2024!"
            ),
            iban="de89 3704 0044 0532 0130 00",
        ),
    )
    # Then it is booked with a hinweis, and nothing readable remains
    assert answer["erfolg"] is True
    assert "maskiert" in answer["daten"][0]["hinweis"]
    listed = query(ctx)["eintraege"][0]
    text = listed["beschreibung"]
    assert "**** **** **** **** **30 00" in text and "**** **** **** 1111" in text
    assert "3704" not in text and "Sommer2024" not in text and "[ENTFERNT:" in text
    assert listed["iban"] == "******************3000"


def test_read_only_token_queries_but_cannot_book(ctx: ServiceContext) -> None:
    reader = Principal(
        tenant="acme",
        subject="acme:anna",
        nutzer=frozenset({"anna"}),
        agents=frozenset({"bot"}),
        scopes=frozenset({Scope.MEMORY_READ.value}),
    )
    refused = book(ctx, entry(path="users/anna"), principal=reader)
    assert refused["erfolg"] is False
    assert refused["fehler"][0]["feld"] == "scope"
    assert query(ctx, reader)["eintraege"] == []


def test_help_describes_the_tool(ctx: ServiceContext) -> None:
    answer = call_tool(ctx, BEN, "ledger", {"inhalt": {}, "help": 1})
    assert answer["erfolg"] is True
    assert answer["daten"]["input_schema"]["properties"]["inhalt"]["properties"]["aktion"][
        "enum"
    ] == ["buchen", "storno", "bezahlen", "abfragen"]
    assert answer["daten"]["beispiel"]["tool"] == "ledger"


def test_project_areas_need_membership_from_records_or_the_token(ctx: ServiceContext) -> None:
    # Given a project that ben owns (a project record) and one that anna's token grants
    ctx.storage.create_project(Project(tenant="acme", name="apollo", owner="ben", created_at=NOW))
    anna = replace(ANNA, projects=frozenset({"zeus"}))
    # When anna books into both, and into a project that does not exist
    answer = book(
        ctx,
        entry(path="projects/apollo/kosten"),
        entry(path="projects/zeus/kosten"),
        entry(path="projects/gibtsnicht"),
        principal=anna,
    )
    # Then only the token-granted project takes the booking; the others are refused alike
    assert [r["erfolg"] for r in answer["daten"]] == [False, True, False]
    refusals = [r["fehler"][0]["meldung"] for r in answer["daten"] if not r["erfolg"]]
    assert all("nicht berechtigt" in message for message in refusals)
    # And with create_project the missing project is created, anna its owner
    created = book(ctx, entry(path="projects/neu/kosten", create_project=True), principal=anna)
    assert created["erfolg"] is True
    assert ctx.storage.get_project("acme", "neu").owner == "anna"  # type: ignore[union-attr]
    # And ben, the owner of apollo, books there and sees only his area's sums
    assert book(ctx, entry(path="projects/apollo"), principal=BEN)["erfolg"] is True
    assert query(ctx, BEN)["bereiche"] == ["projects/apollo", "users/ben"]
    assert query(ctx, BEN)["summen"][0]["saldo"] == "-49.90"


def test_the_published_schema_is_the_request_models() -> None:
    # One place per limit: shared/schemas/ledger.json is generated from the pydantic models
    assert load_schema("ledger") == input_schema()


def test_a_resent_call_with_an_idempotency_key_books_nothing_twice(ctx: ServiceContext) -> None:
    # Given a booking call and a storno call, each naming its logical write
    args = ledger_args("buchen", eintraege=[entry(), entry(betrag="5.00")])
    keyed = {**args, "referenzfelder": {"idempotenz_schluessel": "beleg-7"}}
    first = call_tool(ctx, ANNA, "ledger", keyed)
    assert [r["ID"] for r in first["daten"]] == [1, 2]
    storno = {
        **ledger_args("storno", eintraege=[{"ID": 1}]),
        "referenzfelder": {"idempotenz_schluessel": "storno-7"},
    }
    reversed_once = call_tool(ctx, ANNA, "ledger", storno)
    # When both are resent (a client that timed out), the booking with a corrected text
    corrected = ledger_args(
        "buchen", eintraege=[entry(beschreibung="korrigiert"), entry(betrag="5.00")]
    )
    again = call_tool(
        ctx, ANNA, "ledger", {**corrected, "referenzfelder": {"idempotenz_schluessel": "beleg-7"}}
    )
    reversed_again = call_tool(ctx, ANNA, "ledger", storno)
    # Then the changed booking under the same key is a conflict (German, nothing booked)
    assert again["erfolg"] is False
    assert again["fehler"][0]["feld"] == "referenzfelder.idempotenz_schluessel"
    assert again["fehler"][0]["meldung"].startswith("Konflikt")
    # And the identical storno resend is answered from the call's record: the first answer
    assert reversed_again == reversed_once
    assert reversed_once["daten"][0]["ID"] == 3
    daten = query(ctx)
    assert [e["ID"] for e in daten["eintraege"]] == [2, 3, 1]
    assert daten["summen"][0]["saldo"] == "-5.00"
    # And a call without the key is a new booking
    assert call_tool(ctx, ANNA, "ledger", args)["daten"][0]["ID"] == 4
