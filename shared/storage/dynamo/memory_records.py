"""Index records: what the memory search index and the memory stats hold of one memory.

    index record   T#<t>#MEM#<typ>_<n>   IDX   area, doc_len, terms (JSON), version,
                                               write_id, expires_at (TTL, as the memory's),
                                               short-term: exp_pk/exp_sk as the memory's,
                                               stale (JSON key list) while a replace runs

Invariants:
- **Counted == recorded.** A memory counts in the memory stats exactly when its index
  record exists and is no tombstone (`gone`: uncounted with its deleted item), and the
  record's `doc_len` is what it adds to `total_len`. A record and its stats contribution
  change only together: one TransactWriteItems per stats shard (`Counting`), the record
  actions conditioned (absent / the version read / the write
  that put it) plus one `ADD` on the shard. A resend that meets the condition learns the
  work is done and never counts twice.
- **Record and item together name every posting the memory may have.** The record's
  `terms` (area, doc_len, ID give the keys) are what the index held when the record was
  written; the item names its own version's; `stale` the keys of the version before
  that a replace is still deleting. A replace moves item and record in one transaction
  beside its postings and clears `stale` once they are complete (memory_replace.py); a
  delete removes the postings of both, then the record (which outlives the item). So
  wherever a crash cut a write off, the record still says what is counted and which
  postings may be left, and the resend finishes from there.
- A memory item without a record is not counted (an insert cut off before its record):
  the resend completes it (memory_repair.py), any replace records it.
- Records never take part in searches or listings; the delete's partition Query reads
  them with the item and the ratings. Records of short-term memories carry the memory's
  `by_expiry` keys, so the expiry sweep also finds the record a cut-off sweep left behind
  (its item, and with it the item's GSI entry, already gone) and finishes that delete.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from typing import Any, Final

from boto3.dynamodb.conditions import Attr, ConditionBase
from boto3.dynamodb.types import TypeDeserializer

from shared.domain import Memory, MemoryId, MemoryType
from shared.storage.dynamo.calls import AWS_ERRORS, TableCalls, cancel_reasons, error_code
from shared.storage.dynamo.items import (
    EXP_PK,
    EXP_SK,
    PK,
    TTL_ATTRIBUTE,
    Item,
    action,
    get_json,
    get_n,
    get_s,
    js,
    key,
    memory_pk,
    n,
    opt_n,
    opt_s,
    s,
    stats_update,
    to_us,
    ttl_seconds,
)
from shared.storage.dynamo.memory_items import (
    expiry_pk,
    expiry_shard,
    key_id,
    memory_posting_key,
    memory_stats_key,
    memory_stats_shard,
    stored_memory_id,
)

_log = logging.getLogger(__name__)

SK_INDEX: Final = "IDX"
STALE: Final = "stale"
GONE: Final = "gone"
# A transaction holds at most 100 actions (one is the stats shard) and 4 MB.
_ACTIONS_MAX: Final = 99
_BYTES_MAX: Final = 3_000_000
_CONDITION_FAILED: Final = "ConditionalCheckFailed"
_TRANSACTION_CONFLICT: Final = "TransactionConflict"

KeyId = tuple[str, str]
PLAIN: Final = TypeDeserializer()  # attribute values as plain values for conditions


def record_key(tenant: str, memory_id: MemoryId) -> Item:
    return key(memory_pk(tenant, memory_id), SK_INDEX)


@dataclass(frozen=True)
class IndexRecord:
    tenant: str
    memory_id: MemoryId
    area: str
    doc_len: int
    terms: Mapping[str, int]
    version: int
    write_id: str
    expires_us: int | None = None
    # Posting keys of the version before, which a replace deletes beside writing this
    # record (memory_replace.py): until that replace clears them, they may still exist.
    stale: frozenset[KeyId] = frozenset()
    # A tombstone: its memory was deleted and uncounted in one transaction; it names the
    # postings until the delete has removed them (memory_delete.py), then goes (or TTL).
    gone: bool = False

    def posting_keys(self) -> set[KeyId]:
        """The keys of every posting the index may hold of this memory: the recorded
        version's, and the stale ones of the version before."""
        return {
            key_id(memory_posting_key(self.tenant, self.area, t, tf, self.doc_len, self.memory_id))
            for t, tf in self.terms.items()
            if tf > 0
        } | self.stale


def record_of(m: Memory, *, version: int, write_id: str) -> IndexRecord:
    expires = None if m.expires_at is None else to_us(m.expires_at)
    terms = {t: tf for t, tf in m.terms.items() if tf > 0}
    return IndexRecord(m.tenant, m.id, m.area, m.doc_len, terms, version, write_id, expires)


def record_item(r: IndexRecord) -> Item:
    item: Item = {
        **record_key(r.tenant, r.memory_id),
        "kind": s("memory_index"),
        "tenant": s(r.tenant),
        "memory_id": s(str(r.memory_id)),
        "area": s(r.area),
        "doc_len": n(r.doc_len),
        "terms": js(dict(sorted(r.terms.items()))),
        "version": n(r.version),
        "write_id": s(r.write_id),
    }
    if r.expires_us is not None:
        item[TTL_ATTRIBUTE] = n(ttl_seconds(r.expires_us))
        item["expires_us"] = n(r.expires_us)
        if r.memory_id.typ is MemoryType.SHORTTERM:
            item[EXP_PK] = s(expiry_pk(expiry_shard(r.tenant, r.memory_id)))
            item[EXP_SK] = n(r.expires_us)
    if r.stale:
        item[STALE] = js(sorted(r.stale))
    return item


