"""IDs reserved per entry of a keyed write (`reserve_entry_ids`).

Reservation item: pk `T#<t>#IDEM#<write key>`, sk `RES#<counter>`; `entries` is a JSON map
{index: [fingerprint, id]}, `rev` an optimistic revision, `expires_at` the TTL (the
idempotency window). The fresh path is two sequential round trips: the counter step
(UpdateItem ADD, as `reserve_ids`) and a PutItem conditional on the item being absent
or expired. If that condition fails, the old item comes back (ALL_OLD): entries it holds
with the same fingerprint get their old IDs back (`reused`), the rest take IDs from the
range just reserved (unused ones stay gaps: IDs are never handed out twice), and the
merged map is written conditional on the old revision (retried on a race).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from botocore.exceptions import ClientError

from shared.domain import CounterName, ReservedId
from shared.storage.dynamo.calls import error_code
from shared.storage.dynamo.items import (
    TTL_ATTRIBUTE,
    Item,
    get_n,
    get_s,
    key,
    n,
    part,
    s,
    tenant_prefix,
    to_us,
    ttl_seconds,
)

_CONDITION_FAILED = "ConditionalCheckFailedException"
_MAX_RACES = 5


def reservation_key(tenant: str, write_key: str, counter: CounterName) -> Item:
    return key(
        f"{tenant_prefix(tenant)}#IDEM#{part(write_key)}", f"RES#{CounterName(counter).value}"
    )


class EntryReservations:
    def __init__(self, client: Any, table: str) -> None:
        self._client = client
        self._table = table

    def reserve(
        self,
        fresh_range: range,
        tenant: str,
        counter: CounterName,
        write_key: str,
        fingerprints: Sequence[tuple[int, str]],
        expires_at: datetime,
    ) -> dict[int, ReservedId]:
        item_key = reservation_key(tenant, write_key, counter)
        ttl = ttl_seconds(to_us(expires_at))
        numbers = dict(zip((index for index, _ in fingerprints), fresh_range, strict=True))
        entries: dict[str, list[Any]] = {
            str(index): [fingerprint, numbers[index]] for index, fingerprint in fingerprints
        }
        condition = "attribute_not_exists(pk) OR #ttl < :now"
        names = {"#ttl": TTL_ATTRIBUTE}
        values: Item = {":now": n(int(time.time()))}
        revision = 0
        for _ in range(_MAX_RACES):
            item = {
                **item_key,
                "entries": s(json.dumps(entries, separators=(",", ":"))),
                "rev": n(revision + 1),
                TTL_ATTRIBUTE: n(ttl),
            }
            try:
                self._client.put_item(
                    TableName=self._table,
                    Item=item,
                    ConditionExpression=condition,
                    ExpressionAttributeNames=names,
                    ExpressionAttributeValues=values,
                    ReturnValuesOnConditionCheckFailure="ALL_OLD",
                )
            except ClientError as exc:
                if error_code(exc) != _CONDITION_FAILED:
                    raise
                response: Any = exc.response
                old: Item = response.get("Item") or {}
                if not old:  # deleted in between: try as new once more
                    continue
                revision = get_n(old, "rev")
                known = json.loads(get_s(old, "entries"))
                merged = dict(known)
                for index, fingerprint in fingerprints:
                    previous = known.get(str(index))
                    if previous is not None and previous[0] == fingerprint:
                        continue
                    merged[str(index)] = [fingerprint, numbers[index]]
                entries = merged
                condition, names, values = "#rev = :rev", {"#rev": "rev"}, {":rev": n(revision)}
                continue
            return {
                index: ReservedId(
                    int(entries[str(index)][1]),
                    reused=int(entries[str(index)][1]) != numbers[index],
                )
                for index, _ in fingerprints
            }
        raise RuntimeError("reservation kept changing under concurrent sends")


def marks_key(tenant: str, write_key: str) -> Item:
    return key(f"{tenant_prefix(tenant)}#IDEM#{part(write_key)}", "MARKS")


class WriteMarks:
    """`mark_write`: item `T#<t>#IDEM#<write key>` / `MARKS` with `marks` (SS) and the TTL
    (the idempotency window). One UpdateItem `ADD marks` returns the marks an earlier send
    left (ALL_OLD); an item whose TTL passed (DynamoDB deletes it late) counts as absent and
    is overwritten with this send's marks (one PutItem more)."""

    def __init__(self, client: Any, table: str) -> None:
        self._client = client
        self._table = table

    def mark(
        self, tenant: str, write_key: str, marks: Sequence[str], expires_at: datetime
    ) -> frozenset[str]:
        item_key = marks_key(tenant, write_key)
        ttl = n(ttl_seconds(to_us(expires_at)))
        now = int(time.time())
        if not marks:
            found = self._client.get_item(TableName=self._table, Key=item_key, ConsistentRead=True)
            return _live_marks(found.get("Item") or {}, now)
        response = self._client.update_item(
            TableName=self._table,
            Key=item_key,
            UpdateExpression="ADD #marks :marks SET #ttl = :ttl",
            ExpressionAttributeNames={"#marks": "marks", "#ttl": TTL_ATTRIBUTE},
            ExpressionAttributeValues={":marks": {"SS": sorted(set(marks))}, ":ttl": ttl},
            ReturnValues="ALL_OLD",
        )
        old: Item = response.get("Attributes") or {}
        if old and get_n(old, TTL_ATTRIBUTE) < now:  # expired: this send starts afresh
            self._client.put_item(
                TableName=self._table,
                Item={**item_key, "marks": {"SS": sorted(set(marks))}, TTL_ATTRIBUTE: ttl},
            )
            return frozenset()
        return _live_marks(old, now)


def _live_marks(item: Item, now: int) -> frozenset[str]:
    if not item or get_n(item, TTL_ATTRIBUTE) < now:
        return frozenset()
    return frozenset(item.get("marks", {}).get("SS", []))
