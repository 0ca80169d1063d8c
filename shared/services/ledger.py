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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any, Final

from shared.auth.principal import Principal
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
from shared.ledger.requests import LedgerBatch, ParsedBuchung, Storno, Zahlung, parse_ledger
from shared.scrubbing import ScrubPolicy
from shared.services import areas, responses
from shared.services.context import ServiceContext
from shared.services.ledger_query import abfragen
from shared.services.secrets import clean_value, hinweis, rejection
from shared.validation.errors import FieldError, RequestRejected

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


def _not_found(record_id: int) -> str:
    return f"nicht_gefunden: Der Ledger-Eintrag {record_id} existiert nicht."


@dataclass
class _Run:
    """One write call: who acts, which areas were checked, the per-entry results."""

    ctx: ServiceContext
    principal: Principal
    batch: LedgerBatch
    now: datetime
    nutzer: str
    agent: str
    results: list[dict[str, Any]]
    allowed: dict[tuple[str, bool], FieldError | None]
    # Per entry index: what to answer if storage refuses the entry as a conflict.
    conflicts: dict[int, str | None] = field(default_factory=dict)

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

    def fail(self, index: int, feld: str, meldung: str) -> None:
        self.results.append(responses.entry_failure(index, [FieldError(feld, meldung)]))

    def key(self, index: int, own: dict[str, Any]) -> str | None:
        """The entry's idempotency key: its own `referenzfelder.idempotenz_schluessel`, or
        the call's write key with the entry's index (the named key where a caller outside
        the dispatcher gives no write key); scoped to the action and the acting nutzer."""
        if IDEMPOTENZ_SCHLUESSEL in own:
            base = f"eintrag\x1f{own[IDEMPOTENZ_SCHLUESSEL]}"
        elif self.ctx.write_key is not None:
            base = f"schreibvorgang\x1f{self.ctx.write_key}\x1f{index}"
        elif IDEMPOTENZ_SCHLUESSEL in self.batch.referenzfelder:
            base = f"aufruf\x1f{self.batch.referenzfelder[IDEMPOTENZ_SCHLUESSEL]}\x1f{index}"
        else:
            return None
        scoped = f"{self.batch.aktion}\x1f{self.nutzer}\x1f{base}"
        return hashlib.sha256(scoped.encode()).hexdigest()

    def record(self, index: int, **values: Any) -> LedgerRecord:
        principal = self.principal
        # Redacted like the envelope's referenzfelder (dispatch.py): provenance, never secrets.
        own = clean_value(values.pop("referenzfelder") or {}).value
        referenzfelder = {**self.batch.referenzfelder, **own}
        return LedgerRecord(
            schluessel=self.key(index, own),
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
        pending: list[tuple[int, LedgerWrite, str | None]],
        satz: LedgerSatz,
        answer: Callable[[LedgerRecord], dict[str, Any]],
    ) -> None:
        """Reserve IDs in one step, append, and answer per entry."""
        if not pending:
            return
        ids = self.ctx.storage.reserve_ids(self.principal.tenant, CounterName.LEDGER, len(pending))
        writes = [
            replace(write, record=replace(write.record, id=record_id))
            for (_, write, _), record_id in zip(pending, ids, strict=True)
        ]
        outcomes = self.ctx.storage.append_ledger(writes)
        for (index, _, note), write, outcome in zip(pending, writes, outcomes, strict=True):
            if isinstance(outcome, AlreadyAppended):
                self.results.append(
                    {"index": index, "erfolg": True, "ID": outcome.id, "hinweis": ALREADY_DONE}
                )
                continue
            if outcome is not None:
                known = self.conflicts.get(index)
                if outcome.code is not EntryFailureCode.CONFLICT or known is None:
                    known = _failure_message(outcome, satz)
                self.fail(index, f"inhalt.eintraege[{index}]", known)
                continue
            result = {"index": index, "erfolg": True, **answer(write.record)}
            if note:
                result["hinweis"] = note
            self.results.append(result)


def _start(ctx: ServiceContext, principal: Principal, batch: LedgerBatch) -> _Run:
    # The scope (memory:write for these actions) is checked by the dispatcher
    # (ToolSpec.needed_scope), like every tool's.
    run = _Run(
        ctx,
        principal,
        batch,
        ctx.clock(),
        areas.acting_nutzer(principal),
        areas.acting_agent(principal),
        [],
        {},
    )
    for index, entry in enumerate(batch.entries):
        if isinstance(entry, list):
            run.results.append(responses.entry_failure(index, entry))
    return run


