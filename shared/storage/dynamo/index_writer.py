"""The one index writer of the adapter: an owner (a memory item, a brain entry) and the
stats shard that counts it change together, its postings diff runs beside (docs/dynamodb.md,
"One index mechanism for entries and memories").

`write_index` runs one stage: the owners' `Count`s (conditioned actions, stats change)
per stats shard in one TransactWriteItems, beside the BatchWriteItem of their postings
diff (`postings_diff`, one for every writer: from the keys the old version its item says
is indexed names to the new version's postings).

Invariants:
- **Counted == stored.** A stats shard (memory `MSTATS`, brain `STATS`) changes only in the
  transaction of what it counts, as one `ADD` of the changes of the owners grouped on it
  (≤ 99 actions, ≤ 3 MB; a fresh `ClientRequestToken` per attempt, so botocore's resend of
  a timed-out attempt applies once). A refused owner drops out (`REFUSED`, with the item
  its condition met) and the rest is sent again; a conflict with another transaction is
  retried after a backoff; an error leaves the rest `FAILED`.
- **The owner names every posting it may have** while its diff is not known complete (a
  memory item's `stale`, a brain entry's tf-0 marks), so the diff can run beside the
  transaction, the marks are cleared beside the call's answer, and the repair of any cut
  is the resend: the same diff from what the owner says is indexed (a deleted memory's
  tombstone names them until they are gone).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Hashable, Iterable, Sequence, Set
from dataclasses import dataclass
from enum import Enum
from functools import partial
from itertools import accumulate
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
from shared.storage.dynamo.items import Item, key, stats_update

_log = logging.getLogger(__name__)

KeyId = tuple[str, str]  # a posting's (pk, sk)

# A transaction holds at most 100 actions (one is the stats shard) and 4 MB.
_ACTIONS_MAX: Final = 99
_BYTES_MAX: Final = 3_000_000


class Outcome(Enum):
    DONE = "done"  # the owner's actions and its stats change were applied together
    REFUSED = "refused"  # its condition failed: nothing of it applied (`item`: the owner's)
    FAILED = "failed"  # not applied, outcome of the attempts known to be unapplied


@dataclass(frozen=True)
class Count[Owner: Hashable]:
    """One owner's transaction actions (a memory item's Put, Update or Delete after its
    tombstone's Put; a brain entry's Put) with the change of the stats shard that counts it."""

    owner: Owner
    shard: Item  # the key of the stats shard (memory MSTATS or brain STATS)
    # TransactItems; the last one is the owner's, with its condition (refused → `Counted.item`)
    actions: tuple[Item, ...]
    documents: int
    total_len: int


@dataclass(frozen=True)
class Counted:
    """What became of one owner's count."""

    outcome: Outcome
    item: Item | None = None  # with REFUSED: the item the owner's action met (None: absent)


def _groups[Owner: Hashable](counts: Sequence[Count[Owner]], most: int) -> list[list[Count[Owner]]]:
    """The counts grouped per stats shard into transactions (≤ `most` actions, ≤ 3 MB)."""
    by_shard: dict[tuple[str, str], list[Count[Owner]]] = {}
    for c in counts:
        by_shard.setdefault(item_key(c.shard), []).append(c)
    groups: list[list[Count[Owner]]] = []
    for group in by_shard.values():
        size, actions = 0, most  # the first count opens a transaction
        for c in group:
            weight = len(json.dumps(c.actions))
            if actions + len(c.actions) > most or size + weight > _BYTES_MAX:
                groups.append([])
                size = actions = 0
            groups[-1].append(c)
            size += weight
            actions += len(c.actions)
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
        if extra is not None and (more := extra(pending)) is not None:
            items.append(more)
        try:
            calls.transact(items)
        except AWS_ERRORS as exc:
            reasons = cancel_reasons(exc, len(items))
            if reasons is None:
                _log.warning("index transaction: %s", error_code(exc))
                break
            codes = [str(reason.get("Code")) for reason in reasons]
            ends = list(accumulate(len(c.actions) for c in pending))  # the owner's: last
            refused = {i for i, end in enumerate(ends) if codes[end - 1] == CONDITION_FAILED}
            for i in refused:  # with the item its action met
                stored = reasons[ends[i] - 1].get("Item")
                done[pending[i].owner] = Counted(Outcome.REFUSED, dict(stored) if stored else None)
            if refused:
                pending = [c for i, c in enumerate(pending) if i not in refused]
            elif TRANSACTION_CONFLICT not in codes:
                _log.warning("index transaction cancelled: %s", codes)
                break
        else:
            return done | {c.owner: Counted(Outcome.DONE) for c in pending}
    for c in pending:
        done[c.owner] = Counted(Outcome.FAILED)
    return done


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


def postings_diff(
    old: Iterable[KeyId], new: Iterable[Item] = (), *, only: Set[KeyId] | None = None
) -> list[Item]:
    """The one diff of an owner's postings, for every write path of memories and brain
    entries (a create: `old` empty; a delete: `new` empty; a replace; the undo of a write
    that did not apply): the BatchWriteItem requests that turn the postings `old` names
    into the posting items `new` — deletes of the old keys `new` lacks, puts of `new`
    (with `only`: of those keys)."""
    puts = {item_key(posting): posting for posting in new}
    deletes = [{"DeleteRequest": {"Key": key(*k)}} for k in sorted(set(old) - puts.keys())]
    wanted = puts.keys() if only is None else only
    return deletes + [{"PutRequest": {"Item": p}} for k, p in puts.items() if k in wanted]
