"""Ratings: one TransactWriteItems per rating, optimistic concurrency on the memory version.

Each rating writes, atomically: a guard item (insert_ID unique per tenant), the rating
record (in the memory's partition) and the memory's aggregate, conditioned on the memory
still having the version the computation started from and not being expired. A version
conflict re-reads the memory (from the cancellation reasons, else a consistent GetItem)
and retries with jittered backoff, at most `max_retries` times.

Ratings of different memories run in parallel (one stage); ratings of one memory in one
batch form a chain, applied in order, each starting from the state its predecessor wrote.
"""

from __future__ import annotations

import dataclasses
import logging
import uuid
from collections.abc import Mapping, Sequence
from decimal import Decimal
from functools import partial
from typing import Any

from shared.domain import (
    EntryFailure,
    EntryFailureCode,
    Memory,
    MemoryId,
    Rating,
    RatingOutcome,
)
from shared.storage.dynamo.calls import AWS_ERRORS, StorageUnavailable, TableCalls, error_code
from shared.storage.dynamo.items import (
    PK,
    RATING_SK_PREFIX,
    SK,
    Item,
    from_us,
    is_live,
    memory_key,
    memory_pk,
    n,
    rating_from_item,
    rating_items,
    s,
    to_us,
)
from shared.storage.dynamo.memory_items import memory_from_item

_log = logging.getLogger(__name__)

_GUARD, _RECORD, _MEMORY = 0, 1, 2
_CONDITION_FAILED = "ConditionalCheckFailed"
_TRANSACTION_CONFLICT = "TransactionConflict"

MemoryRef = tuple[str, MemoryId]


class _Conflict(Exception):
    """The memory changed (or another transaction held it): retry from `current`."""

    def __init__(self, current: Memory) -> None:
        super().__init__("version conflict")
        self.current = current


class _Failed(Exception):
    def __init__(self, failure: EntryFailure) -> None:
        super().__init__(failure.detail)
        self.failure = failure