def record_from_item(item: Mapping[str, Any]) -> IndexRecord:
    return IndexRecord(
        tenant=get_s(item, "tenant"),
        memory_id=stored_memory_id(item),
        area=get_s(item, "area"),
        doc_len=get_n(item, "doc_len"),
        terms={str(t): int(tf) for t, tf in get_json(item, "terms").items()},
        version=get_n(item, "version"),
        write_id=opt_s(item, "write_id") or "",
        expires_us=opt_n(item, "expires_us"),
        stale=frozenset((str(pk), str(sk)) for pk, sk in get_json(item, STALE))
        if STALE in item
        else frozenset(),
        gone=GONE in item,
    )


def counts_snapshot(m: Memory) -> ConditionBase:
    """The condition that a record counts exactly `m` as read (area, doc_len and terms as
    its item has them; nothing stale, no tombstone)."""
    expected = record_item(record_of(m, version=0, write_id=""))
    condition: ConditionBase = Attr(STALE).not_exists() & Attr(GONE).not_exists()
    for name in ("area", "doc_len", "terms"):
        condition &= Attr(name).eq(PLAIN.deserialize(expected[name]))
    return condition


# --- counting: records and stats in one transaction -----------------------------------


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
    outcome: Outcome
    # with REFUSED: the item `action` met, if returned (None: absent or not its condition)
    item: Item | None = None
    # with REFUSED: per `also` action whose condition failed (by position) the item as
    # stored (None: absent)
    also_refused: Mapping[int, Item | None] = field(default_factory=dict)

    @property
    def current(self) -> IndexRecord | None:
        return None if self.item is None else record_from_item(self.item)


def memory_shard(tenant: str, memory_id: MemoryId) -> Item:
    return memory_stats_key(tenant, memory_stats_shard(memory_id))


def count_put[Owner: Hashable](
    owner: Owner, record: IndexRecord, documents: int, total_len: int, expected: int | None
) -> Count[Owner]:
    """Put `record`, conditioned on no record (`expected` None) or on the version read."""
    condition = Attr(PK).not_exists() if expected is None else Attr("version").eq(expected)
    put = action("Put", condition, all_old=True, Item=record_item(record))
    return Count(owner, memory_shard(record.tenant, record.memory_id), put, documents, total_len)


def count_delete[Owner: Hashable](owner: Owner, record: IndexRecord) -> Count[Owner]:
    """Delete `record` as it was read or written (version and write) and uncount it."""
    condition = Attr("version").eq(record.version) & Attr("write_id").eq(record.write_id)
    at = record_key(record.tenant, record.memory_id)
    delete = action("Delete", condition, all_old=True, Key=at)
    return Count(owner, memory_shard(record.tenant, record.memory_id), delete, -1, -record.doc_len)


@dataclass
class Counting[Owner: Hashable]:
    """Count changes grouped per stats shard into transactions; `tasks()` run in the
    caller's stage, `finish()` maps the task results to one `Counted` per owner."""

    calls: TableCalls
    counts: Sequence[Count[Owner]]
    # One more TransactItem per transaction, made from its counts (a delete's call-record
    # marks, reservations.mark_action): if its condition fails, nothing of it applies.
    extra: Callable[[Sequence[Count[Owner]]], Item | None] | None = None
    _groups: list[list[Count[Owner]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        by_shard: dict[tuple[str, str], list[Count[Owner]]] = {}
        for c in self.counts:
            by_shard.setdefault(key_id(c.shard), []).append(c)
        most = _ACTIONS_MAX - (self.extra is not None)
        for group in by_shard.values():
            chunk: list[Count[Owner]] = []
            size = actions = 0
            for c in group:
                weight = len(json.dumps(c.actions))
                full = actions + len(c.actions) > most or size + weight > _BYTES_MAX
                if chunk and full:
                    self._groups.append(chunk)
                    chunk, size, actions = [], 0, 0
                chunk.append(c)
                size += weight
                actions += len(c.actions)
            if chunk:
                self._groups.append(chunk)

    def tasks(self) -> list[Callable[[], dict[Owner, Counted]]]:
        return [partial(_transact, self.calls, group, self.extra) for group in self._groups]

    def finish(self, outcomes: Sequence[dict[Owner, Counted]]) -> dict[Owner, Counted]:
        merged: dict[Owner, Counted] = {}
        for outcome in outcomes:
            merged.update(outcome)
        return merged

    def run(self) -> dict[Owner, Counted]:
        """Alone, as one stage."""
        return self.finish(self.calls.round_trips.run(self.tasks()))


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
            calls.backoff.wait(attempt)
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
            reasons = cancel_reasons(exc)
            if reasons is None:
                _log.warning("memory index records: %s", error_code(exc))
                break
            codes = [str(reason.get("Code", "None")) for reason in reasons]
            codes += ["None"] * (len(items) - len(codes))
            refused = _refused(pending, codes, reasons)
            done.update({pending[i].owner: counted for i, counted in refused.items()})
            if refused:
                pending = [c for i, c in enumerate(pending) if i not in refused]
                continue
            if _TRANSACTION_CONFLICT not in codes:
                _log.warning("memory index records: transaction cancelled: %s", codes)
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
            if codes[at] == _CONDITION_FAILED:
                stored = reasons[at].get("Item") if at < len(reasons) else None
                failed[offset] = dict(stored) if stored else None
        position += len(c.actions)
        if failed:
            refused[i] = Counted(Outcome.REFUSED, failed.pop(len(c.also), None), failed)
    return refused
