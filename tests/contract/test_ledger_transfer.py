"""Issue 20: `brain export` includes the ledger, and `brain import` books it back — the
same records (history kept, IDs anew, storno and zahlung on their bookings), the same
totals, nothing twice on a second import — with the import's rules (scrubbing, author and
membership); through the dispatcher, `export_lines` and `import_file`, on every adapter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.config import Settings
from shared.domain import Project
from shared.services.context import ServiceContext
from shared.services.export import export_lines
from shared.services.imports import import_file
from shared.storage.port import StoragePort
from shared.tools.dispatch import call_tool
from tests.contract.builders import T0
from tests.contract.ledger_builders import ANNA, booking_entry, ledger_args

SECRET = "ghp_" + "R8x2Lq9ZkT4vWm7NcY3pHd6sJf1GbA5eQu0K"  # a fake GitHub token
AREA = "teams/finanzen"
TEAMS = {"finanzen": ["anna"]}  # the operator's team configuration (brain import --team)


@pytest.fixture
def ctx(storage: StoragePort, tmp_path: Path) -> ServiceContext:
    return ServiceContext(storage, Settings(data_dir=tmp_path))


def ledger(ctx: ServiceContext, aktion: str, *eintraege: dict[str, Any]) -> None:
    answer = call_tool(ctx, ANNA, "ledger", ledger_args(aktion, eintraege=list(eintraege)))
    assert answer["erfolg"], answer


def run(ctx: ServiceContext, tmp_path: Path, lines: list[dict[str, Any]], tenant: str) -> int:
    path = tmp_path / f"{tenant}.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return import_file(ctx, path, tenant, "operator", "brain-import", TEAMS)


def ledger_lines(ctx: ServiceContext, tenant: str) -> list[dict[str, Any]]:
    return [line for line in export_lines(ctx, tenant) if line.get("art") == "ledger"]


def totals(ctx: ServiceContext, tenant: str) -> list[tuple[Any, ...]]:
    return [
        (t.area, t.monat, t.waehrung, t.anzahl, t.saldo, t.einnahmen, t.ausgaben)
        for t in ctx.storage.ledger_totals(tenant, [AREA], None, None)
    ]


def test_the_ledger_round_trips_with_its_totals(ctx: ServiceContext, tmp_path: Path) -> None:
    # Given bookings (one a reminder), a storno of the first and the reminder's payment
    ledger(
        ctx,
        "buchen",
        booking_entry(betrag="120.00"),
        booking_entry(betrag="3.50", faellig_am="2026-12-15"),
        booking_entry(betrag="80.00", art="einnahme", iban="DE89370400440532013000"),
    )
    ledger(ctx, "storno", {"ID": 1, "grund": "doppelt gebucht"})
    ledger(ctx, "bezahlen", {"ID": 2, "bezahlt_am": "2026-12-10"})
    exported = ledger_lines(ctx, "acme")
    assert [(x["id"], x["aktion"]) for x in exported] == [
        (1, "buchen"),
        (2, "buchen"),
        (3, "buchen"),
        (4, "storno"),
        (5, "bezahlen"),
    ]
    # When the export is imported into another tenant, twice
    every = list(export_lines(ctx, "acme"))
    assert run(ctx, tmp_path, every, "copy") == 0
    assert run(ctx, tmp_path, every, "copy") == 0
    # Then it books the same records once, with the same totals and the same history
    assert ledger_lines(ctx, "copy") == exported
    assert totals(ctx, "copy") == totals(ctx, "acme")
    (view,) = ctx.storage.get_ledger("copy", [2]).values()
    assert view.bezahlt_durch == 5 and view.record.autor == ANNA.subject


def booking_line(record_id: int, path: str, nutzer: str, **entry: Any) -> dict[str, Any]:
    return {
        "art": "ledger",
        "id": record_id,
        "aktion": "buchen",
        "eintrag": {**booking_entry(path=path), **entry},
        "nutzer": nutzer,
        "agent": "bot",
        "autor": f"acme:{nutzer}",
        "erstellt": T0.isoformat(),
    }


def test_crafted_ledger_lines_keep_the_import_rules(
    ctx: ServiceContext, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert ctx.storage.create_project(Project("acme", "apollo", "anna", T0))
    lines = [
        booking_line(1, "users/anna/kosten", "anna", beschreibung=f"Token {SECRET}"),
        booking_line(2, "users/bob/kosten", "anna"),  # planted in bob's area
        booking_line(3, "projects/apollo/kosten", "mallory"),  # no member
        booking_line(4, "projects/Apollo/kosten", "anna"),  # normal form
        {**booking_line(5, "users/anna", "anna"), "aktion": "storno", "eintrag": {"ID": 9}},
        booking_line(6, "teams/finanzen/kosten", "mallory"),  # no member of the team
        booking_line(7, "teams/finanzen/kosten", "anna"),
    ]
    assert run(ctx, tmp_path, lines, "acme") == 1
    booked = ledger_lines(ctx, "acme")
    assert [(x["eintrag"]["path"], x["nutzer"]) for x in booked] == [
        ("users/anna/kosten", "anna"),
        ("projects/apollo/kosten", "anna"),
        ("teams/finanzen/kosten", "anna"),
    ]
    assert SECRET not in json.dumps(booked)
    err = capsys.readouterr().err
    assert "Zeile 2: nutzer: nicht berechtigt" in err
    assert "Zeile 3: nutzer: nicht berechtigt" in err
    assert "Zeile 5: eintrag.ID" in err
    assert "Zeile 6: nutzer: nicht berechtigt: Der Autor ist kein Mitglied dieses Teams" in err
