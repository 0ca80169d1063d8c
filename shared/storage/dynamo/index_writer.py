"""The one index writer of the adapter: an owner (a memory's index record with its item,
a brain entry) and the stats shard that counts it change together, its postings diff runs
beside (docs/dynamodb.md, "One index mechanism for entries and memories").

An owner gives its old version (what its item or record says is indexed; none on insert)
and its new one (none on delete); from the two it makes a `Count` (its conditioned
actions, the stats change) and the postings requests (deletes of old keys the new version
lacks, puts of the new one's). `write_index` runs one stage of them: per stats shard one
TransactWriteItems beside the BatchWriteItem of the postings.

Invariants:
- **Counted == stored.** A stats shard (memory `MSTATS`, brain `STATS`) changes only in the
  transaction of what it counts, as one `ADD` of the changes of the owners grouped on it
  (≤ 99 actions, ≤ 3 MB; a fresh `ClientRequestToken` per attempt, so botocore's resend of
  a timed-out attempt applies once). A refused owner drops out (`REFUSED`, with the item
  its condition met) and the rest is sent again; a conflict with another transaction is
  retried after a backoff; an error leaves the rest `FAILED`.
- **The owner names every posting it may have** while its diff is not known complete (a
  memory record's `stale`, a brain entry's tf-0 marks), so the diff can run beside the
  transaction, the marks are cleared beside the call's answer, and the repair of any cut
  is the resend: the same diff from what the owner says is indexed.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from typing import Any, Final

from shared.storage.dynamo.calls import (
    AWS_ERRORS,
    CONDITION_FAILED,
    TRANSACTION_CONFLICT,
    TableCalls,
    cancel_reasons,
    error_code,
    item_key,
    run_groups,
)
from shared.storage.dynamo.items import Item, stats_update

_log = logging.getLogger(__name__)

# A transaction holds at most 100 actions (one is the stats shard) and 4 MB.
_ACTIONS_MAX: Final = 99
_BYTES_MAX: Final = 3_000_000


class Outcome(Enum):
    DONE = "done"  # the record action and its stats change were applied together
    REFUSED = "refused"  # its condition failed: nothing of it applied (`current`: the record)
    FAILED = "failed"  # not applied, outcome of the attempts known to be unapplied


@dataclass(frozen=True)
class Count[Owner: Hashable]:
    """One owner's transaction actions (a record's, with a memory item's Update or Delete;
    a brain entry's Put) with the change of the stats shard that counts it."""

    owner: Owner
    shard: Item  # the key of the stats shard (memory MSTATS or brain STATS)
    action: Item  # a TransactItem with its condition: the owner's (refused → `Counted.item`)
    documents: int
    total_len: int
    also: tuple[Item, ...] = ()  # TransactItems that go with `action` (before it)

    @property
    def actions(self) -> tuple[Item, ...]:
        return (*self.also, self.action)


@dataclass(frozen=True)
class Counted:
    """What became of one owner's count."""

    outcome: Outcome
    # with REFUSED: the item `action` met, if returned (None: absent or not its condition)
    item: Item | None = None
    # with REFUSED: per `also` action whose condition failed (by position) the item as
    # stored (None: absent)
    also_refused: Mapping[int, Item | None] = field(default_factory=dict)


def _groups[Owner: Hashable](counts: Sequence[Count[Owner]], most: int) -> list[list[Count[Owner]]]:
    """The counts grouped per stats shard into transactions (≤ `most` actions, ≤ 3 MB)."""
    by_shard: dict[tuple[str, str], list[Count[Owner]]] = {}
    for c in counts:
        by_shard.setdefault(item_key(c.shard), []).append(c)
    groups: list[list[Count[Owner]]] = []
    for group in by_shard.values():
        chunk: list[Count[Owner]] = []
        size = actions = 0
        for c in group:
            weight = len(json.dumps(c.actions))
            if chunk and (actions + len(c.actions) > most or size + weight > _BYTES_MAX):
                groups.append(chunk)
                chunk, size, actions = [], 0, 0
            chunk.append(c)
            size += weight
            actions += len(c.actions)
        if chunk:
            groups.append(chunk)
    return groups


def _transact[Owner: Hashable](
    calls: TableCalls,
    group: list[Count[Owner]],
    extra: Callable[[Sequence[Count[Owner]]], Item | None] | None = None,
) -> dict[Owner, Counted]:
    """One shard's transaction: refused actions drop out and the rest is sent again; a
    conflict with another transaction is retried after a backoff (fresh token each)."""
    done: dict[Owner, Counted] = {}
    pending = list(group)
    for attempt in range(calls.max_attempts):
        if not pending:
            break
        if attempt:
            calls.wait(attempt)
        items = [a for c in pending for a in c.actions]
        documents = sum(c.documents for c in pending)
        total = sum(c.total_len for c in pending)
        if documents or total:
            items.append(stats_update(pending[0].shard, documents=documents, total_len=total))
        more = extra(pending) if extra is not None else None
        if more is not None:
            items.append(more)
        try:
            calls.transact(items)
        except AWS_ERRORS as exc:
            reasons = cancel_reasons(exc, len(items))
            if reasons is None:
                _log.warning("index transaction: %s", error_code(exc))
                break
            codes = [str(reason.get("Code")) for reason in reasons]
            refused = _refused(pending, codes, reasons)
            done.update({pending[i].owner: counted for i, counted in refused.items()})
            if refused:
                pending = [c for i, c in enumerate(pending) if i not in refused]
                continue
            if TRANSACTION_CONFLICT not in codes:
                _log.warning("index transaction cancelled: %s", codes)
                break
            continue
        for c in pending:
            done[c.owner] = Counted(Outcome.DONE)
        pending = []
    for c in pending:
        done[c.owner] = Counted(Outcome.FAILED)
    return done


def _refused[Owner: Hashable](
    pending: Sequence[Count[Owner]], codes: Sequence[str], reasons: Sequence[Mapping[str, Any]]
) -> dict[int, Counted]:
    """Per refused count (by position) what refused it; `codes`/`reasons` per action."""
    refused: dict[int, Counted] = {}
    position = 0
    for i, c in enumerate(pending):
        failed: dict[int, Item | None] = {}
        for offset in range(len(c.actions)):
            at = position + offset
            if codes[at] == CONDITION_FAILED:
                stored = reasons[at].get("Item")
                failed[offset] = dict(stored) if stored else None
        position += len(c.actions)
        if failed:
            refused[i] = Counted(Outcome.REFUSED, failed.pop(len(c.also), None), failed)
    return refused


def write_index[Owner: Hashable](
    calls: TableCalls,
    counts: Sequence[Count[Owner]],
    postings: Sequence[tuple[Owner, Item]],
    *,
    extra: Callable[[Sequence[Count[Owner]]], Item | None] | None = None,
    beside: Sequence[Callable[[], Any]] = (),
) -> tuple[dict[Owner, Counted], set[Owner], list[Any]]:
    """One stage: the counts' transactions (per stats shard; `extra`: one more TransactItem
    per transaction made from its counts — a delete's call-record marks — whose failed
    condition applies nothing of it) ‖ the postings requests ‖ `beside` (vectors).
    (outcome per owner, owners whose postings still failed after the retries, the results
    of `beside`)."""
    groups = _groups(counts, _ACTIONS_MAX - (extra is not None))
    transactions = [partial(_transact, calls, group, extra) for group in groups]
    writes = calls.write_tasks(postings)
    done, counted, written = run_groups(calls.round_trips, [beside, transactions, writes])
    outcomes = {owner: c for outcome in counted for owner, c in outcome.items()}
    return outcomes, set[Owner]().union(*written), done
