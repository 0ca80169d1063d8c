"""Deleting memories (delete_memories) and the expiry sweep (delete_expired).

A delete of a batch is one loop over its memories' partitions (docs/dynamodb.md,
"Memories: delete and the expiry sweep"):
1. one consistent Query per memory partition: the memory item, all its rating records and
   its index record (memory_records.py). The delete tool runs it as its authorization
   read (`read`, beside the call's claim) and passes the partitions in (`DeleteRead`);
2. one stage, side by side: per stats shard one TransactWriteItems (`write_index`) — per
   memory the item's Delete on the version read (every rating and replace moves it), its
   index record made a tombstone on the record as read (or checked absent), the stats
   decrement of what the record counted, and the call record's marks (`CallMarks`:
   condition, the send owns the record) — beside the BatchWriteItem deletes of the
   ratings, guards and every posting the item or the record names. A memory whose
   transaction is refused (moved since the read) goes back to 1, bounded; what went
   beside it is put back if it is not deleted in the end (`_restore`);
3. deferred beside the call's answer (`TableCalls.defer`): the tombstones dropped where
   their postings are all gone (BatchWriteItem deletes, unconditioned: nothing makes a
   tombstone a record again — IDs are never reused, a replace fails on the missing item;
   one left over goes by TTL), and the deleted items' vectors.

Invariants:
- Side data is only removed beside the transaction that removes its item (put back if
  that does not apply), or once the item is gone.
- **The record names every posting until they are gone**: the tombstone outlives the
  item and is dropped only after the postings' deletes succeeded. A delete cut off
  anywhere is finished by the next delete of that ID (the resend, which the marks send
  here) or, for short-term memories, the next sweep (records carry the `by_expiry`
  keys): 1 finds a record or ratings without an item and 2-3 run for them.
- Stats drop exactly once, with the record's change from counted to tombstone (an item
  always has its record: memories.py).

The sweep adds a stage 0: the sparse `by_expiry` GSI, one Query per shard
(`exp_sk <= now`, oldest first, `Limit`), merged oldest first and cut to the limit.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

from boto3.dynamodb.conditions import Attr, ConditionBase, Key

from shared.calls import CallMarks
from shared.domain import DeleteRead, ExpiredMemory, MemoryId
from shared.storage.dynamo.calls import TableCalls
from shared.storage.dynamo.embeddings import EmbeddingVectors
from shared.storage.dynamo.index_writer import Count, Outcome, write_index
from shared.storage.dynamo.items import (
    EXP_INDEX,
    EXP_PK,
    EXP_SK,
    PK,
    RATING,
    RATING_SK_PREFIX,
    SK,
    SK_MEMORY,
    TTL_ATTRIBUTE,
    Item,
    action,
    expression,
    get_n,
    get_s,
    is_live,
    memory_key,
    memory_pk,
    opt_s,
    query,
    rating_guard_key,
    rating_items,
    to_us,
)
from shared.storage.dynamo.memory_items import (
    EXPIRY_SHARDS,
    expiry_pk,
    key_id,
    memory_from_item,
    posting_diff,
    stored_memory_id,
    stored_posting_keys,
)
from shared.storage.dynamo.memory_records import (
    GONE,
    SK_INDEX,
    IndexRecord,
    memory_shard,
    record_from_item,
    record_key,
)
from shared.storage.dynamo.reservations import mark_action

_log = logging.getLogger(__name__)

Ref = tuple[str, MemoryId]

# A tombstone outlives a cut-off delete's postings at most this long (DynamoDB TTL).
_TOMBSTONE_S = 86_400


@dataclass
class _Found:
    """A memory partition as read in stage 1."""

    item: Item | None = None
    ratings: list[Item] = field(default_factory=list)
    record: IndexRecord | None = None


@dataclass(frozen=True)
class _Partitions:
    """`DeleteRead.detail` of this adapter: the partitions `read_for_delete` read."""

    found: Mapping[Ref, _Found]


class MemoryDeleter:
    def __init__(self, calls: TableCalls, objects: EmbeddingVectors, max_retries: int) -> None:
        self._calls = calls
        self._objects = objects
        self._max_retries = max_retries

    def read(self, tenant: str, ids: Sequence[MemoryId], now: datetime) -> DeleteRead:
        """Stage 1 ahead of the delete (beside the call's claim): the partitions."""
        now_us = to_us(now)
        found = self._read([(tenant, memory_id) for memory_id in dict.fromkeys(ids)])
        memories = {
            memory_id: memory_from_item(p.item)
            for (_, memory_id), p in found.items()
            if p.item is not None and is_live(p.item, now_us)
        }
        return DeleteRead(memories, _Partitions(found))

    def delete(
        self,
        tenant: str,
        ids: Sequence[MemoryId],
        now: datetime,
        read: DeleteRead | None = None,
        marks: CallMarks | None = None,
    ) -> list[MemoryId]:
        now_us = to_us(now)
        unique = list(dict.fromkeys(ids))
        if not unique:
            return []
        known: dict[Ref, _Found] = {}
        if read is not None and isinstance(read.detail, _Partitions):
            for memory_id in read.memories:
                partition = read.detail.found.get((tenant, memory_id))
                if memory_id in unique and partition is not None and partition.item is not None:
                    known[(tenant, memory_id)] = partition
        deleted = self._delete([(tenant, memory_id) for memory_id in unique], now_us, known, marks)
        return [
            memory_id
            for memory_id in unique
            if (tenant, memory_id) in deleted and is_live(deleted[(tenant, memory_id)], now_us)
        ]

    def sweep(self, now: datetime, limit: int) -> list[ExpiredMemory]:
        if limit <= 0:
            return []
        now_us = to_us(now)
        queries = [
            {
                **expression(key=Key(EXP_PK).eq(expiry_pk(shard)) & Key(EXP_SK).lte(now_us)),
                "IndexName": EXP_INDEX,
                "ScanIndexForward": True,
            }
            for shard in range(EXPIRY_SHARDS)
        ]
        pages = self._calls.query_many(queries, limit)
        candidates = sorted(
            (item for page in pages for item in page),
            key=lambda item: (get_n(item, EXP_SK), get_s(item, PK)),
        )
        refs = list(
            dict.fromkeys((get_s(item, "tenant"), stored_memory_id(item)) for item in candidates)
        )[:limit]
        deleted = self._delete(refs, now_us, {}, None, expired_only=True)
        return [
            ExpiredMemory(tenant, memory_id)
            for tenant, memory_id in refs
            if (tenant, memory_id) in deleted
        ]

    # --- the stages ---------------------------------------------------------------------

    def _delete(
        self,
        refs: list[Ref],
        now_us: int,
        known: Mapping[Ref, _Found],
        marks: CallMarks | None,
        *,
        expired_only: bool = False,
    ) -> dict[Ref, Item]:
        """Delete the memories of `refs` (partitions of `known` as the caller read them,
        the others read here); returns the items this call deleted."""
        found = dict(known)
        deleted: dict[Ref, Item] = {}
        removed: dict[Ref, _Found] = {}  # side data that went beside a transaction
        tombstones: set[Ref] = set()  # records that are tombstones now
        left: set[Ref] = set()  # side deletes that failed: their tombstone stays
        extra = None if marks is None else partial(_marks_of_group, marks)
        pending = list(refs)
        for attempt in range(self._max_retries + 1):
            if not pending:
                break
            if attempt:
                self._calls.wait(attempt)
            found.update(self._read([ref for ref in pending if ref not in found]))
            counts: list[Count[Ref]] = []
            side: list[tuple[Ref, Item]] = []
            items: dict[Ref, Item] = {}
            for ref in pending:
                p = found.pop(ref)  # a retry reads again
                if p.item is not None and expired_only and is_live(p.item, now_us):
                    continue
                side += _side_deletes(ref, p)
                count = _count(ref, p, now_us)
                if count is not None:
                    counts.append(count)
                elif p.record is not None:  # a tombstone a cut-off delete left
                    tombstones.add(ref)
                if p.item is not None:
                    items[ref] = p.item
                    before = removed.setdefault(ref, _Found(p.item))
                    keys = {key_id(r) for r in before.ratings}
                    before.ratings += [r for r in p.ratings if key_id(r) not in keys]
            outcomes, failed, _ = write_index(self._calls, counts, side, extra=extra)
            left |= failed
            pending = []
            for c in counts:
                outcome, ref = outcomes[c.owner], c.owner
                if outcome.outcome is Outcome.DONE:
                    tombstones.add(ref)
                    if ref in items:
                        deleted[ref] = items[ref]
                elif outcome.outcome is Outcome.REFUSED:
                    pending.append(ref)  # moved since the read: read again
                else:
                    _log.error("delete: memory %s of %s not deleted", ref[1], ref[0])
        for tenant, memory_id in pending:
            _log.warning("delete: memory %s of %s kept changing; not deleted", memory_id, tenant)
        self._restore({ref: p for ref, p in removed.items() if ref not in deleted})
        objects = [k for item in deleted.values() if (k := opt_s(item, "embedding_key"))]
        drops = [(ref, {"DeleteRequest": {"Key": record_key(*ref)}}) for ref in tombstones - left]
        tasks = self._calls.write_tasks(sorted(drops, key=str))
        self._calls.defer([*tasks, *([partial(self._objects.delete, objects)] if objects else [])])
        for tenant, memory_id in sorted(left, key=str):
            _log.error("delete: ratings/postings of %s (%s) left behind", memory_id, tenant)
        return deleted

    def _read(self, refs: list[Ref]) -> dict[Ref, _Found]:
        queries = [
            query(memory_pk(tenant, memory_id), ConsistentRead=True) for tenant, memory_id in refs
        ]
        found: dict[Ref, _Found] = {}
        for ref, items in zip(refs, self._calls.query_many(queries), strict=True):
            partition = found[ref] = _Found()
            for item in items:
                sk = get_s(item, SK)
                if sk == SK_MEMORY:
                    partition.item = item
                elif sk.startswith(RATING_SK_PREFIX):
                    partition.ratings.append(item)
                elif sk == SK_INDEX:
                    partition.record = record_from_item(item)
        return found

    def _restore(self, removed: Mapping[Ref, _Found]) -> None:
        """Put back what went beside a transaction whose memory was not deleted in the end
        (it kept changing, or the call failed): its ratings and guards as read, and the
        postings as the stored item has them now. A memory gone since is left as is."""
        if not removed:
            return
        now = self._read(list(removed))
        requests: list[tuple[Ref, Item]] = []
        for ref, partition in removed.items():
            item = now[ref].item
            if item is None:
                continue
            for record in partition.ratings:
                guard, _ = rating_items(RATING.read(record), None)
                if TTL_ATTRIBUTE in record:
                    guard[TTL_ATTRIBUTE] = record[TTL_ATTRIBUTE]
                requests += [(ref, {"PutRequest": {"Item": i}}) for i in (record, guard)]
            requests += [(ref, r) for r in posting_diff((), memory_from_item(item))]
        for tenant, memory_id in sorted(self._calls.batch_write(requests), key=str):
            _log.error("delete: ratings/postings of %s (%s) not put back", memory_id, tenant)


def _count(ref: Ref, p: _Found, now_us: int) -> Count[Ref] | None:
    """The partition's transaction actions: the item's Delete on the version read (if
    there is an item), the record made a tombstone on the record as read, or checked
    still absent (or still a tombstone), and the decrement of what the record counted.
    None when there is nothing to change (no item, no counted record)."""
    tenant, memory_id = ref
    r = p.record
    if p.item is None and (r is None or r.gone):
        return None
    documents = total = 0
    at = record_key(tenant, memory_id)
    if r is None:
        record = action("ConditionCheck", Attr(PK).not_exists(), Key=at)
    elif r.gone:
        record = action("ConditionCheck", Attr(GONE).exists(), Key=at)
    else:
        condition: ConditionBase = Attr("version").eq(r.version) & Attr("write_id").eq(r.write_id)
        ttl = now_us // 1_000_000 + _TOMBSTONE_S
        update = expression(
            condition & Attr(GONE).not_exists(), put={GONE: True, TTL_ATTRIBUTE: ttl}
        )
        record = action("Update", all_old=True, Key=at, **update)
        documents, total = -1, -r.doc_len
    also: tuple[Item, ...] = ()
    if p.item is not None:
        delete = action(
            "Delete",
            Attr("version").eq(get_n(p.item, "version")),
            all_old=True,
            Key=memory_key(tenant, memory_id),
        )
        also = (delete,)
    return Count(ref, memory_shard(tenant, memory_id), record, documents, total, also)


def _side_deletes(ref: Ref, partition: _Found) -> list[tuple[Ref, Item]]:
    """The deletes of a memory's rating records, their guards and every posting its item
    or its index record names (each key once)."""
    tenant, _ = ref
    keys = {key_id(r) for r in partition.ratings}
    keys |= {key_id(rating_guard_key(tenant, get_n(r, "insert_id"))) for r in partition.ratings}
    if partition.record is not None:
        keys |= partition.record.posting_keys()
    if partition.item is not None:
        keys |= {key_id(k) for k in stored_posting_keys(partition.item)}
    return [(ref, r) for r in posting_diff(keys, None)]


def _marks_of_group(marks: CallMarks, group: Sequence[Count[Ref]]) -> Item | None:
    """The marks of the memories whose items this transaction deletes."""
    return mark_action(group[0].owner[0], marks, [c.owner[1] for c in group if c.also])
