"""Call records of the retry layer (shared/calls.py) and ID leases, on DynamoDB (item
layout, the claim's cases and the lease sizes: docs/dynamodb.md, "Retry-safe writes").

Invariants:
- A claim is one conditional PutItem (absent or past `until_us`), the old item back on
  failure; a takeover (RESUMED) is one UpdateItem conditional on the old token and running
  mark. Every later write of the record (IDs, marks, answer, drop) is conditional on the
  send's token.
- IDs are leased per (tenant, counter) in blocks (`IdLeases`): IDs a claim does not use go
  back to the lease; a container that ends leaves gaps, never an ID handed out twice. Only
  a lease too small for the claim costs a round trip before its PutItem; a low one is
  refilled beside it.
"""

from __future__ import annotations

import threading
from collections import defaultdict, deque
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import partial
from typing import Any, Final

from boto3.dynamodb.conditions import Attr, ConditionBase
from botocore.exceptions import ClientError

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
from shared.storage.dynamo.calls import AWS_ERRORS, CONDITION_FAILED_ERROR, TableCalls, error_code
from shared.storage.dynamo.items import (
    PK,
    TTL_ATTRIBUTE,
    Item,
    action,
    attributes,
    expression,
    get_n,
    get_s,
    own_key,
    ttl_seconds,
)
from shared.storage.values import to_us
from shared.validation.rules import MAX_BATCH

MARKED: Final = "marked"
LEASE_KEEP: Final = MAX_BATCH  # a warm lease holds a call's most IDs per counter
LEASE_BLOCK: Final = 128


def call_key(tenant: str, call: str) -> Item:
    return own_key(tenant, "CALL", call)


def _owned(token: str) -> ConditionBase:
    return Attr("token").eq(token)


def mark_action(marks: CallMarks, of: Sequence[tuple[str, MemoryId]]) -> Item | None:
    """The call record's Update (a TransactItem: the caller adds it to the transaction that
    removes the memories `of`, (tenant, ID) of one tenant) recording their marks;
    conditioned on the send still owning the record."""
    wanted = {marks.marks[memory_id] for _, memory_id in of if memory_id in marks.marks}
    if not wanted:
        return None
    update = expression(_owned(marks.token), add={MARKED: wanted})
    return action("Update", Key=call_key(of[0][0], marks.key), **update)


class IdLeases:
    """Blocks of IDs per (tenant, counter), taken from the counter and handed out locally."""

    def __init__(self, calls: TableCalls) -> None:
        self._calls = calls
        self._free: defaultdict[tuple[str, CounterName], deque[int]] = defaultdict(deque)
        self._lock = threading.Lock()

    def take(self, tenant: str, counts: Mapping[CounterName, int]) -> dict[CounterName, list[int]]:
        """`counts` IDs per counter from the lease; a lease too small for its count first
        waits for one counter step (the only round trip before a claim's PutItem)."""
        taken: dict[CounterName, list[int]] = {}
        for counter, count in counts.items():
            if len(self._free[tenant, counter]) < count:
                self.refill(tenant, counter, at_least=count)
            with self._lock:
                free = self._free[tenant, counter]
                if len(free) < count:
                    raise CallRecordsUnavailable("ID lease exhausted by concurrent claims")
                taken[counter] = [free.popleft() for _ in range(count)]
        return taken

    def give_back(self, tenant: str, taken: Mapping[CounterName, Sequence[int]]) -> None:
        """IDs taken but never written anywhere: the lease hands them out again."""
        with self._lock:
            for counter, ids in taken.items():
                self._free[tenant, counter].extendleft(sorted(ids, reverse=True))

    def low(self, tenant: str, counter: CounterName) -> bool:
        with self._lock:
            return len(self._free[tenant, counter]) < LEASE_KEEP

    def refill(self, tenant: str, counter: CounterName, at_least: int = 0) -> None:
        """One counter step: a block added to the lease (a claim waiting for it: what it
        needs plus a batch, so that the next claim does not wait)."""
        block = max(LEASE_BLOCK, at_least + LEASE_KEEP if at_least else 0)
        fresh = self._calls.reserve_ids(tenant, counter, block)
        with self._lock:
            self._free[tenant, counter].extend(fresh)


