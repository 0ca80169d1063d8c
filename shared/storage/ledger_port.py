"""The ledger part of the storage port (`StoragePort` includes it).

Rules every adapter keeps (the domain invariants are in `shared.ledger.model`):
- Records are append-only: no method changes or deletes one; the expiry sweep never
  touches them.
- `append_ledger` applies each write on its own, atomically: the record, its claim on the
  original (storno / zahlung: at most one each; a zahlung also needs the original not to
  be reversed) and the running totals of its (area, month, currency). Concurrent appends
  never lose an update of the totals.
- Totals are read from the running totals, never by summing records one by one.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Protocol

from shared.domain import EntryFailure
from shared.ledger.model import AlreadyAppended, LedgerTotal, LedgerView, LedgerWrite


class LedgerPort(Protocol):
    def append_ledger(
        self, writes: Sequence[LedgerWrite]
    ) -> list[EntryFailure | AlreadyAppended | None]:
        """Append records (IDs already reserved), each on its own, in request order.

        None per appended record. AlreadyAppended: a record with the same `schluessel`
        exists (checked first, atomically with the append): nothing is written, its ID is
        returned. EntryFailure(CONFLICT): the original already has a
        record of this kind (storno / zahlung), or a zahlung's original was reversed, or
        the totals kept changing beyond the retry budget. Nothing of a failed record stays.
        """
        ...

    def get_ledger(self, tenant: str, ids: Sequence[int]) -> dict[int, LedgerView]:
        """Records by ID, each booking with its storno and zahlung (if any)."""
        ...

    def find_ledger(
        self,
        tenant: str,
        areas: Sequence[str],
        von: date | None,
        bis: date | None,
        limit: int | None,
    ) -> dict[str, list[LedgerView]]:
        """Per area: its records whose position datum is within [von, bis], newest position
        first (datum, then ID descending; a booking's zahlung and storno right before it),
        at most `limit` records per area (None: all). Every area is a key (maybe []).
        One round trip for all areas on adapters that can parallelise (DynamoDB: one Query
        per area, side by side)."""
        ...

    def ledger_totals(
        self, tenant: str, areas: Sequence[str], von_monat: str | None, bis_monat: str | None
    ) -> list[LedgerTotal]:
        """The running totals of the areas for the months in [von_monat, bis_monat]
        (`YYYY-MM`, None: open), one per (area, month, currency), sorted by that key."""
        ...

    def open_reminders(
        self, tenant: str, areas: Sequence[str], faellig_bis: date, limit: int
    ) -> list[LedgerView]:
        """Bookings with `faellig_am <= faellig_bis` still open (status offen, neither paid
        nor reversed), oldest due date first (then ID), at most `limit`."""
        ...
