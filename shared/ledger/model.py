"""The ledger's domain: append-only records and the running totals both adapters keep.

Invariants (every adapter keeps them; the contract suite checks them on both):
- Records are never changed or deleted. A correction is a `storno` record that references
  the original (`bezug`) and carries its negated effect; paying a reminder is a `zahlung`
  record that references the reminder. Each original has at most one storno and at most one
  zahlung; a storno or zahlung is never itself reversed or paid.
- `wirkung` is a record's signed effect on the balance, an exact Decimal: ausgabe negative,
  einnahme positive, umbuchung as signed by the caller, storno the original's negated, zahlung 0.
- Running totals per (area, month, currency) change together with the record that changes
  them (one transaction), so that a sum never disagrees with the records it sums.
- A storno and a zahlung sit at their original's position (its area, datum and ID): a query
  over a period sees an entry together with its correction and its payment.

The totals arithmetic lives here, above the port: adapters only store and load it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any

ZERO = Decimal(0)


class LedgerArt(StrEnum):
    AUSGABE = "ausgabe"
    EINNAHME = "einnahme"
    UMBUCHUNG = "umbuchung"


class LedgerSatz(StrEnum):
    """What a record is: a booking, the reversal of one, or the payment of a reminder."""

    BUCHUNG = "buchung"
    STORNO = "storno"
    ZAHLUNG = "zahlung"


class LedgerStatus(StrEnum):
    OFFEN = "offen"
    BEZAHLT = "bezahlt"


_RANK = {LedgerSatz.BUCHUNG: 0, LedgerSatz.STORNO: 1, LedgerSatz.ZAHLUNG: 2}


def month_of(day: date) -> str:
    return f"{day.year:04d}-{day.month:02d}"


def signed(art: LedgerArt, betrag: Decimal) -> Decimal:
    """The effect of a booking: ausgabe takes, einnahme adds, umbuchung keeps its sign."""
    if art is LedgerArt.AUSGABE:
        return -abs(betrag)
    if art is LedgerArt.EINNAHME:
        return abs(betrag)
    return betrag


@dataclass(frozen=True)
class LedgerRecord:
    tenant: str
    id: int
    satz: LedgerSatz
    art: LedgerArt
    betrag: Decimal
    wirkung: Decimal
    waehrung: str
    datum: date
    area: str
    path: str
    gegenpartei: str
    kategorie: str
    beschreibung: str
    status: LedgerStatus
    nutzer: str
    agent: str
    autor: str
    created_at: datetime
    konto: str | None = None
    geraet: str | None = None
    faellig_am: date | None = None
    iban: str | None = None
    # storno / zahlung: the booking it reverses or pays, and where that booking sits.
    bezug: int | None = None
    anker_datum: date | None = None
    referenzfelder: dict[str, Any] = field(default_factory=dict)
    # Idempotency: a write with a key already used by an appended record appends nothing.
    schluessel: str | None = None

    @property
    def position(self) -> tuple[date, int]:
        """Where the record sorts: its own (datum, ID), or its original's."""
        if self.bezug is None:
            return self.datum, self.id
        return self.anker_datum or self.datum, self.bezug

    @property
    def sort_key(self) -> tuple[date, int, int]:
        """Position order: a booking, then its storno, then its zahlung (newest first is
        this key descending, as every adapter lists)."""
        return (*self.position, _RANK[self.satz])

    @property
    def monat(self) -> str:
        return month_of(self.position[0])

    @property
    def is_reminder(self) -> bool:
        return (
            self.satz is LedgerSatz.BUCHUNG
            and self.faellig_am is not None
            and self.status is LedgerStatus.OFFEN
        )


@dataclass(frozen=True)
class LedgerView:
    """A record as read, with what later records say about it (bookings only)."""

    record: LedgerRecord
    storniert_durch: int | None = None
    bezahlt_durch: int | None = None
    bezahlt_am: date | None = None

    @property
    def status(self) -> LedgerStatus:
        if self.bezahlt_durch is not None:
            return LedgerStatus.BEZAHLT
        return self.record.status

    @property
    def open_reminder(self) -> bool:
        return (
            self.record.is_reminder and self.bezahlt_durch is None and self.storniert_durch is None
        )


def attach_followers(records: Iterable[LedgerRecord]) -> list[LedgerView]:
    """Views of `records` in their order, each booking told about its storno and zahlung
    among them."""
    listed = list(records)
    storno: dict[int, LedgerRecord] = {}
    zahlung: dict[int, LedgerRecord] = {}
    for record in listed:
        if record.bezug is not None:
            (storno if record.satz is LedgerSatz.STORNO else zahlung)[record.bezug] = record
    views = []
    for record in listed:
        paid = zahlung.get(record.id)
        reversed_by = storno.get(record.id)
        views.append(
            LedgerView(
                record,
                storniert_durch=reversed_by.id if reversed_by else None,
                bezahlt_durch=paid.id if paid else None,
                bezahlt_am=paid.datum if paid else None,
            )
        )
    return views