def _amounts(record: LedgerRecord) -> dict[str, Any]:
    return {
        "ID": record.id,
        "wirkung": str(record.wirkung),
        "waehrung": record.waehrung,
        "monat": record.monat,
        "bereich": record.area,
    }


def buchen(ctx: ServiceContext, principal: Principal, batch: LedgerBatch) -> dict[str, Any]:
    run = _start(ctx, principal, batch)
    pending: list[tuple[int, LedgerWrite, str | None]] = []
    for index, parsed in enumerate(batch.entries):
        if not isinstance(parsed, ParsedBuchung):
            continue
        entry, path = parsed.entry, f"inhalt.eintraege[{index}]"
        area = areas.area_of_path(entry.path)
        refused = run.may_write(area, entry.create_project)
        if refused is not None:
            run.fail(index, f"{path}.{refused.feld}", refused.meldung)
            continue
        texts = _clean_texts(
            {name: getattr(entry, name) for name in _FREE_TEXTS},
            path,
            ctx.settings.scrub_policy,
        )
        if texts.errors:
            run.results.append(responses.entry_failure(index, list(texts.errors)))
            continue
        art = LedgerArt(entry.art)
        status = entry.status or ("offen" if entry.faellig_am is not None else "bezahlt")
        record = run.record(
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
    run.append(pending, LedgerSatz.BUCHUNG, _amounts)
    return responses.batch(run.results, batch.referenzfelder)


def _originals(run: _Run, entries: Sequence[tuple[int, Storno | Zahlung]]) -> dict[int, LedgerView]:
    """The referenced records the caller may see (one read), others reported missing."""
    ids = [entry.ID for _, entry in entries]
    found = run.ctx.storage.get_ledger(run.principal.tenant, ids) if ids else {}
    readable = areas.readable_areas(run.ctx, run.principal, run.nutzer)
    return {rid: item for rid, item in found.items() if item.record.area in readable}


def _follow(
    ctx: ServiceContext, principal: Principal, batch: LedgerBatch, satz: LedgerSatz
) -> dict[str, Any]:
    run = _start(ctx, principal, batch)
    entries = [
        (index, entry)
        for index, entry in enumerate(batch.entries)
        if isinstance(entry, Storno | Zahlung)
    ]
    originals = _originals(run, entries)
    pending: list[tuple[int, LedgerWrite, str | None]] = []
    today = run.now.astimezone(ctx.settings.zone).date()
    for index, entry in entries:
        path = f"inhalt.eintraege[{index}]"
        found = originals.get(entry.ID)
        if found is None:
            run.fail(index, f"{path}.ID", _not_found(entry.ID))
            continue
        original = found.record
        # With a key, storage decides (the key first): a resend gets its first answer.
        keyed = run.key(index, entry.referenzfelder or {}) is not None
        problem = _follow_problem(found, satz, keyed)
        if keyed:  # if storage refuses it as a conflict: the reason as seen now
            run.conflicts[index] = _follow_problem(found, satz, False)
        if problem is not None:
            run.fail(index, f"{path}.ID", problem)
            continue
        refused = run.may_write(original.area)
        if refused is not None:
            run.fail(index, f"{path}.ID", refused.meldung)
            continue
        note_text = entry.grund if isinstance(entry, Storno) else entry.notiz
        texts = _clean_texts({"beschreibung": note_text}, path, ctx.settings.scrub_policy)
        if texts.errors:
            run.results.append(responses.entry_failure(index, list(texts.errors)))
            continue
        paid_on: date = entry.bezahlt_am or today if isinstance(entry, Zahlung) else original.datum
        record = run.record(
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

    run.append(pending, satz, answer)
    return responses.batch(run.results, batch.referenzfelder)


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


def ledger(ctx: ServiceContext, principal: Principal, args: Any) -> dict[str, Any]:
    aktion, batch = parse_ledger(args)
    if batch is None:
        return abfragen(ctx, principal, args)
    if aktion == "buchen":
        return buchen(ctx, principal, batch)
    satz = LedgerSatz.STORNO if aktion == "storno" else LedgerSatz.ZAHLUNG
    return _follow(ctx, principal, batch, satz)
