"""Call records of the retry layer (shared/calls.py) and ID leases, on DynamoDB.

Call record: pk `T#<t>#CALL#<key>`, sk `CALL`; `body`, `token`, `ids` (JSON
{counter: {index: id}}), `marked` (string set: what a delete removed, ADDed in the
transaction that removes it, `mark_action`), `running_us` while it
runs, `answer` once answered, `until_us` (end of the window, exact) and the TTL attribute
(DynamoDB deletes late: `until_us` decides).

- A claim is one conditional PutItem (absent or past its window), the old item back on
  failure (ReturnValuesOnConditionCheckFailure): DONE or RUNNING cost nothing more; a
  takeover (RESUMED) is one UpdateItem conditional on the old token and mark. The IDs the
  record holds come from the lease (below), so a claim needs no counter step of its own.
- IDs are leased per (tenant, counter) in blocks (`IdLeases`): one counter UpdateItem
  (`ADD`) hands a container a range; IDs it does not use again (a claim that found DONE or
  RUNNING) go back to its lease. A container that ends leaves the rest of its lease
  unused: gaps (at most `LEASE_KEEP + LEASE_BLOCK` per tenant, counter and container),
  never an ID handed out twice. A claim that leaves its lease below `LEASE_KEEP` (one
  whole batch, `rules.MAX_BATCH`) fetches the next block side by side with its PutItem, so
  the next claim of a warm container never waits for the counter; only a lease too small
  for the claim itself (the first claim of a tenant's counter in a container) costs one
  round trip before it, and takes a batch more than it needs.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Final

from shared.calls import (
    CallClaim,
    CallMarks,
    CallRecord,
    CallRecordsUnavailable,
    CallState,
    ids_from_json,
    ids_to_json,
    merge_ids,
    missing,
)
from shared.domain import CounterName, MemoryId
from shared.storage.dynamo.calls import AWS_ERRORS, counter_range, error_code, take_deferred
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
from shared.validation.rules import MAX_BATCH

_CONDITION_FAILED: Final = "ConditionalCheckFailedException"
_MAX_RACES: Final = 5
MARKED: Final = "marked"
# A warm lease holds at least one whole batch (a call's most IDs per counter); a refill
# fetches a block, or what the claim waiting for it needs plus a batch.
LEASE_KEEP: Final = MAX_BATCH
LEASE_BLOCK: Final = 128


def call_key(tenant: str, call: str) -> Item:
    return key(f"{tenant_prefix(tenant)}#CALL#{part(call)}", "CALL")


def _ids_of(item: Item) -> dict[CounterName, dict[int, int]]:
    return ids_from_json(get_s(item, "ids"))


def _marks_of(item: Item) -> frozenset[str]:
    return frozenset(item.get(MARKED, {}).get("SS", []))


def mark_action(tenant: str, marks: CallMarks, of: Sequence[MemoryId]) -> Item | None:
    """The call record's Update (a TransactItem: the caller adds it to the transaction that
    removes `of`) recording their marks; conditioned on the send still owning the record."""
    wanted = sorted({marks.marks[memory_id] for memory_id in of if memory_id in marks.marks})
    if not wanted:
        return None
    return {
        "Update": {
            "TableName": "",
            "Key": call_key(tenant, marks.key),
            "UpdateExpression": "ADD #marked :marked",
            "ConditionExpression": "#token = :token",
            "ExpressionAttributeNames": {"#marked": MARKED, "#token": "token"},
            "ExpressionAttributeValues": {":marked": {"SS": wanted}, ":token": s(marks.token)},
        }
    }


class IdLeases:
    """Blocks of IDs per (tenant, counter), taken from the counter and handed out locally."""

    def __init__(self, client: Any, table: str) -> None:
        self._client = client
        self._table = table
        self._free: dict[tuple[str, CounterName], deque[int]] = {}
        self._lock = threading.Lock()

    def take(self, tenant: str, counter: CounterName, count: int) -> list[int] | None:
        """`count` IDs from the lease, or None (nothing taken) when it holds fewer."""
        with self._lock:
            free = self._free.setdefault((tenant, counter), deque())
            if len(free) < count:
                return None
            return [free.popleft() for _ in range(count)]

    def give_back(self, tenant: str, counter: CounterName, ids: Sequence[int]) -> None:
        """IDs taken but never written anywhere: the lease hands them out again."""
        with self._lock:
            self._free.setdefault((tenant, counter), deque()).extendleft(sorted(ids, reverse=True))

    def low(self, tenant: str, counter: CounterName) -> bool:
        with self._lock:
            return len(self._free.get((tenant, counter), ())) < LEASE_KEEP

    def refill(self, tenant: str, counter: CounterName, at_least: int = 0) -> None:
        """One counter step: a block added to the lease (a claim waiting for it: what it
        needs plus a batch, so that the next claim does not wait)."""
        block = max(LEASE_BLOCK, at_least + LEASE_KEEP if at_least else 0)
        fresh = counter_range(self._client, self._table, tenant, counter, block)
        with self._lock:
            self._free.setdefault((tenant, counter), deque()).extend(fresh)


class CallRecords:
    def __init__(
        self,
        client: Any,
        table: str,
        leases: IdLeases,
        side_by_side: Callable[[Sequence[Callable[[], Any]]], list[Any]],
    ) -> None:
        self._client = client
        self._table = table
        self._leases = leases
        self._side_by_side = side_by_side

    def claim(self, claim: CallClaim) -> CallRecord:
        try:
            return self._claim(claim)
        except AWS_ERRORS as exc:
            raise CallRecordsUnavailable(error_code(exc)) from exc

    def _take(self, tenant: str, counts: Mapping[CounterName, int]) -> dict[CounterName, list[int]]:
        taken: dict[CounterName, list[int]] = {}
        for counter, count in counts.items():
            ids = self._leases.take(tenant, counter, count)
            if ids is None:  # the lease is too small for this claim: one step before it
                self._leases.refill(tenant, counter, at_least=count)
                ids = self._leases.take(tenant, counter, count)
            if ids is None:
                raise CallRecordsUnavailable("ID lease exhausted by concurrent claims")
            taken[counter] = ids
        return taken

    def _give_back(self, tenant: str, taken: Mapping[CounterName, Sequence[int]]) -> None:
        for counter, ids in taken.items():
            if ids:
                self._leases.give_back(tenant, counter, ids)

    def _claim(self, claim: CallClaim) -> CallRecord:
        tenant, now_us = claim.tenant, to_us(claim.now)
        taken = self._take(tenant, missing({}, claim.wants))
        ids = merge_ids({}, claim.wants, taken)
        item = {
            **call_key(tenant, claim.key),
            "body": s(claim.body),
            "token": s(claim.token),
            "ids": s(ids_to_json(ids)),
            "running_us": n(to_us(claim.running_until)),
            "until_us": n(to_us(claim.expires_at)),
            TTL_ATTRIBUTE: n(ttl_seconds(to_us(claim.expires_at))),
        }
        low = [c for c, wanted in claim.wants.items() if wanted and self._leases.low(tenant, c)]
        put = lambda: self._put_new(item, now_us)  # noqa: E731
        refills = [lambda c=c: self._leases.refill(tenant, c) for c in low]
        old = self._side_by_side([put, *refills])[0]
        if old is None:
            return CallRecord(CallState.NEW, claim.token, claim.body, ids)
        for _ in range(_MAX_RACES):
            record = self._existing(claim, old, taken)
            if record is not None:
                return record
            old = self._put_new(item, now_us)  # taken over or deleted in between: again
            if old is None:
                return CallRecord(CallState.NEW, claim.token, claim.body, ids)
        raise CallRecordsUnavailable("call record kept changing under concurrent sends")

    def _put_new(self, item: Item, now_us: int) -> Item | None:
        """The new record, or the existing one that stopped it."""
        try:
            self._client.put_item(
                TableName=self._table,
                Item=item,
                ConditionExpression="attribute_not_exists(pk) OR until_us < :now",
                ExpressionAttributeValues={":now": n(now_us)},
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AWS_ERRORS as exc:
            if error_code(exc) != _CONDITION_FAILED:
                raise
            response: Any = getattr(exc, "response", {})
            return dict(response.get("Item") or {"missing": {"NULL": True}})
        return None

    def _existing(
        self, claim: CallClaim, old: Item, taken: dict[CounterName, list[int]]
    ) -> CallRecord | None:
        """What an existing record means for this claim; None: try to create it again."""
        if "token" not in old:  # gone between the condition and its answer
            return None
        token, body = get_s(old, "token"), get_s(old, "body")
        known, marks = _ids_of(old), _marks_of(old)
        if "answer" in old:
            self._give_back(claim.tenant, taken)
            return CallRecord(CallState.DONE, token, body, known, marks, get_s(old, "answer"))
        running = get_n(old, "running_us")
        if body != claim.body or running >= to_us(claim.now):
            self._give_back(claim.tenant, taken)
            return CallRecord(CallState.RUNNING, token, body, known, marks)
        merged = merge_ids(known, claim.wants, taken)
        used = {c: set(m.values()) for c, m in merged.items()}
        self._give_back(
            claim.tenant,
            {c: [i for i in ids if i not in used.get(c, set())] for c, ids in taken.items()},
        )
        try:
            self._client.update_item(
                TableName=self._table,
                Key=call_key(claim.tenant, claim.key),
                UpdateExpression="SET running_us = :until, ids = :ids",
                ConditionExpression="#token = :token AND running_us = :running",
                ExpressionAttributeNames={"#token": "token"},
                ExpressionAttributeValues={
                    ":until": n(to_us(claim.running_until)),
                    ":ids": s(ids_to_json(merged)),
                    ":token": s(token),
                    ":running": n(running),
                },
            )
        except AWS_ERRORS as exc:
            if error_code(exc) != _CONDITION_FAILED:
                raise
            return CallRecord(CallState.RUNNING, token, body, known, marks)  # another took it
        return CallRecord(CallState.RESUMED, token, body, merged, marks)

    def reserve_ids(
        self, tenant: str, call: str, token: str, wants: Mapping[CounterName, Sequence[int]]
    ) -> dict[CounterName, dict[int, int]]:
        """IDs for wanted entries the claim did not reserve: from the lease, recorded with
        one UpdateItem conditional on the token (rare: claims reserve what they want)."""
        try:
            item = self._client.get_item(
                TableName=self._table, Key=call_key(tenant, call), ConsistentRead=True
            ).get("Item")
            if item is None or get_s(item, "token") != token:
                raise CallRecordsUnavailable("call record taken over or gone")
            known = _ids_of(item)
            merged = merge_ids(known, wants, self._take(tenant, missing(known, wants)))
            self._client.update_item(
                TableName=self._table,
                Key=call_key(tenant, call),
                UpdateExpression="SET ids = :ids",
                ConditionExpression="#token = :token",
                ExpressionAttributeNames={"#token": "token"},
                ExpressionAttributeValues={":ids": s(ids_to_json(merged)), ":token": s(token)},
            )
        except AWS_ERRORS as exc:
            raise CallRecordsUnavailable(error_code(exc)) from exc
        return merged

    def finish(self, tenant: str, call: str, token: str, answer: str, until_us: int) -> bool:
        """The answer recorded, side by side with the call's deferred cleanup (calls.py)."""
        task = partial(self._finish, tenant, call, token, answer, until_us)
        return bool(self._side_by_side([task, *take_deferred()])[0])

    def _finish(self, tenant: str, call: str, token: str, answer: str, until_us: int) -> bool:
        try:
            self._client.update_item(
                TableName=self._table,
                Key=call_key(tenant, call),
                UpdateExpression="SET answer = :answer, until_us = :until, #ttl = :ttl"
                " REMOVE running_us",
                ConditionExpression="#token = :token",
                ExpressionAttributeNames={"#token": "token", "#ttl": TTL_ATTRIBUTE},
                ExpressionAttributeValues={
                    ":answer": s(answer),
                    ":until": n(until_us),
                    ":ttl": n(ttl_seconds(until_us)),
                    ":token": s(token),
                },
            )
        except AWS_ERRORS as exc:
            if error_code(exc) == _CONDITION_FAILED:
                return False
            raise CallRecordsUnavailable(error_code(exc)) from exc
        return True

    def drop(self, tenant: str, call: str, token: str) -> None:
        self._side_by_side([partial(self._drop, tenant, call, token), *take_deferred()])

    def _drop(self, tenant: str, call: str, token: str) -> None:
        try:
            self._client.delete_item(
                TableName=self._table,
                Key=call_key(tenant, call),
                ConditionExpression="#token = :token",
                ExpressionAttributeNames={"#token": "token"},
                ExpressionAttributeValues={":token": s(token)},
            )
        except AWS_ERRORS as exc:
            if error_code(exc) != _CONDITION_FAILED:
                raise CallRecordsUnavailable(error_code(exc)) from exc