class CallRecords:
    def __init__(self, calls: TableCalls, leases: IdLeases) -> None:
        self._calls = calls
        self._leases = leases

    def _write(
        self,
        verb: str,
        condition: ConditionBase,
        *,
        put: Mapping[str, Any] | None = None,
        remove: Sequence[str] = (),
        **request: Any,
    ) -> Item | None:
        """One write of a call record conditioned on `condition` (`put`/`remove`: the
        update): None, or on the condition's failure the item it met (`ALL_OLD`); any other
        error raised."""
        built = expression(condition, put=put, remove=remove)
        built["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
        try:
            getattr(self._calls.client, verb)(TableName=self._calls.table, **request, **built)
        except ClientError as exc:
            if error_code(exc) != CONDITION_FAILED_ERROR:
                raise
            response: Mapping[str, Any] = exc.response
            return dict(response.get("Item") or {})
        return None

    def claim(self, claim: CallClaim) -> CallRecord:
        try:
            return self._claim(claim)
        except AWS_ERRORS as exc:
            raise CallRecordsUnavailable(error_code(exc)) from exc

    def _claim(self, claim: CallClaim) -> CallRecord:
        tenant, now_us = claim.tenant, to_us(claim.now)
        taken = self._leases.take(tenant, missing({}, claim.wants))
        ids = merge_ids({}, claim.wants, taken)
        until_us = to_us(claim.expires_at)
        fields = {
            "body": claim.body,
            "token": claim.token,
            "ids": ids_to_json(ids),
            "running_us": to_us(claim.running_until),
            "until_us": until_us,
            TTL_ATTRIBUTE: ttl_seconds(until_us),
        }
        item = {**call_key(tenant, claim.key), **attributes(fields)}
        low = [c for c, wanted in claim.wants.items() if wanted and self._leases.low(tenant, c)]
        vacant = Attr(PK).not_exists() | Attr("until_us").lt(now_us)
        put = partial(self._write, "put_item", vacant, Item=item)
        refills = [partial(self._leases.refill, tenant, c) for c in low]  # they return None
        tasks: list[Callable[[], Item | None]] = [put, *refills]
        old = self._calls.round_trips.side_by_side(tasks)[0]  # the record that refused it
        if old is None:
            return CallRecord(CallState.NEW, claim.token, claim.body, ids)
        return self._existing(claim, old, taken)

    def _existing(
        self, claim: CallClaim, old: Item, taken: dict[CounterName, list[int]]
    ) -> CallRecord:
        """What the record that refused the claim (ALL_OLD: the condition failed on it, so it
        is there) means for it. The IDs taken for the new record go back to the lease (a
        takeover keeps the record's; entries it lacks get theirs from `reserve_ids`)."""
        self._leases.give_back(claim.tenant, taken)
        token, body = get_s(old, "token"), get_s(old, "body")
        known = ids_from_json(get_s(old, "ids"))
        marks = frozenset(old.get(MARKED, {}).get("SS", []))
        if "answer" in old:
            return CallRecord(CallState.DONE, token, body, known, marks, get_s(old, "answer"))
        running = get_n(old, "running_us")
        took_over = _owned(token) & Attr("running_us").eq(running)
        update = {"running_us": to_us(claim.running_until)}
        key = call_key(claim.tenant, claim.key)
        ran_out = body == claim.body and running < to_us(claim.now)  # the same call, cut off
        if ran_out and self._write("update_item", took_over, put=update, Key=key) is None:
            return CallRecord(CallState.RESUMED, token, body, known, marks)
        return CallRecord(CallState.RUNNING, token, body, known, marks)  # or taken over first

    def reserve_ids(
        self, tenant: str, call: str, token: str, wants: Mapping[CounterName, Sequence[int]]
    ) -> dict[CounterName, dict[int, int]]:
        """IDs for wanted entries the claim did not reserve: from the lease, recorded with
        one UpdateItem conditional on the token (rare: claims reserve what they want)."""
        key = call_key(tenant, call)
        try:
            item = self._calls.get_item(key)
            if item is None or get_s(item, "token") != token:
                raise CallRecordsUnavailable("call record taken over or gone")
            known = ids_from_json(get_s(item, "ids"))
            merged = merge_ids(known, wants, self._leases.take(tenant, missing(known, wants)))
            put = {"ids": ids_to_json(merged)}
            if self._write("update_item", _owned(token), put=put, Key=key) is not None:
                raise CallRecordsUnavailable("call record taken over")
        except AWS_ERRORS as exc:
            raise CallRecordsUnavailable(error_code(exc)) from exc
        return merged

    def finish(self, tenant: str, key: str, token: str, answer: str, expires_at: datetime) -> bool:
        """The answer recorded, side by side with the call's deferred cleanup (calls.py);
        False when another send owns the record now."""
        until_us = to_us(expires_at)
        answered = {"answer": answer, "until_us": until_us, TTL_ATTRIBUTE: ttl_seconds(until_us)}
        record = call_key(tenant, key)
        owned = _owned(token)
        return self._settle("update_item", owned, put=answered, remove=["running_us"], Key=record)

    def drop(self, tenant: str, call: str, token: str) -> None:
        """The record deleted (an answer that stored nothing), if this send still owns it."""
        self._settle("delete_item", _owned(token), Key=call_key(tenant, call))

    def _settle(self, verb: str, condition: ConditionBase, **write: Any) -> bool:
        """The record's last write (`_write`), side by side with the call's deferred
        cleanup: whether its condition held."""
        tasks: list[Callable[[], object]] = [partial(self._write, verb, condition, **write)]
        tasks += self._calls.take_deferred()
        try:
            return self._calls.round_trips.side_by_side(tasks)[0] is None
        except AWS_ERRORS as exc:
            raise CallRecordsUnavailable(error_code(exc)) from exc
