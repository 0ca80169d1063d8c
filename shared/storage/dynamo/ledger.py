"""The ledger on DynamoDB (docs/dynamodb.md, "Ledger"): one TransactWriteItems per record,
running totals added atomically (`ADD`, no version: concurrent bookings never refuse each
other).

Invariants: the ID item, the record (a storno or zahlung claims its original once), its
effect on the total shard and the open-reminder copy are written together or not at all;
nothing is read before a booking. Only a `TransactionConflict` is retried (fresh
ClientRequestToken, at most `max_retries` times). Appends of one total shard in a batch are
a chain in order; chains run side by side. Totals are read per area, never summed from
records.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Final

from boto3.dynamodb.conditions import Attr, Key

from shared.domain import EntryFailure, EntryFailureCode
from shared.ledger.model import (
    AlreadyAppended,
    LedgerRecord,
    LedgerSatz,
    LedgerTotal,
    LedgerView,
    LedgerWrite,
    attach_followers,
    merge_totals,
)
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
from shared.storage.dynamo.items import PK, SK, Item, action, get_n, get_s, key, n, query
from shared.storage.dynamo.ledger_items import (
    due_key,
    due_pk,
    follower_key,
    id_key,
    record_from_item,
    record_item,
    record_key,
    record_pk,
    schluessel_key,
    total_from_item,
    total_key,
    total_pk,
    total_update,
)

_log = logging.getLogger(__name__)

_ID, _RECORD = 0, 1
_RETRY: Final = "retry"  # another transaction held one of the items: send it again

ShardKey = tuple[str, str]
Result = EntryFailure | AlreadyAppended | None


class LedgerTable:
    def __init__(self, calls: TableCalls, max_retries: int) -> None:
        self._calls = calls
        self._max_retries = max_retries

    # --- appends ------------------------------------------------------------------------

    def append(self, writes: Sequence[LedgerWrite]) -> list[Result]:
        def shard(index: int, write: LedgerWrite) -> ShardKey | int:  # zahlungen touch no total
            return (
                index
                if write.record.satz is LedgerSatz.ZAHLUNG
                else item_key(total_key(write.record))
            )

        def chain(_shard: ShardKey | int, writes: list[LedgerWrite]) -> list[Result]:
            return [self._append_one(write) for write in writes]

        return run_chains(self._calls.round_trips, writes, shard, chain)

    def _append_one(self, write: LedgerWrite) -> Result:
        for attempt in range(self._max_retries + 1):
            if attempt:
                self._calls.backoff.wait(attempt)
            result = self._attempt(write)
            if not isinstance(result, str):
                return result
        detail = f"totals of {write.record.id} busy ({self._max_retries} retries)"
        return EntryFailure(EntryFailureCode.CONFLICT, detail)

    def _attempt(self, write: LedgerWrite) -> Result | str:
        record, original = write.record, write.original
        new = Attr(PK).not_exists()
        rkey = record_key(record)
        pointer = {**id_key(record.tenant, record.id), "entry_pk": rkey[PK], "entry_sk": rkey[SK]}
        items = [
            action("Put", new, Item=pointer),
            action("Put", new, Item=record_item(record, rkey)),
        ]
        if record.satz is not LedgerSatz.ZAHLUNG:
            items.append(total_update(record))
        if record.is_reminder:
            items.append(action("Put", Item=record_item(record, due_key(record))))
        if original is not None and original.is_reminder:
            items.append(action("Delete", Key=due_key(original)))
        at: dict[str, int] = {}  # where the optional parts sit in the TransactItems
        if record.schluessel is not None:
            at["key"] = len(items)
            taken = {**schluessel_key(record.tenant, record.schluessel), "id": n(record.id)}
            items.append(action("Put", new, all_old=True, Item=taken))
        if record.satz is LedgerSatz.ZAHLUNG and original is not None:
            at["check"] = len(items)
            no_storno = follower_key(original, LedgerSatz.STORNO)
            items.append(action("ConditionCheck", new, Key=no_storno))
        try:
            self._calls.transact(items)
        except AWS_ERRORS as exc:
            return self._classify(exc, record, len(items), at)
        return None

    def _classify(
        self, exc: BaseException, record: LedgerRecord, count: int, at: Mapping[str, int]
    ) -> Result | str:
        reasons = cancel_reasons(exc, count)
        if reasons is None:
            _log.warning("ledger record %s: %s", record.id, error_code(exc))
            return EntryFailure(EntryFailureCode.STORAGE, error_code(exc))
        codes = [str(reason.get("Code")) for reason in reasons]

        def failed(part: str) -> bool:
            return part in at and codes[at[part]] == CONDITION_FAILED

        if failed("key") and (taken := reasons[at["key"]].get("Item")) is not None:
            return AlreadyAppended(get_n(taken, "id"))  # the key item as stored (ALL_OLD)
        if codes[_RECORD] == CONDITION_FAILED and record.bezug is not None:
            detail = f"{record.bezug} hat schon {record.satz}"
            return EntryFailure(EntryFailureCode.CONFLICT, detail)
        if CONDITION_FAILED in (codes[_ID], codes[_RECORD]):
            return EntryFailure(EntryFailureCode.STORAGE, f"record {record.id} exists")
        if failed("check"):
            return EntryFailure(EntryFailureCode.CONFLICT, f"{record.bezug} ist storniert")
        if TRANSACTION_CONFLICT in codes:
            return _RETRY
        _log.warning("ledger record %s: transaction cancelled: %s", record.id, codes)
        return EntryFailure(EntryFailureCode.STORAGE, ",".join(codes))

    # --- reads --------------------------------------------------------------------------

    def get(self, tenant: str, ids: Sequence[int]) -> dict[int, LedgerView]:
        if not ids:
            return {}
        pointers = self._calls.batch_get([id_key(tenant, i) for i in dict.fromkeys(ids)])
        keys: list[Item] = []
        for pointer in pointers:
            pk, sk = get_s(pointer, "entry_pk"), get_s(pointer, "entry_sk")
            keys.append(key(pk, sk))
            if not sk.endswith(("#S", "#Z")):  # a booking: its followers too
                keys += [key(pk, sk + "#S"), key(pk, sk + "#Z")]
        records = [record_from_item(item) for item in self._calls.batch_get(keys)]
        views = attach_followers(records)
        wanted = set(ids)
        return {
            v.record.id: v for v in views if v.record.id in wanted and v.record.tenant == tenant
        }

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
        queries = [
            _range_query(record_pk(tenant, area), low, high, newest_first=True) for area in wanted
        ]
        pages = self._calls.query_many(queries, limit) if queries else []
        return {
            area: attach_followers(record_from_item(item) for item in items)
            for area, items in zip(wanted, pages, strict=True)
        }

    def totals(
        self, tenant: str, areas: Sequence[str], von_monat: str | None, bis_monat: str | None
    ) -> list[LedgerTotal]:
        low = von_monat or "0"
        high = f"{bis_monat}$" if bis_monat else "9999$"
        queries = [_range_query(total_pk(tenant, area), low, high) for area in dict.fromkeys(areas)]
        pages = self._calls.query_many(queries)
        return merge_totals(total_from_item(item) for page in pages for item in page)

    def reminders(
        self, tenant: str, areas: Sequence[str], faellig_bis: date, limit: int
    ) -> list[LedgerView]:
        high = f"{faellig_bis.isoformat()}$"
        queries = [_range_query(due_pk(tenant, area), "0", high) for area in dict.fromkeys(areas)]
        pages = self._calls.query_many(queries, limit)
        records = [record_from_item(item) for page in pages for item in page]
        records.sort(key=lambda r: (r.faellig_am or date.max, r.id))
        return [LedgerView(record) for record in records[:limit]]


def _range_query(pk: str, low: str, high: str, *, newest_first: bool = False) -> Item:
    """A consistent Query of one partition, sort keys in [low, high]."""
    between = Key(SK).between(low, high)
    return query(pk, sort=between, ScanIndexForward=not newest_first, ConsistentRead=True)