@dataclass(frozen=True)
class LedgerWrite:
    """One record to append. `original`: the booking a storno reverses or a zahlung pays
    (as read); the adapter claims it (once per kind) in the same transaction."""

    record: LedgerRecord
    original: LedgerRecord | None = None


@dataclass(frozen=True)
class AlreadyAppended:
    """The write's `schluessel` was used before: nothing was written now; `id` is the record
    appended then (a resend gets the first answer's ID)."""

    id: int


@dataclass(frozen=True)
class KategorieSumme:
    anzahl: int = 0
    saldo: Decimal = ZERO


@dataclass(frozen=True)
class LedgerTotal:
    """The sums of one area, month and currency (or a merge of several)."""

    area: str
    monat: str
    waehrung: str
    anzahl: int = 0
    saldo: Decimal = ZERO
    einnahmen: Decimal = ZERO
    ausgaben: Decimal = ZERO
    umbuchungen: Decimal = ZERO
    kategorien: Mapping[str, KategorieSumme] = field(default_factory=dict)
    # The SQLite row's version (0 = not stored yet); DynamoDB ADDs totals without one.
    version: int = 0

    @property
    def key(self) -> tuple[str, str, str]:
        return self.area, self.monat, self.waehrung

    def add(self, record: LedgerRecord) -> LedgerTotal:
        """These totals with one more record (a storno counts -1 and its negated effect)."""
        step = -1 if record.satz is LedgerSatz.STORNO else 1
        by_art = {
            LedgerArt.EINNAHME: "einnahmen",
            LedgerArt.AUSGABE: "ausgaben",
            LedgerArt.UMBUCHUNG: "umbuchungen",
        }[record.art]
        old = self.kategorien.get(record.kategorie, KategorieSumme())
        kategorien = {
            **self.kategorien,
            record.kategorie: KategorieSumme(old.anzahl + step, old.saldo + record.wirkung),
        }
        return replace(
            self,
            anzahl=self.anzahl + step,
            saldo=self.saldo + record.wirkung,
            kategorien=kategorien,
            **{by_art: getattr(self, by_art) + record.wirkung},
        )

    def merge(self, other: LedgerTotal) -> LedgerTotal:
        kategorien = dict(self.kategorien)
        for name, part in other.kategorien.items():
            old = kategorien.get(name, KategorieSumme())
            kategorien[name] = KategorieSumme(old.anzahl + part.anzahl, old.saldo + part.saldo)
        return replace(
            self,
            anzahl=self.anzahl + other.anzahl,
            saldo=self.saldo + other.saldo,
            einnahmen=self.einnahmen + other.einnahmen,
            ausgaben=self.ausgaben + other.ausgaben,
            umbuchungen=self.umbuchungen + other.umbuchungen,
            kategorien=kategorien,
            version=0,
        )

    # --- stored form (both adapters): exact Decimal strings in one JSON document ---------

    def dumps(self) -> str:
        return json.dumps(
            {
                "anzahl": self.anzahl,
                "saldo": str(self.saldo),
                "einnahmen": str(self.einnahmen),
                "ausgaben": str(self.ausgaben),
                "umbuchungen": str(self.umbuchungen),
                "kategorien": {
                    name: [part.anzahl, str(part.saldo)]
                    for name, part in sorted(self.kategorien.items())
                },
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @classmethod
    def loads(
        cls, area: str, monat: str, waehrung: str, text: str, version: int = 0
    ) -> LedgerTotal:
        data = json.loads(text)
        return cls(
            area=area,
            monat=monat,
            waehrung=waehrung,
            anzahl=int(data["anzahl"]),
            saldo=Decimal(data["saldo"]),
            einnahmen=Decimal(data["einnahmen"]),
            ausgaben=Decimal(data["ausgaben"]),
            umbuchungen=Decimal(data["umbuchungen"]),
            kategorien={
                name: KategorieSumme(int(count), Decimal(total))
                for name, (count, total) in data["kategorien"].items()
            },
            version=version,
        )


def merge_totals(parts: Iterable[LedgerTotal]) -> list[LedgerTotal]:
    """One total per (area, month, currency), from parts such as shards; sorted by key."""
    merged: dict[tuple[str, str, str], LedgerTotal] = {}
    for part in parts:
        found = merged.get(part.key)
        merged[part.key] = replace(part, version=0) if found is None else found.merge(part)
    return [merged[key] for key in sorted(merged)]


def totals_of(records: Iterable[LedgerRecord]) -> list[LedgerTotal]:
    """The totals the records add up to (the same arithmetic the running totals use)."""
    totals: dict[tuple[str, str, str], LedgerTotal] = {}
    for record in records:
        if record.satz is LedgerSatz.ZAHLUNG:
            continue
        key = (record.area, record.monat, record.waehrung)
        totals[key] = totals.get(key, LedgerTotal(*key)).add(record)
    return [totals[key] for key in sorted(totals)]
