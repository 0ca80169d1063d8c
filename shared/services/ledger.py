"""The `ledger` tool: book, reverse, pay and query an append-only ledger (seed 004, issue 14).

- Identity comes from the token only: every record keeps the acting nutzer and agent, the
  token's subject (autor), account and device.
- Areas and membership are the areas module's (`authorize_write`, `readable_areas`): a
  booking's `path` is checked exactly like `remember`'s; records outside the caller's
  readable areas read as missing (`nicht_gefunden`), like memories.
- Free texts are masked (IBANs, card numbers: last 4 kept) and then scrubbed for secrets;
  a dedicated `iban` is validated (mod 97) and shown masked only.
- Nothing is ever changed: storno and bezahlen append records (`shared.ledger.model`).
- Retry-safe per entry: the writing actions run through the call-level idempotency
  records (`ToolSpec.runs_once`), and every record carries an entry key — the entry's own
  `referenzfelder.idempotenz_schluessel`, else the call's write key (`ctx.write_key`: the
  caller's `idempotenz_schluessel` or the call itself) plus the action and the entry's
  index. Storage checks the key atomically with the append, so a resend after a crash
  mid-batch books only the entries the cut-off call had not booked yet.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any, Final

from shared.auth.principal import Principal
from shared.calls import CallRecord
from shared.domain import CounterName, EntryFailure, EntryFailureCode
from shared.ledger.model import (
    ZERO,
    AlreadyAppended,
    LedgerArt,
    LedgerRecord,
    LedgerSatz,
    LedgerStatus,
    LedgerView,
    LedgerWrite,
    signed,
)
from shared.ledger.money import mask_payment_data
from shared.ledger.requests import LedgerBatch, Storno, Zahlung, parse_ledger
from shared.scrubbing import ScrubPolicy
from shared.services import areas, responses
from shared.services.context import ServiceContext
from shared.services.ledger_query import abfragen
from shared.services.memories import stored_referenzfelder
from shared.services.secrets import clean_value, hinweis, rejection
from shared.services.writes import Stored, run_plain
from shared.validation.errors import Art, FieldError, RequestRejected

IDEMPOTENZ_SCHLUESSEL: Final = "idempotenz_schluessel"
ALREADY_DONE: Final = (
    "Bereits ausgeführt: Dieser Eintrag wurde schon gebucht (ID), von einem früheren Senden "
    "desselben Schreibvorgangs (gleicher Aufruf oder idempotenz_schluessel); nichts wurde "
    "erneut gebucht."
)
# Texts of a booking that are masked and scrubbed before anything is stored.
_FREE_TEXTS: Final = ("beschreibung", "gegenpartei", "kategorie")


@dataclass(frozen=True)
class _Texts:
    values: dict[str, str]
    hinweis: str | None = None
    errors: tuple[FieldError, ...] = ()


def _clean_texts(texts: dict[str, str], path: str, policy: ScrubPolicy) -> _Texts:
    """Payment data masked, then secrets removed (or the entry refused, policy reject)."""
    masked_count = 0
    masked: dict[str, str] = {}
    for name, text in texts.items():
        masked[name], count = mask_payment_data(text)
        masked_count += count
    cleaned = clean_value(masked)
    if cleaned.kinds and policy is ScrubPolicy.REJECT:
        return _Texts({}, errors=(rejection(path, cleaned.kinds),))
    notes = []
    if masked_count:
        notes.append(
            f"{masked_count} IBAN/Kartennummer(n) im Text maskiert (nur die letzten 4 Zeichen "
            "bleiben); für die Bankverbindung das Feld iban verwenden."
        )
    if cleaned.kinds:
        notes.append(hinweis(cleaned.kinds))
    return _Texts(cleaned.value, " ".join(notes) or None)


def _failure_message(failure: EntryFailure, satz: LedgerSatz) -> str:
    if failure.code is EntryFailureCode.CONFLICT:
        if satz is LedgerSatz.STORNO:
            return "Konflikt: Der Eintrag ist bereits storniert; ein Storno je Eintrag."
        if satz is LedgerSatz.ZAHLUNG:
            return "Konflikt: Der Eintrag ist bereits bezahlt oder storniert."
        return (
            "Konflikt: Die Summen wurden gleichzeitig geändert; der Eintrag wurde nicht "
            "gebucht. Bitte diesen Eintrag erneut senden."
        )
    return "Speicherfehler: Der Eintrag wurde nicht gebucht. Bitte erneut senden."


def _failure_art(failure: EntryFailure) -> Art:
    return Art.CONFLICT if failure.code is EntryFailureCode.CONFLICT else Art.STORAGE


def _not_found(record_id: int) -> str:
    return f"nicht_gefunden: Der Ledger-Eintrag {record_id} existiert nicht."


@dataclass
class LedgerCall:
    """A writing ledger call (buchen, storno, bezahlen) between the retry layer's phases
    (services/writes.py): the areas' authorization (and for storno/bezahlen the records
    they refer to) is read side by side with the claim; texts are masked, scrubbed and
    appended after it, under the IDs reserved with the call record."""

    ctx: ServiceContext
    principal: Principal
    batch: LedgerBatch
    now: datetime
    nutzer: str
    agent: str
    results: list[dict[str, Any]]
    allowed: dict[tuple[str, bool], FieldError | None] = field(default_factory=dict)
    originals: dict[int, LedgerView] = field(default_factory=dict)
    # Per entry index: what to answer if storage refuses the entry as a conflict.
    conflicts: dict[int, str | None] = field(default_factory=dict)
    read: bool = False

    @property
    def satz(self) -> LedgerSatz:
        if self.batch.aktion == "buchen":
            return LedgerSatz.BUCHUNG
        return LedgerSatz.STORNO if self.batch.aktion == "storno" else LedgerSatz.ZAHLUNG

    def entries(self) -> list[tuple[int, Any]]:
        return [(i, e) for i, e in enumerate(self.batch.entries) if not isinstance(e, list)]

    def wants(self) -> dict[CounterName, list[int]]:
        """Every parsed entry before `ahead`; after it, those whose area (and record) it
        allowed."""
        return {CounterName.LEDGER: [i for i, entry in self.entries() if self._allowed(entry)]}

    def _allowed(self, entry: Any) -> bool:
        if not self.read:
            return True
        if self.satz is LedgerSatz.BUCHUNG:
            area = areas.area_of_path(entry.entry.path)
            return self.allowed.get((area, entry.entry.create_project)) is None
        found = self.originals.get(entry.ID)
        return found is not None and self.allowed.get((found.record.area, False)) is None

    def ahead(self) -> None:
        if self.satz is LedgerSatz.BUCHUNG:
            for _, parsed in self.entries():
                self.may_write(areas.area_of_path(parsed.entry.path), parsed.entry.create_project)
        else:
            ids = [entry.ID for _, entry in self.entries()]
            found = self.ctx.storage.get_ledger(self.principal.tenant, ids) if ids else {}
            readable = areas.readable_areas(self.ctx, self.principal, self.nutzer)
            self.originals = {
                rid: item for rid, item in found.items() if item.record.area in readable
            }
            for item in self.originals.values():
                self.may_write(item.record.area)
        self.read = True

    def only(self, indexes: set[int]) -> LedgerCall:
        return self

    def store(self, ctx: ServiceContext, call: CallRecord) -> Stored:
        self.results = list(self.results)
        if self.satz is LedgerSatz.BUCHUNG:
            self._buchen(ctx, call)
        else:
            self._follow(ctx, call)
        return Stored(responses.batch(self.results, self.batch.referenzfelder))

    def may_write(self, area: str, create_project: bool = False) -> FieldError | None:
        """The areas module's decision, once per area (and create_project) per call."""
        key = (area, create_project)
        if key not in self.allowed:
            try:
                areas.authorize_write(
                    self.ctx,
                    self.principal,
                    self.nutzer,
                    area,
                    create_project=create_project,
                    now=self.now,
                )
            except RequestRejected as refused:
                self.allowed[key] = refused.errors[0]
            else:
                self.allowed[key] = None
                self.allowed.setdefault((area, False), None)
        return self.allowed[key]

    def fail(self, index: int, feld: str, meldung: str, art: Art = Art.INVALID) -> None:
        self.results.append(responses.entry_failure(index, [FieldError(feld, meldung, art)]))

    def key(self, ctx: ServiceContext, index: int, own: dict[str, Any]) -> str | None:
        """The entry's idempotency key (as sent: keys are opaque, never scrubbed): its own
        `referenzfelder.idempotenz_schluessel`, or the call's write key with the entry's
        index; scoped to the action and the acting nutzer, stored only as a digest."""
        if IDEMPOTENZ_SCHLUESSEL in own:
            base = f"eintrag\x1f{own[IDEMPOTENZ_SCHLUESSEL]}"
        elif ctx.write_key is not None:
            base = f"schreibvorgang\x1f{ctx.write_key}\x1f{index}"
        else:
            return None
        scoped = f"{self.batch.aktion}\x1f{self.nutzer}\x1f{base}"
        return hashlib.sha256(scoped.encode()).hexdigest()

    def record(self, ctx: ServiceContext, index: int, **values: Any) -> LedgerRecord:
        principal = self.principal
        own = dict(values.pop("referenzfelder") or {})
        schluessel = self.key(ctx, index, own)
        # Redacted like the envelope's referenzfelder (dispatch.py): provenance, never
        # secrets; the keys only as the digest above.
        stored = clean_value(stored_referenzfelder(own)).value
        referenzfelder = {**stored_referenzfelder(self.batch.referenzfelder), **stored}
        return LedgerRecord(
            schluessel=schluessel,
            tenant=principal.tenant,
            id=index,  # replaced by the reserved ID
            nutzer=self.nutzer,
            agent=self.agent,
            autor=principal.subject,
            konto=principal.account,
            geraet=principal.device,
            created_at=self.now,
            referenzfelder=referenzfelder,
            **values,
        )

    def append(
        self,
        ctx: ServiceContext,
        call: CallRecord,
        pending: list[tuple[int, LedgerWrite, str | None]],
        answer: Callable[[LedgerRecord], dict[str, Any]],
    ) -> None:
        """Append under the reserved IDs and answer per entry."""
        if not pending:
            return
        writes = [
            replace(write, record=replace(write.record, id=call.id_of(CounterName.LEDGER, index)))
            for index, write, _ in pending
        ]
        outcomes = ctx.storage.append_ledger(writes)
        for (index, _, note), write, outcome in zip(pending, writes, outcomes, strict=True):
            if isinstance(outcome, AlreadyAppended):
                self.results.append(
                    {"index": index, "erfolg": True, "ID": outcome.id, "hinweis": ALREADY_DONE}
                )
                continue
            if outcome is not None:
                known, art = self.conflicts.get(index), Art.INVALID
                if outcome.code is not EntryFailureCode.CONFLICT or known is None:
                    known, art = _failure_message(outcome, self.satz), _failure_art(outcome)
                self.fail(index, f"inhalt.eintraege[{index}]", known, art)
                continue
            result = {"index": index, "erfolg": True, **answer(write.record)}
            if note:
                result["hinweis"] = note
            self.results.append(result)

    def _buchen(self, ctx: ServiceContext, call: CallRecord) -> None:
        pending: list[tuple[int, LedgerWrite, str | None]] = []
        for index, parsed in self.entries():
            entry, path = parsed.entry, f"inhalt.eintraege[{index}]"
            area = areas.area_of_path(entry.path)
            refused = self.may_write(area, entry.create_project)
            if refused is not None:
                self.fail(index, f"{path}.{refused.feld}", refused.meldung, refused.art)
                continue
            texts = _clean_texts(
                {name: getattr(entry, name) for name in _FREE_TEXTS},
                path,
                ctx.settings.scrub_policy,
            )
            if texts.errors:
                self.results.append(responses.entry_failure(index, list(texts.errors)))
                continue
            art = LedgerArt(entry.art)
            status = entry.status or ("offen" if entry.faellig_am is not None else "bezahlt")
            record = self.record(
                ctx,
                index,
                satz=LedgerSatz.BUCHUNG,
                art=art,
                betrag=parsed.betrag,
                wirkung=signed(art, parsed.betrag),
                waehrung=entry.waehrung,
                datum=entry.datum,
                area=area,
                path=entry.path,
                status=LedgerStatus(status),
                faellig_am=entry.faellig_am,
                iban=entry.iban,
                referenzfelder=entry.referenzfelder,
                **texts.values,
            )
            pending.append((index, LedgerWrite(record), texts.hinweis))
        self.append(ctx, call, pending, _amounts)

    def _follow(self, ctx: ServiceContext, call: CallRecord) -> None:
        satz = self.satz
        pending: list[tuple[int, LedgerWrite, str | None]] = []
        today = self.now.astimezone(ctx.settings.zone).date()
        for index, entry in self.entries():
            path = f"inhalt.eintraege[{index}]"
            found = self.originals.get(entry.ID)
            if found is None:
                self.fail(index, f"{path}.ID", _not_found(entry.ID), Art.NOT_FOUND)
                continue
            original = found.record
            # With a key, storage decides (the key first): a resend gets its first answer.
            keyed = self.key(ctx, index, entry.referenzfelder or {}) is not None
            problem = _follow_problem(found, satz, keyed)
            if keyed:  # if storage refuses it as a conflict: the reason as seen now
                self.conflicts[index] = _follow_problem(found, satz, False)
            if problem is not None:
                self.fail(index, f"{path}.ID", problem)
                continue
            refused = self.may_write(original.area)
            if refused is not None:
                self.fail(index, f"{path}.ID", refused.meldung, refused.art)
                continue
            note_text = entry.grund if isinstance(entry, Storno) else entry.notiz
            texts = _clean_texts({"beschreibung": note_text}, path, ctx.settings.scrub_policy)
            if texts.errors:
                self.results.append(responses.entry_failure(index, list(texts.errors)))
                continue
            paid_on: date = (
                entry.bezahlt_am or today if isinstance(entry, Zahlung) else original.datum
            )
            record = self.record(
                ctx,
                index,
                satz=satz,
                art=original.art,
                betrag=original.betrag,
                wirkung=-original.wirkung if satz is LedgerSatz.STORNO else ZERO,
                waehrung=original.waehrung,
                datum=paid_on,
                area=original.area,
                path=original.path,
                gegenpartei=original.gegenpartei,
                kategorie=original.kategorie,
                beschreibung=texts.values["beschreibung"]
                or f"{'Storno' if satz is LedgerSatz.STORNO else 'Zahlung'} zu {original.id}",
                status=LedgerStatus.BEZAHLT,
                iban=original.iban,
                bezug=original.id,
                anker_datum=original.datum,
                referenzfelder=entry.referenzfelder,
            )
            pending.append((index, LedgerWrite(record, original), texts.hinweis))

        def answer(record: LedgerRecord) -> dict[str, Any]:
            if satz is LedgerSatz.STORNO:
                return {**_amounts(record), "storno_von": record.bezug}
            return {
                "ID": record.id,
                "bezahlt": record.bezug,
                "bezahlt_am": record.datum.isoformat(),
                "bezahlt_von": record.nutzer,
                "autor": record.autor,
            }

        self.append(ctx, call, pending, answer)


