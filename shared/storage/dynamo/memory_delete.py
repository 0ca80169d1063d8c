"""Deleting memories (delete_memories) and the expiry sweep (delete_expired; first one
`by_expiry` Query per shard). Stages (docs/dynamodb.md, "Memories: delete and the expiry
sweep"): 1. the partitions read (or the delete tool's `DeleteRead`); 2. per stats shard one
transaction (the item's Delete on the version read, its tombstone, the decrement, the call
record's marks) beside the side deletes, a refused one back to 1 (bounded); 3. deferred:
the tombstones dropped, the vectors deleted.

Invariants:
- Side data is only removed beside the transaction that removes its item (put back if
  that does not apply), or once the item is gone.
- **The tombstone names every posting until they are gone** (memory_items.py): it is
  written in the item's transaction and dropped only after the postings' deletes
  succeeded. A delete cut off anywhere is finished by the next delete of that ID (the
  resend, which the marks send here) or, for short-term memories, the next sweep
  (tombstones carry the `by_expiry` keys): 1 finds a tombstone or ratings without an item
  and 2-3 run for them.
- Stats drop exactly once, in the transaction that deletes the counted item.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from itertools import chain

from boto3.dynamodb.conditions import Attr, Key

from shared.calls import CallMarks
from shared.domain import DeleteRead, ExpiredMemory, MemoryId
from shared.storage.dynamo.calls import TableCalls, item_key
from shared.storage.dynamo.embeddings import EmbeddingVectors
from shared.storage.dynamo.index_writer import Count, KeyId, Outcome, postings_diff, write_index
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
    get_n,
    get_s,
    is_live,
    key,
    memory_key,
    memory_pk,
    opt_s,
    parse_memory_id,
    query,
    rating_guard_key,
    rating_items,
)
from shared.storage.dynamo.memory_items import (
    EXPIRY_SHARDS,
    SK_GONE,
    expiry_pk,
    memory_from_item,
    memory_shard,
    named_keys,
    postings,
    tombstone_item,
)
from shared.storage.dynamo.reservations import mark_action
from shared.storage.values import to_us

_log = logging.getLogger(__name__)

Ref = tuple[str, MemoryId]


@dataclass
class _Found:
    """A memory partition as read in stage 1."""

    item: Item | None = None
    ratings: list[Item] = field(default_factory=list)
    named: set[KeyId] = field(default_factory=set)  # every posting key item or tombstone names
    tombstone: bool = False


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
        return DeleteRead(memories, found)  # detail: the partitions as read

    def delete(
        self,
        tenant: str,
        ids: Sequence[MemoryId],
        now: datetime,
        read: DeleteRead | None = None,
        marks: CallMarks | None = None,
    ) -> list[MemoryId]:
        now_us = to_us(now)
        refs = [(tenant, memory_id) for memory_id in dict.fromkeys(ids)]
        known: dict[Ref, _Found] = {}
        if read is not None and isinstance(read.detail, dict):  # the live ones read
            known = {r: read.detail[r] for r in refs if r in read.detail and r[1] in read.memories}
        deleted = self._delete(refs, now_us, known, marks)
        return [ref[1] for ref in refs if ref in deleted and is_live(deleted[ref], now_us)]

    def sweep(self, now: datetime, limit: int) -> list[ExpiredMemory]:
        if limit <= 0:
            return []
        now_us = to_us(now)
        due = Key(EXP_SK).lte(now_us)
        queries = [
            query(expiry_pk(n), index=(EXP_INDEX, EXP_PK), sort=due, ScanIndexForward=True)
            for n in range(EXPIRY_SHARDS)
        ]
        pages = self._calls.query_many(queries, limit)
        candidates = sorted(chain(*pages), key=lambda item: (get_n(item, EXP_SK), get_s(item, PK)))
        ids = dict.fromkeys((get_s(i, "tenant"), get_s(i, "memory_id")) for i in candidates)
        refs = [(tenant, parse_memory_id(memory_id)) for tenant, memory_id in ids][:limit]
        deleted = self._delete(refs, now_us, {}, None, expired_only=True)
        return [ExpiredMemory(*ref) for ref in refs if ref in deleted]

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
        removed: dict[Ref, dict[KeyId, Item]] = {}  # ratings deleted beside a transaction
        tombstones: set[Ref] = set()  # memories with a tombstone now
        left: set[Ref] = set()  # side deletes that failed: their tombstone stays
        extra = (
            None if marks is None else lambda group: mark_action(marks, [c.owner for c in group])
        )
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
                if p.tombstone:  # a cut-off delete left it
                    tombstones.add(ref)
                if p.item is not None:
                    counts.append(_count(ref, p.item, p.named, now_us))
                    items[ref] = p.item
                    removed.setdefault(ref, {}).update({item_key(r): r for r in p.ratings})
            outcomes, failed, _ = write_index(self._calls, counts, side, extra=extra)
            left |= failed
            pending = []
            for ref, item in items.items():  # the ones counted
                if outcomes[ref].outcome is Outcome.DONE:
                    tombstones.add(ref)
                    deleted[ref] = item
                elif outcomes[ref].outcome is Outcome.REFUSED:
                    pending.append(ref)  # moved since the read: read again
                else:
                    _log.error("delete: memory %s of %s not deleted", ref[1], ref[0])
        for tenant, memory_id in pending:
            _log.warning("delete: memory %s of %s kept changing; not deleted", memory_id, tenant)
        self._restore({ref: r for ref, r in removed.items() if ref not in deleted})
        objects = [k for item in deleted.values() if (k := opt_s(item, "embedding_key"))]
        gone = [(ref, key(memory_pk(*ref), SK_GONE)) for ref in tombstones - left]
        drops = [(ref, {"DeleteRequest": {"Key": tombstone}}) for ref, tombstone in gone]
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
                partition.tombstone |= sk == SK_GONE
                if sk in (SK_MEMORY, SK_GONE):
                    partition.named |= named_keys(item)
        return found

    def _restore(self, removed: Mapping[Ref, Mapping[KeyId, Item]]) -> None:
        """Put back what went beside a transaction whose memory was not deleted in the end
        (it kept changing, or the call failed): its ratings and guards as read, and the
        postings as the stored item has them now. A memory gone since is left as is."""
        now = self._read(list(removed))
        requests: list[tuple[Ref, Item]] = []
        for ref, ratings in removed.items():
            item = now[ref].item
            if item is None:
                continue
            for record in ratings.values():
                guard, _ = rating_items(RATING.read(record), None)
                if TTL_ATTRIBUTE in record:
                    guard[TTL_ATTRIBUTE] = record[TTL_ATTRIBUTE]
                requests += [(ref, {"PutRequest": {"Item": i}}) for i in (record, guard)]
            requests += [(ref, r) for r in postings_diff((), postings(memory_from_item(item)))]
        for tenant, memory_id in sorted(self._calls.batch_write(requests), key=str):
            _log.error("delete: ratings/postings of %s (%s) not put back", memory_id, tenant)


def _count(ref: Ref, item: Item, names: set[KeyId], now_us: int) -> Count[Ref]:
    """The item's Delete on the version read with the Put of its tombstone (naming the
    posting keys `names`) and the decrement of the item's count."""
    m = memory_from_item(item)
    delete = action("Delete", Attr("version").eq(m.version), all_old=True, Key=memory_key(*ref))
    tombstone = action("Put", Item=tombstone_item(m, names, now_us))
    return Count(ref, memory_shard(*ref), (tombstone, delete), -1, -m.doc_len)


def _side_deletes(ref: Ref, partition: _Found) -> list[tuple[Ref, Item]]:
    """The deletes of a memory's rating records, their guards and every posting its item
    or its tombstone names (each key once)."""
    keys = {item_key(r) for r in partition.ratings}
    keys |= {item_key(rating_guard_key(ref[0], get_n(r, "insert_id"))) for r in partition.ratings}
    return [(ref, r) for r in postings_diff(keys | partition.named)]
