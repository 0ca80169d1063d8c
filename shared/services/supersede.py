"""Superseded facts with history (issue 25): a write that names `ersetzt` marks the memories
it replaces.

Invariants:
- `Replaced.read` runs in the write's `ahead()` (side by side with the retry layer's claim):
  an ID the acting nutzer cannot read is not found (alike whether it exists); one whose
  area he may not write (`areas.authorize_write`, the rule of every write) is refused as
  forbidden. Replacing is allowed only where the caller may write both.
- `Replaced.mark` runs in the write's `store()`, in the same stage as the successor's own
  write (`StoragePort.side_by_side`): the replaced memory gets `gueltig_bis` (the write's
  time) and `ersetzt_durch` (the successor) through `StoragePort.supersede_memories` (one
  round trip; text, tags, postings, vector and ratings stay).
- A memory replaced by another successor already is refused (konflikt); one replaced by
  this very successor (a resend of a cut-off write) counts as done, never twice.
- If the successor's write fails, the marks of its entry are taken back (`unmark`).
- Deleting the successor leaves the replaced memory superseded: history stays history,
  its `ersetzt_durch` then names a memory that no longer exists (docs/truth.md).
- A superseded memory (`Memory.superseded`) leaves every default read; fetch by ID and
  `verlauf` show it (`areas.Visibility.shows`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final

from shared.auth.principal import Principal
from shared.domain import EntryFailure, EntryFailureCode, Memory, MemoryId, Supersession
from shared.services.areas import authorize_write
from shared.services.context import ServiceContext
from shared.services.entry_errors import (
    not_found_message,
    storage_failure_message,
    visible_memories,
)
from shared.validation.errors import Art, FieldError, RequestRejected

FORBIDDEN: Final = (
    "nicht berechtigt: {feld} nennt eine Erinnerung in einem Bereich, in den der handelnde "
    "Nutzer nicht schreiben darf. Ersetzen darf nur, wer beide Erinnerungen schreiben darf."
)
ALREADY: Final = (
    "konflikt: {mid} ist bereits durch {by} ersetzt ({feld}). Eine ersetzte Erinnerung "
    "wird nicht erneut ersetzt; die neue Erinnerung ersetzt stattdessen {by}."
)
ALREADY_RACED: Final = (
    "konflikt: {mid} wurde gerade durch eine andere Erinnerung ersetzt ({feld}). Die "
    "Erinnerung per ID lesen (ersetzt_durch) und die neue stattdessen jene ersetzen lassen."
)
ITSELF: Final = "ungültig: {feld} nennt die Erinnerung selbst; sie kann sich nicht ersetzen."
TWICE: Final = (
    "ungültig: {feld} nennt {mid}, die ein anderer Eintrag dieses Aufrufs schon ersetzt; "
    "jede Erinnerung höchstens einmal pro Aufruf ersetzen."
)


@dataclass
class Replaced:
    """The memories one write replaces: per entry index, the field that named them and the
    IDs. `refused` holds the entries refused by the reads (not found, forbidden)."""

    ctx: ServiceContext
    principal: Principal
    nutzer: str
    wanted: dict[int, tuple[str, list[MemoryId]]]
    found: dict[MemoryId, Memory] = field(default_factory=dict)
    refused: dict[int, FieldError] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        ctx: ServiceContext,
        principal: Principal,
        nutzer: str,
        wanted: Mapping[int, tuple[str, Sequence[MemoryId]]],
    ) -> Replaced:
        """Entries naming a memory another entry replaces already are refused here."""
        seen: set[MemoryId] = set()
        kept: dict[int, tuple[str, list[MemoryId]]] = {}
        refused: dict[int, FieldError] = {}
        for index, (feld, ids) in wanted.items():
            if not ids:
                continue
            twice = next((mid for mid in ids if mid in seen), None)
            if twice is not None:
                refused[index] = FieldError(feld, TWICE.format(feld=feld, mid=twice))
                continue
            seen.update(ids)
            kept[index] = (feld, list(ids))
        return cls(ctx, principal, nutzer, kept, refused=refused)

    def __bool__(self) -> bool:
        return bool(self.wanted)

    def read(self) -> None:
        """The replaced memories the acting nutzer may read, and the write check of their
        areas; refusals per entry into `refused`."""
        ids = list(dict.fromkeys(mid for _, ids in self.wanted.values() for mid in ids))
        if not ids:
            return
        ctx, principal = self.ctx, self.principal
        self.found = visible_memories(ctx, principal, self.nutzer, ids, ctx.clock())
        denied: set[str] = set()
        for area in sorted({memory.area for memory in self.found.values()}):
            try:
                authorize_write(ctx, principal, self.nutzer, area)
            except RequestRejected:
                denied.add(area)
        for index, (feld, wanted) in self.wanted.items():
            missing = next((mid for mid in wanted if mid not in self.found), None)
            if missing is not None:
                message = not_found_message(missing)
                self.refused[index] = FieldError(feld, message, Art.NOT_FOUND)
            elif any(self.found[mid].area in denied for mid in wanted):
                self.refused[index] = FieldError(feld, FORBIDDEN.format(feld=feld), Art.FORBIDDEN)

    def check(self, index: int, successor: MemoryId) -> FieldError | None:
        """Why entry `index` may not replace its memories by `successor` (None: it may)."""
        if index in self.refused:
            return self.refused[index]
        if index not in self.wanted:
            return None
        feld, ids = self.wanted[index]
        for mid in ids:
            if mid == successor:
                return FieldError(feld, ITSELF.format(feld=feld))
            by = self.found[mid].ersetzt_durch
            if by is not None and by != successor:
                return FieldError(feld, ALREADY.format(mid=mid, by=by, feld=feld), Art.CONFLICT)
        return None

    def mark(self, successors: Mapping[int, MemoryId], now: datetime) -> dict[int, FieldError]:
        """Mark the memories of these entries as replaced by their successors (one port
        call: one round trip); per entry whose mark failed, the error."""
        return self._apply(successors, now)

    def unmark(self, successors: Mapping[int, MemoryId], now: datetime) -> None:
        """Take back the marks of entries whose successor was not stored."""
        self._apply(successors, None)

    def _apply(
        self, successors: Mapping[int, MemoryId], at: datetime | None
    ) -> dict[int, FieldError]:
        marks = [
            (index, Supersession(mid, successor, at))
            for index, successor in successors.items()
            if index in self.wanted
            for mid in self.wanted[index][1]
        ]
        if not marks:
            return {}
        outcomes = self.ctx.storage.supersede_memories(
            self.principal.tenant, [mark for _, mark in marks], self.ctx.clock()
        )
        errors: dict[int, FieldError] = {}
        for (index, mark), outcome in zip(marks, outcomes, strict=True):
            if outcome is None or index in errors:
                continue
            if outcome.code is EntryFailureCode.CONFLICT:
                errors[index] = self._conflict(index, mark)
            else:
                errors[index] = self._failure(index, outcome)
        return errors

    def _conflict(self, index: int, mark: Supersession) -> FieldError:
        feld = self.wanted[index][0]
        message = ALREADY_RACED.format(mid=mark.memory_id, feld=feld)
        return FieldError(feld, message, Art.CONFLICT)

    def _failure(self, index: int, failure: EntryFailure) -> FieldError:
        feld = self.wanted[index][0]
        art = Art.NOT_FOUND if failure.code is EntryFailureCode.NOT_FOUND else Art.STORAGE
        return FieldError(feld, f"{feld}: {storage_failure_message(failure)}", art)

    def replaced_ids(self, index: int) -> list[str]:
        """The IDs entry `index` replaces, for its answer."""
        return [str(mid) for mid in self.wanted.get(index, ("", []))[1]]
