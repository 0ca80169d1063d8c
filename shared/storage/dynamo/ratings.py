"""Ratings: counts and sums added atomically, no version retry (docs/dynamodb.md, "Ratings").

Invariants:
- A rating is never written without its aggregate and vice versa: guard (insert_ID unique
  per tenant), record (in the memory's partition) and `ADD score_count, score_sum, version`
  on the memory are one TransactWriteItems, conditioned only on the memory existing and not
  being expired, so concurrent ratings of one memory never refuse each other. The average
  is derived on read; `last_call_us` only moves forward ("absent or older").
- Ratings of one memory in one call apply in order, at most 49 per transaction (DynamoDB's
  100 actions); different memories side by side (one stage). Only a `TransactionConflict`
  is retried (backoff, at most `max_retries` times).
- Each outcome is the aggregate this call knew plus its ratings up to this one: exact
  without concurrent writers; with them, every acknowledged rating is added exactly once.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from decimal import Decimal
from typing import Final

from boto3.dynamodb.conditions import Attr

from shared.domain import EntryFailure, EntryFailureCode, Memory, MemoryId, Rating, RatingOutcome
from shared.storage.dynamo.calls import (
    AWS_ERRORS,
    CONDITION_FAILED,
    TRANSACTION_CONFLICT,
    StorageUnavailable,
    TableCalls,
    cancel_reasons,
    error_code,
    run_chains,
)
from shared.storage.dynamo.items import (
    PK,
    RATING,
    RATING_SK_PREFIX,
    Item,
    action,
    expression,
    is_live,
    memory_key,
    memory_pk,
    query,
    rating_items,
    unexpired,
)
from shared.storage.dynamo.memory_items import memory_from_item
from shared.storage.values import opt_us, to_us

_log = logging.getLogger(__name__)

RATINGS_PER_TRANSACTION: Final = 49

MemoryRef = tuple[str, MemoryId]
Result = RatingOutcome | EntryFailure


def _gone(memory_id: MemoryId) -> EntryFailure:
    return EntryFailure(EntryFailureCode.NOT_FOUND, f"memory {memory_id}")


def _plus(base: Memory, rating: Rating) -> tuple[Memory, RatingOutcome]:
    """The aggregate `base` (as this call knows it) with `rating` added, and its outcome."""
    last = rating.datum if base.last_call is None else max(base.last_call, rating.datum)
    count = base.score_count + 1
    total = base.score_sum + Decimal(rating.score)
    outcome = RatingOutcome(rating.insert_id, rating.memory_id, count, total / count, last)
    return replace(base, score_count=count, score_sum=total, last_call=last), outcome


class RatingWriter:
    def __init__(self, calls: TableCalls, max_retries: int) -> None:
        self._calls = calls
        self._max_retries = max_retries

    def record(
        self,
        ratings: Sequence[Rating],
        now: datetime,
        known: Mapping[MemoryId, Memory] | None = None,
    ) -> list[Result]:
        now_us = to_us(now)
        for rating in ratings:  # reject naive datetimes before anything is written
            to_us(rating.datum)
        refs = list(dict.fromkeys((rating.tenant, rating.memory_id) for rating in ratings))
        bases: dict[MemoryRef, Memory | EntryFailure] = {
            ref: memory
            for ref in refs
            if (memory := (known or {}).get(ref[1])) is not None and memory.tenant == ref[0]
        }
        bases |= self._read([ref for ref in refs if ref not in bases])  # none: no call
        return run_chains(
            self._calls.round_trips,
            ratings,
            lambda _index, rating: (rating.tenant, rating.memory_id),
            lambda ref, group: self._chain(group, bases[ref], now_us),
        )

    def _read(self, refs: list[MemoryRef]) -> dict[MemoryRef, Memory | EntryFailure]:
        """The memories the caller did not know (one BatchGet stage), or why not."""
        try:
            items = self._calls.batch_get([memory_key(tenant, mid) for tenant, mid in refs])
        except (*AWS_ERRORS, StorageUnavailable):
            _log.exception("record_ratings: reading %d memories failed", len(refs))
            return dict.fromkeys(refs, EntryFailure(EntryFailureCode.STORAGE, "memory unreadable"))
        found = {(m.tenant, m.id): m for m in map(memory_from_item, items)}
        return {ref: found.get(ref) or _gone(ref[1]) for ref in refs}

    def _chain(
        self, ratings: list[Rating], base: Memory | EntryFailure, now_us: int
    ) -> list[Result]:
        """One memory's ratings, in order, in transactions of at most 49 (a repeated
        insert_ID starts a new one: one transaction cannot hold one guard twice)."""
        if isinstance(base, EntryFailure):  # an expired one: refused by the transaction
            return [base] * len(ratings)
        groups: list[list[Rating]] = [[]]
        for rating in ratings:
            ids = [r.insert_id for r in groups[-1]]
            if len(ids) == RATINGS_PER_TRANSACTION or rating.insert_id in ids:
                groups.append([])
            groups[-1].append(rating)
        results: list[Result] = []
        for group in groups:
            done, base = self._group(group, base, now_us)
            results += done
        return results

    def _group(
        self, ratings: list[Rating], base: Memory, now_us: int
    ) -> tuple[list[Result], Memory]:
        """Write one group: its results in order, and the base for the next group. Each
        refused pass drops the ratings whose insert_ID is taken, learns the stored
        aggregate (`ALL_OLD`) or counts a conflict (backoff, at most `max_retries`)."""
        results: dict[int, Result] = {}
        pending = list(range(len(ratings)))
        failure = EntryFailure(EntryFailureCode.STORAGE, "rating not written")
        conflicts = 0
        for _pass in range(len(ratings) + self._max_retries + 2):
            if not pending:
                break
            batch = [ratings[i] for i in pending]
            try:
                self._calls.transact(self._actions(batch, base, now_us))
            except AWS_ERRORS as exc:  # an error that cancelled nothing: its code, one reason
                reasons = cancel_reasons(exc, 2 * len(batch) + 1) or [{"Code": error_code(exc)}]
                codes = [str(reason.get("Code")) for reason in reasons]
                stored = reasons[-1].get("Item") if codes[-1] == CONDITION_FAILED else None
                if codes[-1] == CONDITION_FAILED and not (stored and is_live(stored, now_us)):
                    failure = _gone(batch[0].memory_id)  # ALL_OLD: none if gone
                    break
                taken = [pending[i // 2] for i, c in enumerate(codes[:-1]) if c == CONDITION_FAILED]
                conflict = TRANSACTION_CONFLICT in codes
                if not (taken or stored or conflict):
                    _log.warning("rating %s: transaction failed: %s", batch[0].insert_id, codes)
                    failure = EntryFailure(EntryFailureCode.STORAGE, ",".join(sorted(set(codes))))
                    break
                for i in taken:
                    detail = f"rating {ratings[i].insert_id} exists"
                    results[i] = EntryFailure(EntryFailureCode.STORAGE, detail)
                pending = [i for i in pending if i not in taken]
                base = memory_from_item(stored) if stored else base  # a newer last_call_us
                conflicts += conflict
                if conflicts > self._max_retries:
                    detail = f"memory {ratings[0].memory_id} busy ({self._max_retries} retries)"
                    failure = EntryFailure(EntryFailureCode.CONFLICT, detail)
                    break
                if conflict:
                    self._calls.wait(conflicts)
                continue
            for i in pending:
                base, results[i] = _plus(base, ratings[i])
            pending = []
        results.update(dict.fromkeys(pending, failure))
        return [results[i] for i in range(len(ratings))], base

    def _actions(self, batch: list[Rating], base: Memory, now_us: int) -> list[Item]:
        """The group's transaction; `last_call_us` moves to the newest datum only if it is
        newer than the known one, conditioned on the stored one being older."""
        actions = [
            action("Put", Attr(PK).not_exists(), Item=item)
            for rating in batch
            for item in rating_items(rating, opt_us(base.expires_at))
        ]
        total = sum((Decimal(r.score) for r in batch), Decimal(0))
        added = {"score_count": len(batch), "score_sum": total, "version": len(batch)}
        condition = Attr(PK).exists() & unexpired(now_us)
        newest = max(to_us(rating.datum) for rating in batch)
        moved: dict[str, int] = {}
        if (known := opt_us(base.last_call)) is None or newest > known:
            condition &= Attr("last_call_us").not_exists() | Attr("last_call_us").lt(newest)
            moved["last_call_us"] = newest
        update = expression(condition, add=added, put=moved)
        key = memory_key(batch[0].tenant, batch[0].memory_id)
        return [*actions, action("Update", all_old=True, Key=key, **update)]

    def list(self, tenant: str, memory_id: MemoryId) -> list[Rating]:
        partition = memory_pk(tenant, memory_id)
        ratings = query(partition, begins=RATING_SK_PREFIX, ConsistentRead=True)
        (items,) = self._calls.query_many([ratings])
        return [RATING.read(item) for item in items]
