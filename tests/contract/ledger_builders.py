"""Builders for ledger records used by the contract, integration and concurrency tests."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

from shared.auth.principal import ALL_SCOPES, Principal
from shared.ledger.model import (
    LedgerArt,
    LedgerRecord,
    LedgerSatz,
    LedgerStatus,
    LedgerWrite,
    signed,
)
from shared.tools.catalog import TOOLS
from tests.contract.builders import T0, TENANT

AREA = "projects/memory-os"


def booking(record_id: int, betrag: str = "10.00", **overrides: Any) -> LedgerRecord:
    art = LedgerArt(overrides.pop("art", LedgerArt.AUSGABE))
    amount = Decimal(betrag)
    values: dict[str, Any] = {
        "tenant": TENANT,
        "id": record_id,
        "satz": LedgerSatz.BUCHUNG,
        "art": art,
        "betrag": amount,
        "wirkung": signed(art, amount),
        "waehrung": "EUR",
        "datum": date(2025, 3, 14),
        "area": AREA,
        "path": f"{AREA}/kosten",
        "gegenpartei": "Hetzner",
        "kategorie": "infrastruktur",
        "beschreibung": "Server März",
        "status": LedgerStatus.BEZAHLT,
        "nutzer": "anna",
        "agent": "bot",
        "autor": "acme:anna",
        "created_at": T0,
        "konto": "acme",
        "geraet": "laptop",
    }
    values.update(overrides)
    return LedgerRecord(**values)


def reminder(
    record_id: int, faellig_am: date, betrag: str = "99.90", **overrides: Any
) -> LedgerRecord:
    return booking(record_id, betrag, faellig_am=faellig_am, status=LedgerStatus.OFFEN, **overrides)


def follower(
    record_id: int, original: LedgerRecord, satz: LedgerSatz, **overrides: Any
) -> LedgerRecord:
    """A storno (negated effect) or zahlung (no effect) of `original`, at its position."""
    wirkung = -original.wirkung if satz is LedgerSatz.STORNO else Decimal(0)
    datum = overrides.pop("datum", original.datum)
    return replace(
        original,
        id=record_id,
        satz=satz,
        wirkung=wirkung,
        datum=datum,
        bezug=original.id,
        anker_datum=original.datum,
        faellig_am=None,
        status=LedgerStatus.BEZAHLT,
        **overrides,
    )


def new(record: LedgerRecord) -> LedgerWrite:
    return LedgerWrite(record)


def storno(record_id: int, original: LedgerRecord) -> LedgerWrite:
    return LedgerWrite(follower(record_id, original, LedgerSatz.STORNO), original)


def zahlung(record_id: int, original: LedgerRecord, datum: date | None = None) -> LedgerWrite:
    extra = {} if datum is None else {"datum": datum}
    return LedgerWrite(follower(record_id, original, LedgerSatz.ZAHLUNG, **extra), original)


# --- tool calls -----------------------------------------------------------------------------

ANNA = Principal(
    tenant="acme",
    subject="acme:anna",
    nutzer=frozenset({"anna"}),
    agents=frozenset({"buchhaltung-bot"}),
    scopes=ALL_SCOPES,
    teams=frozenset({"finanzen"}),
    account="acme-konto",
    device="laptop-7",
)


def booking_entry(**overrides: Any) -> dict[str, Any]:
    """One `buchen` entry as an agent sends it (the catalog's example, in anna's team)."""
    (example,) = TOOLS["ledger"].example["inhalt"]["eintraege"]
    values: dict[str, Any] = {**example, "path": "teams/finanzen/kosten"}
    for optional in ("faellig_am", "status", "create_project"):
        values.pop(optional)
    values.update(overrides)
    return values


def ledger_args(aktion: str, **inhalt: Any) -> dict[str, Any]:
    return {"inhalt": {"aktion": aktion, **inhalt}}
