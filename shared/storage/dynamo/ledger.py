"""The ledger on DynamoDB (docs/dynamodb.md, "Ledger"): its items and one TransactWriteItems
per record, running totals added atomically (`ADD`, no version: concurrent bookings never
refuse each other).

Invariants: the ID item, the record (a storno or zahlung claims its original once: it sits
at the original's position, `#S` / `#Z`, and `attribute_not_exists` on that key allows one
of each), its effect on the total shard and the open-reminder copy are written together or
not at all; nothing is read before a booking. Only a `TransactionConflict` is retried (fresh
ClientRequestToken, at most `max_retries` times). Appends of one total shard in a batch are
a chain in order; chains run side by side. Totals are read per area, never summed from
records. Record attributes are declared once (`RECORD`, items.py's codec): amounts are
decimal strings (DynamoDB normalises numbers: the scale the client sent is kept).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any, Final

from boto3.dynamodb.conditions import Attr, Key

from shared.domain import EntryFailure, EntryFailureCode
from shared.ledger.model import (
    AlreadyAppended,
    KategorieSumme,
    LedgerArt,
    LedgerRecord,
    LedgerSatz,
    LedgerTotal,
    LedgerView,
    LedgerWrite,
    attach_followers,
    merge_totals,
)
from shared.ledger.money import MINOR_UNITS
from shared.storage.dynamo.calls import (
    AWS_ERRORS,
    CONDITION_FAILED,
    TRANSACTION_CONFLICT,
    TableCalls,
    cancel_reasons,
    error_code,
    item_key,
    run_chains,
)
from shared.storage.dynamo.items import (
    PK,
    SK,
    Item,
    Kind,
    action,
    codec,
    expression,
    get_n,
    get_s,
    key,
    n,
    own_key,
    padded,
    part,
    plain,
    query,
    tenant_prefix,
)

_log = logging.getLogger(__name__)

# Bookings of one area, month and currency spread their totals over this many items, so
# that concurrent writers rarely contend for one item; a totals Query reads all shards.
TOTAL_SHARDS: Final = 4
_FOLLOWER: Final = {LedgerSatz.STORNO: "#S", LedgerSatz.ZAHLUNG: "#Z"}
AMOUNT: Final = Kind(str, Decimal)
RECORD: Final = codec(LedgerRecord, betrag=AMOUNT, wirkung=AMOUNT, created_at="created_us")
_BY_ART: Final = {
    LedgerArt.EINNAHME: "einnahmen",
    LedgerArt.AUSGABE: "ausgaben",
    LedgerArt.UMBUCHUNG: "umbuchungen",
}
_COUNT, _SUM = "kn:", "ks:"  # a category's count and sum: top-level numbers ADD can reach
_RETRY: Final = "retry"  # another transaction held one of the items: send it again

ShardKey = tuple[str, str]
Result = EntryFailure | AlreadyAppended | None


def record_key(record: LedgerRecord, follower: LedgerSatz | None = None) -> Item:
    """Where `record` sits (a storno or zahlung: at its original's position), or where
    its `follower` (storno, zahlung) sits or would sit."""
    pos_datum, pos_id = record.position
    suffix = _FOLLOWER.get(follower or record.satz, "")
    sk = f"E#{pos_datum.isoformat()}#{padded(pos_id)}{suffix}"
    return key(tenant_prefix(record.tenant, "LEDGER", record.area), sk)


def _due_key(record: LedgerRecord) -> Item:
    assert record.faellig_am is not None
    sk = f"{record.faellig_am.isoformat()}#{padded(record.id)}"
    return key(tenant_prefix(record.tenant, "LDUE", record.area), sk)


def _total_key(record: LedgerRecord) -> Item:
    sk = f"{record.monat}#{part(record.waehrung)}#{record.id % TOTAL_SHARDS}"
    return key(tenant_prefix(record.tenant, "LTOTAL", record.area), sk)


def _total_update(record: LedgerRecord) -> Item:
    """The Update of the record's total shard: its effect `ADD`ed (a storno counts -1 and
    its negated effect), so concurrent bookings never conflict on a version."""
    step = Decimal(-1 if record.satz is LedgerSatz.STORNO else 1)
    added = {
        "anzahl": step,
        "saldo": record.wirkung,
        _BY_ART[record.art]: record.wirkung,
        _COUNT + record.kategorie: step,
        _SUM + record.kategorie: record.wirkung,
    }
    fixed = {"area": record.area, "monat": record.monat, "waehrung": record.waehrung}
    return action("Update", Key=_total_key(record), **expression(add=added, put=fixed))


def _total_from_item(item: Mapping[str, Any]) -> LedgerTotal:
    """A total shard as stored; sums at the currency's minor units (DynamoDB normalises
    numbers: a sum of 1.25 and 1.75 reads back as 3)."""
    stored = plain(item)
    digits = MINOR_UNITS.get(stored["waehrung"])
    unit = None if digits is None else Decimal(1).scaleb(-digits)

    def amount(name: str) -> Decimal:
        value = Decimal(stored.get(name, 0))
        return value if unit is None else value.quantize(unit)

    kategorien = {
        name[len(_COUNT) :]: KategorieSumme(int(count), amount(_SUM + name[len(_COUNT) :]))
        for name, count in stored.items()
        if name.startswith(_COUNT)
    }
    fields: dict[str, Any] = {name: stored[name] for name in ("area", "monat", "waehrung")}
    fields |= {name: amount(name) for name in ("saldo", *_BY_ART.values())}
    return LedgerTotal(**fields, anzahl=int(stored["anzahl"]), kategorien=kategorien)


class LedgerTable:
    def __init__(self, calls: TableCalls, max_retries: int) -> None:
        self._calls = calls
        self._max_retries = max_retries

    # --- appends ------------------------------------------------------------------------

    def append(self, writes: Sequence[LedgerWrite]) -> list[Result]:
        def shard(index: int, write: LedgerWrite) -> ShardKey | int:
            record = write.record  # a zahlung touches no total: a chain of its own
            return index if record.satz is LedgerSatz.ZAHLUNG else item_key(_total_key(record))

        def chain(_shard: ShardKey | int, writes: list[LedgerWrite]) -> list[Result]:
            return [self._append_one(write) for write in writes]

        return run_chains(self._calls.round_trips, writes, shard, chain)

    def _append_one(self, write: LedgerWrite) -> Result:
        record, original = write.record, write.original
        new = Attr(PK).not_exists()
        at = record_key(record)
        pointer = own_key(record.tenant, "LID", padded(record.id))
        parts = {  # named: the cancellation reasons come in this order
            "id": action("Put", new, Item=pointer | {"entry_pk": at[PK], "entry_sk": at[SK]}),
            "record": action("Put", new, Item=at | RECORD.item(record)),
        }
        if record.satz is not LedgerSatz.ZAHLUNG:
            parts["total"] = _total_update(record)
        if record.is_reminder:
            parts["due"] = action("Put", Item=_due_key(record) | RECORD.item(record))
        if original is not None and original.is_reminder:
            parts["undue"] = action("Delete", Key=_due_key(original))
        if record.schluessel is not None:
            taken = own_key(record.tenant, "LKEY", record.schluessel) | {"id": n(record.id)}
            parts["key"] = action("Put", new, all_old=True, Item=taken)
        if record.satz is LedgerSatz.ZAHLUNG and original is not None:
            no_storno = record_key(original, LedgerSatz.STORNO)
            parts["check"] = action("ConditionCheck", new, Key=no_storno)
        for attempt in range(self._max_retries + 1):
            if attempt:
                self._calls.wait(attempt)
            try:
                self._calls.transact(list(parts.values()))
                return None
            except AWS_ERRORS as exc:
                result = self._classify(exc, record, list(parts))
            if not isinstance(result, str):
                return result
        detail = f"totals of {record.id} busy ({self._max_retries} retries)"
        return EntryFailure(EntryFailureCode.CONFLICT, detail)

    def _classify(self, exc: BaseException, record: LedgerRecord, parts: list[str]) -> Result | str:
        # an error that cancelled nothing reads as one reason: its code
        reasons = cancel_reasons(exc, len(parts)) or [{"Code": error_code(exc)}]
        codes = [str(reason.get("Code")) for reason in reasons]
        failed = {name for name, c in zip(parts, codes, strict=False) if c == CONDITION_FAILED}
        if "key" in failed and (taken := reasons[parts.index("key")].get("Item")) is not None:
            return AlreadyAppended(get_n(taken, "id"))  # the key item as stored (ALL_OLD)
        if "record" in failed and record.bezug is not None:
            detail = f"{record.bezug} hat schon {record.satz}"
            return EntryFailure(EntryFailureCode.CONFLICT, detail)
        if failed & {"id", "record"}:
            return EntryFailure(EntryFailureCode.STORAGE, f"record {record.id} exists")
        if "check" in failed:
            return EntryFailure(EntryFailureCode.CONFLICT, f"{record.bezug} ist storniert")
        if TRANSACTION_CONFLICT in codes:
            return _RETRY
        _log.warning("ledger record %s: transaction failed: %s", record.id, codes)
        return EntryFailure(EntryFailureCode.STORAGE, ",".join(codes))

    # --- reads --------------------------------------------------------------------------

    def get(self, tenant: str, ids: Sequence[int]) -> dict[int, LedgerView]:
        pointers = self._calls.batch_get([own_key(tenant, "LID", padded(i)) for i in ids])
        keys: list[Item] = []
        for pointer in pointers:
            pk, sk = get_s(pointer, "entry_pk"), get_s(pointer, "entry_sk")
            keys.append(key(pk, sk))
            if not sk.endswith(tuple(_FOLLOWER.values())):  # a booking: its followers too
                keys += [key(pk, sk + suffix) for suffix in _FOLLOWER.values()]
        records = [RECORD.read(item) for item in self._calls.batch_get(keys)]
        wanted = set(ids)  # the records were read by the tenant's keys
        return {v.record.id: v for v in attach_followers(records) if v.record.id in wanted}

    def find(
        self,
        tenant: str,
        areas: Sequence[str],
        von: date | None,
        bis: date | None,
        limit: int | None,
    ) -> dict[str, list[LedgerView]]:
        """One Query per area, side by side (one stage)."""
        low = f"E#{von.isoformat()}#" if von is not None else "E#"
        high = f"E#{bis.isoformat()}$" if bis is not None else "E$"
        wanted = list(dict.fromkeys(areas))
        queries = [_range_query(tenant, "LEDGER", area, low, high, newest=True) for area in wanted]
        pages = self._calls.query_many(queries, limit)
        found = zip(wanted, pages, strict=True)
        return {area: attach_followers(map(RECORD.read, items)) for area, items in found}

    def totals(
        self, tenant: str, areas: Sequence[str], von_monat: str | None, bis_monat: str | None
    ) -> list[LedgerTotal]:
        low = von_monat or "0"
        high = f"{bis_monat}$" if bis_monat else "9999$"
        queries = [_range_query(tenant, "LTOTAL", area, low, high) for area in dict.fromkeys(areas)]
        pages = self._calls.query_many(queries)
        return merge_totals(_total_from_item(item) for page in pages for item in page)

    def reminders(
        self, tenant: str, areas: Sequence[str], faellig_bis: date, limit: int
    ) -> list[LedgerView]:
        high = f"{faellig_bis.isoformat()}$"
        queries = [_range_query(tenant, "LDUE", area, "0", high) for area in dict.fromkeys(areas)]
        pages = self._calls.query_many(queries, limit)
        records = [RECORD.read(item) for page in pages for item in page]
        records.sort(key=lambda r: (r.faellig_am or date.max, r.id))
        return [LedgerView(record) for record in records[:limit]]


def _range_query(
    tenant: str, kind: str, area: str, low: str, high: str, *, newest: bool = False
) -> Item:
    """A consistent Query of an area's `kind` partition, sort keys in [low, high]."""
    pk = tenant_prefix(tenant, kind, area)
    between = Key(SK).between(low, high)
    return query(pk, sort=between, ScanIndexForward=not newest, ConsistentRead=True)