class RatingWriter:
    def __init__(self, calls: TableCalls, max_retries: int) -> None:
        self._calls = calls
        self._max_retries = max_retries

    def record(
        self,
        ratings: Sequence[Rating],
        now_us: int,
        known: Mapping[MemoryId, Memory] | None,
    ) -> list[RatingOutcome | EntryFailure]:
        for rating in ratings:  # reject naive datetimes before anything is written
            to_us(rating.datum)
        chains: dict[MemoryRef, list[int]] = {}
        for index, rating in enumerate(ratings):
            chains.setdefault((rating.tenant, rating.memory_id), []).append(index)

        snapshots: dict[MemoryRef, Memory | None] = {}
        for ref in chains:
            snapshot = known.get(ref[1]) if known is not None else None
            if snapshot is not None and snapshot.tenant == ref[0]:
                snapshots[ref] = snapshot
        unreadable = self._read_missing(list(chains), snapshots)

        results: list[RatingOutcome | EntryFailure | None] = [None] * len(ratings)
        runnable: list[tuple[list[int], Memory | None]] = []
        for ref, indices in chains.items():
            if ref in unreadable:
                for index in indices:
                    results[index] = EntryFailure(EntryFailureCode.STORAGE, "memory unreadable")
            else:
                runnable.append((indices, snapshots.get(ref)))
        outcomes = self._calls.round_trips.run(
            [
                partial(self._chain, [ratings[i] for i in indices], snapshot, now_us)
                for indices, snapshot in runnable
            ]
        )
        for (indices, _), chain_results in zip(runnable, outcomes, strict=True):
            for index, result in zip(indices, chain_results, strict=True):
                results[index] = result
        done = [r for r in results if r is not None]
        assert len(done) == len(ratings)
        return done

    def _read_missing(
        self, refs: list[MemoryRef], snapshots: dict[MemoryRef, Memory | None]
    ) -> set[MemoryRef]:
        """Fill `snapshots` for the memories the caller did not know (one BatchGet stage);
        returns the refs that could not be read."""
        missing = [ref for ref in refs if ref not in snapshots]
        if not missing:
            return set()
        try:
            items = self._calls.batch_get([memory_key(tenant, mid) for tenant, mid in missing])
        except (*AWS_ERRORS, StorageUnavailable):
            _log.exception("record_ratings: reading %d memories failed", len(missing))
            return set(missing)
        found = {(m.tenant, m.id): m for m in map(memory_from_item, items)}
        for ref in missing:
            snapshots[ref] = found.get(ref)
        return set()

    def _chain(
        self, ratings: list[Rating], snapshot: Memory | None, now_us: int
    ) -> list[RatingOutcome | EntryFailure]:
        results: list[RatingOutcome | EntryFailure] = []
        current = snapshot
        for rating in ratings:
            try:
                outcome, current = self._rate(rating, current, now_us)
            except _Failed as failed:
                results.append(failed.failure)
            else:
                results.append(outcome)
        return results

    def _rate(
        self, rating: Rating, current: Memory | None, now_us: int
    ) -> tuple[RatingOutcome, Memory]:
        not_found = _Failed(EntryFailure(EntryFailureCode.NOT_FOUND, f"memory {rating.memory_id}"))
        if current is None or (
            current.expires_at is not None and to_us(current.expires_at) <= now_us
        ):
            raise not_found
        for attempt in range(self._max_retries + 1):
            if attempt:
                self._calls.backoff.wait(attempt)
            try:
                return self._attempt(rating, current, now_us)
            except _Conflict as conflict:
                current = conflict.current
        raise _Failed(
            EntryFailure(
                EntryFailureCode.CONFLICT,
                f"memory {rating.memory_id} kept changing ({self._max_retries} retries)",
            )
        )

    def _attempt(
        self, rating: Rating, current: Memory, now_us: int
    ) -> tuple[RatingOutcome, Memory]:
        score = Decimal(rating.score)
        count = current.score_count + 1
        total = Decimal(current.score_sum) + score
        datum_us = to_us(rating.datum)
        last_us = datum_us if current.last_call is None else max(to_us(current.last_call), datum_us)
        expires_us = None if current.expires_at is None else to_us(current.expires_at)
        guard, record = rating_items(rating, expires_us)
        pk_name = {"#pk": PK}
        update: dict[str, Any] = {
            "TableName": self._calls.table,
            "Key": memory_key(rating.tenant, rating.memory_id),
            "UpdateExpression": (
                "SET #count = :count, #sum = :sum, #avg = :avg, #last = :last, #version = :next"
            ),
            "ConditionExpression": (
                "attribute_exists(#pk) AND #version = :version"
                " AND (attribute_not_exists(#expires) OR #expires > :now)"
            ),
            "ExpressionAttributeNames": {
                **pk_name,
                "#count": "score_count",
                "#sum": "score_sum",
                "#avg": "score_avg",
                "#last": "last_call_us",
                "#version": "version",
                "#expires": "expires_us",
            },
            "ExpressionAttributeValues": {
                ":count": n(count),
                ":sum": n(total),
                ":avg": n(total / count),
                ":last": n(last_us),
                ":next": n(current.version + 1),
                ":version": n(current.version),
                ":now": n(now_us),
            },
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
        }
        new_only: dict[str, Any] = {
            "ConditionExpression": "attribute_not_exists(#pk)",
            "ExpressionAttributeNames": pk_name,
        }
        transact_items: list[Any] = [
            {"Put": {"TableName": self._calls.table, "Item": guard, **new_only}},
            {"Put": {"TableName": self._calls.table, "Item": record, **new_only}},
            {"Update": update},
        ]
        try:
            self._calls.client.transact_write_items(
                TransactItems=transact_items,
                # Idempotent if botocore resends after a lost response (same attempt only).
                ClientRequestToken=uuid.uuid4().hex,
            )
        except AWS_ERRORS as exc:
            raise self._classify(exc, rating, current, now_us) from exc
        written = dataclasses.replace(
            current,
            score_count=count,
            score_sum=total,
            last_call=from_us(last_us),
            version=current.version + 1,
        )
        outcome = RatingOutcome(
            insert_id=rating.insert_id,
            memory_id=rating.memory_id,
            score_count=count,
            score_avg=total / count,
            last_call=from_us(last_us),
        )
        return outcome, written

    def _classify(
        self, exc: BaseException, rating: Rating, current: Memory, now_us: int
    ) -> Exception:
        """What a failed transaction means: _Failed (final) or _Conflict (retry)."""
        if error_code(exc) != "TransactionCanceledException":
            _log.warning("rating %s: %s", rating.insert_id, exc)
            return _Failed(EntryFailure(EntryFailureCode.STORAGE, error_code(exc)))
        response: dict[str, Any] = getattr(exc, "response", {})
        reasons: list[dict[str, Any]] = list(response.get("CancellationReasons", []))
        codes = [str(reason.get("Code", "None")) for reason in reasons]
        codes += ["None"] * (3 - len(codes))
        if _CONDITION_FAILED in (codes[_GUARD], codes[_RECORD]):
            return _Failed(
                EntryFailure(EntryFailureCode.STORAGE, f"rating {rating.insert_id} exists")
            )
        if codes[_MEMORY] == _CONDITION_FAILED:
            item = reasons[_MEMORY].get("Item")
            try:
                if item is None:  # no ALL_OLD support, or the memory is gone
                    item = self._calls.get_item(memory_key(rating.tenant, rating.memory_id))
            except AWS_ERRORS as read_error:
                return _Failed(EntryFailure(EntryFailureCode.STORAGE, error_code(read_error)))
            if item is None or not is_live(item, now_us):
                return _Failed(EntryFailure(EntryFailureCode.NOT_FOUND, f"{rating.memory_id}"))
            return _Conflict(memory_from_item(item))
        if _TRANSACTION_CONFLICT in codes:  # another transaction held one of the items
            return _Conflict(current)
        _log.warning("rating %s: transaction cancelled: %s", rating.insert_id, codes)
        return _Failed(EntryFailure(EntryFailureCode.STORAGE, ",".join(codes)))

    def list(self, tenant: str, memory_id: MemoryId) -> list[Rating]:
        query: Item = {
            "KeyConditionExpression": "#pk = :pk AND begins_with(#sk, :prefix)",
            "ExpressionAttributeNames": {"#pk": PK, "#sk": SK},
            "ExpressionAttributeValues": {
                ":pk": s(memory_pk(tenant, memory_id)),
                ":prefix": s(RATING_SK_PREFIX),
            },
            "ConsistentRead": True,
        }
        (items,) = self._calls.query_many([query])
        return [rating_from_item(item) for item in items]
