"""Ledger records in `brain export` / `brain import` (services/export.py, imports.py).

One line per record, shaped as the ledger tool takes it:

    {"art": "ledger", "id": <ID in the exported tenant>, "aktion": "buchen"|"storno"|"bezahlen",
     "eintrag": <a Buchung / Storno / Zahlung entry; storno and zahlung name their booking
                 by its exported ID>,
     "nutzer", "agent", "autor", "erstellt", "konto"?, "geraet"?, "schluessel"?}

Invariants:
- Export reads by ID (1 up to the highest ID handed out, 100 per read, no scan), so a
  booking always comes before its storno and zahlung.
- Import keeps a record's history (amounts, dates, author, agent, account, device, time)
  and numbers it anew; a storno or zahlung refers to the new ID of its booking, which must
  stand before it in the same file. Per record, the one order: validation (the ledger
  tool's own entry models and German messages) → authorization (`may_write`: the import's
  author and membership rules) → scrubbing (texts masked and scrubbed as the ledger tool
  does, referenzfelder values redacted) → `append_ledger` (which keeps the running totals).
- The record's `schluessel` (the digest the exporting tenant stored; else a digest of the
  line) travels with it, so importing a file twice books nothing twice.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Final

from shared.domain import CounterName
from shared.ledger.model import (
    ZERO,
    AlreadyAppended,
    LedgerArt,
    LedgerRecord,
    LedgerSatz,
    LedgerStatus,
    LedgerWrite,
    signed,
)
from shared.ledger.requests import Buchung, ParsedBuchung, Storno, parse_ledger
from shared.services.areas import area_of_path
from shared.services.context import ServiceContext
from shared.services.ledger import _clean_texts
from shared.services.secrets import name_errors, screen_referenzfelder
from shared.validation.errors import FieldError, RequestRejected

LEDGER_LINE: Final = "ledger"
PAGE: Final = 100
_AKTION: Final = {
    LedgerSatz.BUCHUNG: "buchen",
    LedgerSatz.STORNO: "storno",
    LedgerSatz.ZAHLUNG: "bezahlen",
}
_IDENTITY: Final = ("nutzer", "agent", "autor")
CONFLICT: Final = (
    "Konflikt: Der Eintrag wurde nicht gebucht (seine Buchung ist bereits storniert oder "
    "bezahlt, oder die Summen änderten sich gleichzeitig)."
)
_OPTIONAL_IDENTITY: Final = ("konto", "geraet")


def _entry(record: LedgerRecord) -> dict[str, Any]:
    own = {"referenzfelder": dict(record.referenzfelder)} if record.referenzfelder else {}
    if record.satz is LedgerSatz.STORNO:
        return {"ID": record.bezug, "grund": record.beschreibung, **own}
    if record.satz is LedgerSatz.ZAHLUNG:
        return {
            "ID": record.bezug,
            "bezahlt_am": record.datum.isoformat(),
            "notiz": record.beschreibung,
            **own,
        }
    entry: dict[str, Any] = {
        "art": record.art.value,
        "betrag": str(record.betrag),
        "waehrung": record.waehrung,
        "datum": record.datum.isoformat(),
        "gegenpartei": record.gegenpartei,
        "kategorie": record.kategorie,
        "path": record.path,
        "beschreibung": record.beschreibung,
        "status": record.status.value,
        **own,
    }
    if record.faellig_am is not None:
        entry["faellig_am"] = record.faellig_am.isoformat()
    if record.iban is not None:
        entry["iban"] = record.iban
    return entry


def ledger_line(record: LedgerRecord) -> dict[str, Any]:
    line: dict[str, Any] = {
        "art": LEDGER_LINE,
        "id": record.id,
        "aktion": _AKTION[record.satz],
        "eintrag": _entry(record),
        "nutzer": record.nutzer,
        "agent": record.agent,
        "autor": record.autor,
        "erstellt": record.created_at.isoformat(),
    }
    for name in _OPTIONAL_IDENTITY:
        if getattr(record, name) is not None:
            line[name] = getattr(record, name)
    if record.schluessel is not None:
        line["schluessel"] = record.schluessel
    return line


def ledger_records(ctx: ServiceContext, tenant: str) -> Iterator[LedgerRecord]:
    """Every ledger record of the tenant, by ID."""
    highest = ctx.storage.highest_id(tenant, CounterName.LEDGER)
    for start in range(1, highest + 1, PAGE):
        ids = list(range(start, min(start + PAGE, highest + 1)))
        found = ctx.storage.get_ledger(tenant, ids)
        yield from (found[i].record for i in ids if i in found)


# An authorization: the refusal of a record of `author` in `area`, or None.
MayWrite = Callable[[str, str], str | None]


def _error(feld: str, meldung: str) -> list[dict[str, str]]:
    return [{"feld": feld, "meldung": meldung}]


def _fehler(errors: list[FieldError] | tuple[FieldError, ...]) -> list[dict[str, str]]:
    return [e.as_dict() for e in errors]


@dataclass
class LedgerImport:
    """The ledger lines of one import, record by record (see the module)."""

    ctx: ServiceContext
    tenant: str
    may_write: MayWrite
    imported: dict[int, LedgerRecord] = field(default_factory=dict)

    def add(self, line: Mapping[str, Any]) -> list[dict[str, str]]:
        """Import one line: [] when it was booked (or had been before), else its errors."""
        aktion, entry = line.get("aktion"), line.get("eintrag")
        if aktion not in _AKTION.values() or not isinstance(entry, Mapping):
            message = "Ledger-Zeile braucht aktion (buchen, storno, bezahlen) und eintrag."
            return _error("aktion", message)
        identity = self._identity(line)
        if isinstance(identity, list):
            return identity
        try:
            _, batch = parse_ledger({"inhalt": {"aktion": aktion, "eintraege": [entry]}})
        except RequestRejected as rejected:
            return _fehler(rejected.errors)
        assert batch is not None
        (parsed,) = batch.entries
        if isinstance(parsed, list):
            return _fehler(parsed)
        made = self._record(line, parsed, identity)
        if isinstance(made, list):
            return made
        record, original = made
        refused = self.may_write(record.area, record.nutzer)
        if refused is not None:
            return _error("nutzer", refused)
        return self._append(line, record, original)

    def _identity(self, line: Mapping[str, Any]) -> dict[str, Any] | list[dict[str, str]]:
        values: dict[str, Any] = {}
        for name in (*_IDENTITY, *_OPTIONAL_IDENTITY):
            value = line.get(name)
            if value is None and name in _OPTIONAL_IDENTITY:
                continue
            if not isinstance(value, str) or not value.strip() or len(value) > 200:
                return _error(name, "Muss eine nicht leere Zeichenkette (höchstens 200) sein.")
            values[name] = value
        refused = name_errors(list(values.items()))
        if refused:
            return _fehler(refused)
        try:
            values["created_at"] = datetime.fromisoformat(str(line.get("erstellt")))
        except ValueError:
            return _error("erstellt", "Muss ein Zeitpunkt nach ISO 8601 mit Zeitzone sein.")
        if values["created_at"].tzinfo is None:
            return _error("erstellt", "Muss ein Zeitpunkt nach ISO 8601 mit Zeitzone sein.")
        return values

    def _record(
        self, line: Mapping[str, Any], parsed: Any, identity: dict[str, Any]
    ) -> tuple[LedgerRecord, LedgerRecord | None] | list[dict[str, str]]:
        policy = self.ctx.settings.scrub_policy
        source = parsed.entry if isinstance(parsed, ParsedBuchung) else parsed
        try:
            own = screen_referenzfelder(source.referenzfelder or {}, "eintrag.referenzfelder").value
        except RequestRejected as rejected:
            return _fehler(rejected.errors)
        if isinstance(parsed, ParsedBuchung):
            entry: Buchung = parsed.entry
            texts = _clean_texts(
                {n: getattr(entry, n) for n in ("beschreibung", "gegenpartei", "kategorie")},
                "eintrag",
                policy,
            )
            if texts.errors:
                return _fehler(texts.errors)
            art = LedgerArt(entry.art)
            status = entry.status or ("offen" if entry.faellig_am is not None else "bezahlt")
            booking = LedgerRecord(
                tenant=self.tenant,
                id=0,
                satz=LedgerSatz.BUCHUNG,
                art=art,
                betrag=parsed.betrag,
                wirkung=signed(art, parsed.betrag),
                waehrung=entry.waehrung,
                datum=entry.datum,
                area=area_of_path(entry.path),
                path=entry.path,
                status=LedgerStatus(status),
                faellig_am=entry.faellig_am,
                iban=entry.iban,
                referenzfelder=own,
                schluessel=self._key(line),
                beschreibung=texts.values["beschreibung"],
                gegenpartei=texts.values["gegenpartei"],
                kategorie=texts.values["kategorie"],
                **identity,
            )
            return booking, None
        original = self.imported.get(parsed.ID)
        if original is None:
            return _error(
                "eintrag.ID",
                f"Die Buchung {parsed.ID} steht nicht vor diesem Eintrag in der Datei (oder "
                "wurde nicht importiert).",
            )
        storno = isinstance(parsed, Storno)
        note = parsed.grund if storno else parsed.notiz
        texts = _clean_texts({"beschreibung": note}, "eintrag", policy)
        if texts.errors:
            return _fehler(texts.errors)
        follow = LedgerRecord(
            tenant=self.tenant,
            id=0,
            satz=LedgerSatz.STORNO if storno else LedgerSatz.ZAHLUNG,
            art=original.art,
            betrag=original.betrag,
            wirkung=-original.wirkung if storno else ZERO,
            waehrung=original.waehrung,
            datum=original.datum if storno else (parsed.bezahlt_am or original.datum),
            area=original.area,
            path=original.path,
            gegenpartei=original.gegenpartei,
            kategorie=original.kategorie,
            beschreibung=texts.values["beschreibung"],
            status=LedgerStatus.BEZAHLT,
            iban=original.iban,
            bezug=original.id,
            anker_datum=original.datum,
            referenzfelder=own,
            schluessel=self._key(line),
            **identity,
        )
        return follow, original

    def _key(self, line: Mapping[str, Any]) -> str:
        given = line.get("schluessel")
        if isinstance(given, str) and len(given) == 64:
            return given
        canonical = json.dumps(
            {k: v for k, v in line.items() if k != "id"}, sort_keys=True, default=str
        )
        return hashlib.sha256(f"import\x1f{canonical}".encode()).hexdigest()

    def _append(
        self, line: Mapping[str, Any], record: LedgerRecord, original: LedgerRecord | None
    ) -> list[dict[str, str]]:
        (number,) = self.ctx.storage.reserve_ids(self.tenant, CounterName.LEDGER, 1)
        record = replace(record, id=number)
        (outcome,) = self.ctx.storage.append_ledger([LedgerWrite(record, original)])
        if isinstance(outcome, AlreadyAppended):
            # Imported before (same schluessel): nothing booked twice.
            found = self.ctx.storage.get_ledger(self.tenant, [outcome.id]).get(outcome.id)
            if found is not None:
                self._remember(line, found.record)
            return []
        if outcome is not None:
            return _error("eintrag", CONFLICT)
        self._remember(line, record)
        return []

    def _remember(self, line: Mapping[str, Any], record: LedgerRecord) -> None:
        old = line.get("id")
        if isinstance(old, int) and not isinstance(old, bool):
            self.imported[old] = record