def _amounts(record: LedgerRecord) -> dict[str, Any]:
    return {
        "ID": record.id,
        "wirkung": str(record.wirkung),
        "waehrung": record.waehrung,
        "monat": record.monat,
        "bereich": record.area,
    }


def prepare_ledger(ctx: ServiceContext, principal: Principal, batch: LedgerBatch) -> LedgerCall:
    """The token's checks of a writing ledger call: the scope (memory:write) is the
    dispatcher's (ToolSpec.needed_scope); identity comes from the token."""
    results = [
        responses.entry_failure(index, entry)
        for index, entry in enumerate(batch.entries)
        if isinstance(entry, list)
    ]
    return LedgerCall(
        ctx,
        principal,
        batch,
        ctx.clock(),
        areas.acting_nutzer(principal),
        areas.acting_agent(principal),
        results,
    )


def _follow_problem(found: LedgerView, satz: LedgerSatz, keyed: bool) -> str | None:
    record = found.record
    if record.satz is not LedgerSatz.BUCHUNG:
        return (
            f"Eintrag {record.id} ist ein {record.satz.value}-Satz; storniert oder bezahlt "
            "werden nur Buchungen."
        )
    if keyed and (found.storniert_durch or found.bezahlt_durch):
        return None  # maybe this very write, resent: the storage's key check answers
    if found.storniert_durch is not None:
        return f"Eintrag {record.id} ist bereits storniert (durch {found.storniert_durch})."
    if satz is LedgerSatz.ZAHLUNG and found.status is LedgerStatus.BEZAHLT:
        return f"Eintrag {record.id} ist bereits bezahlt."
    return None


def ledger_write(ctx: ServiceContext, principal: Principal, args: Any) -> LedgerCall:
    """The `Write` of a writing ledger call (the dispatcher's retry layer runs it)."""
    _, batch = parse_ledger(args)
    if batch is None:
        raise ValueError("abfragen is a read, not a write")
    return prepare_ledger(ctx, principal, batch)


def ledger(ctx: ServiceContext, principal: Principal, args: Any) -> dict[str, Any]:
    """The tool outside the retry layer: a query, or a write run plainly."""
    _, batch = parse_ledger(args)
    if batch is None:
        return abfragen(ctx, principal, args)
    return run_plain(ctx, principal.tenant, prepare_ledger(ctx, principal, batch))
