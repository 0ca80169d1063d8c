"""Deleting memories (delete_memories) and the expiry sweep (delete_expired).

A delete of a batch takes these stages:
1. one consistent Query per memory partition: the memory item, all its rating records and
   its index record (memory_records.py). The delete tool runs it as its authorization
   read (`read`, beside the call's claim) and passes the partitions in (`DeleteRead`);
2. per memory a delete conditioned on the version just read. A rating or replace that
   landed in between moved the version: that memory goes back to stage 1 (bounded
   retries with backoff), so no rating record can be left behind. For a memory whose
   partition the caller passed, 2 is per stats shard one TransactWriteItems — the item's
   Delete on the version read, its index record made a tombstone (condition: it counts
   exactly that version), the stats decrement and the call record's marks (`CallMarks`:
   condition, the send owns the record) — beside the deletes of its ratings, guards and
   postings, which are put back if it is not deleted in the end (`_restore`). Elsewhere
   the item's delete carries its mark in a transaction of two (no marks: a DeleteItem);
3. side by side: BatchWriteItem deletes of the rating records, their guards and every
   posting the item or its index record names (unless they went in 2), and S3 Vectors
   DeleteVectors of the embeddings (batched per index);
4. per stats shard one TransactWriteItems: the index records (condition: as read) with
   the shard's decrement — only for memories whose postings are all gone. A record a
   replace moved after the read is deleted as it is now (its postings, then it). A
   tombstone (already uncounted) is deleted instead, deferred beside the call's answer
   (calls.py), with the embeddings when stage 3 was not needed; one a cut left behind goes
   with the next delete of the ID, or TTL.

Side data is only removed once the item is gone, or beside the transaction that removes
it (then put back if that fails). The index record outlives the item until the postings it
names are deleted, and its removal is the decrement: a delete cut off anywhere after its
item went is finished by the next delete of that ID (the resend, which the marks written
with the item's delete send here): stage 1 finds the record (and ratings) without an item
and stages 3-4 run for them, so postings go and the stats drop exactly once.

The sweep adds a stage 0: the sparse `by_expiry` GSI, one Query per shard
(`exp_sk <= now`, oldest first, `Limit`), merged oldest first and cut to the limit.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, cast

from shared.calls import CallMarks
from shared.domain import DeleteRead, ExpiredMemory, Memory, MemoryId
from shared.storage.dynamo.calls import (
    AWS_ERRORS,
    BatchWrite,
    TableCalls,
    defer,
    error_code,
    run_groups,
)
from shared.storage.dynamo.embeddings import EmbeddingVectors
from shared.storage.dynamo.items import (
    EXP_INDEX,
    EXP_PK,
    EXP_SK,
    PK,
    RATING_SK_PREFIX,
    SK,
    SK_MEMORY,
    TTL_ATTRIBUTE,
    Item,
    get_n,
    get_s,
    is_live,
    memory_key,
    memory_pk,
    n,
    opt_s,
    rating_from_item,
    rating_guard_key,
    rating_items,
    s,
)
from shared.storage.dynamo.memory_items import (
    EXPIRY_SHARDS,
    expiry_pk,
    key_id,
    memory_from_item,
    memory_item,
    posting_diff,
    stored_memory_id,
    stored_posting_keys,
)
from shared.storage.dynamo.memory_records import (
    GONE,
    SK_INDEX,
    Count,
    Counted,
    Counting,
    IndexRecord,
    Outcome,
    count_delete,
    counts_snapshot,
    key_items,
    record_from_item,
    record_key,
)
from shared.storage.dynamo.reservations import mark_action

_log = logging.getLogger(__name__)

_CONDITION_FAILED = "ConditionalCheckFailedException"

Ref = tuple[str, MemoryId]


@dataclass
class _Found:
    """A memory partition as read in stage 1."""

    item: Item | None = None
    ratings: list[Item] = field(default_factory=list)
    record: IndexRecord | None = None


@dataclass(frozen=True)
class _Outcome:
    deleted: Item | None = None  # the item as it was when this call deleted it
    moved: bool = False  # the version changed since the read: read again


@dataclass(frozen=True)
class _Partitions:
    """`DeleteRead.detail` of this adapter: the partitions `read_for_delete` read."""

    found: Mapping[Ref, _Found]


class MemoryDeleter:
    def __init__(self, calls: TableCalls, objects: EmbeddingVectors, max_retries: int) -> None:
        self._calls = calls
        self._objects = objects
        self._max_retries = max_retries

    def read(self, tenant: str, ids: Sequence[MemoryId], now_us: int) -> DeleteRead:
        """Stage 1 ahead of the delete (beside the call's claim): the partitions."""
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
        now_us: int,
        read: DeleteRead | None,
        marks: CallMarks | None,
    ) -> list[MemoryId]:
        unique = list(dict.fromkeys(ids))
        known: dict[Ref, tuple[Memory, _Found]] = {}
        if read is not None and isinstance(read.detail, _Partitions):
            for memory_id, memory in read.memories.items():
                partition = read.detail.found.get((tenant, memory_id))
                if memory_id in unique and partition is not None and partition.item is not None:
                    known[(tenant, memory_id)] = (memory, partition)
        refs = [(tenant, memory_id) for memory_id in unique]
        deleted = self._delete(refs, now_us, known, marks)
        return [
            memory_id
            for memory_id in unique
            if (tenant, memory_id) in deleted and is_live(deleted[(tenant, memory_id)], now_us)
        ]

    def sweep(self, now_us: int, limit: int) -> list[ExpiredMemory]:
        if limit <= 0:
            return []
        queries = [
            {
                "IndexName": EXP_INDEX,
                "KeyConditionExpression": "#pk = :pk AND #sk <= :now",
                "ExpressionAttributeNames": {"#pk": EXP_PK, "#sk": EXP_SK},
                "ExpressionAttributeValues": {":pk": s(expiry_pk(shard)), ":now": n(now_us)},
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
        known: Mapping[Ref, tuple[Memory, _Found]],
        marks: CallMarks | None,
        *,
        expired_only: bool = False,
    ) -> dict[Ref, Item]:
        """Delete the memories of `refs`; returns the items this call deleted. A memory of
        `known` (its partition as `read` found it) goes first, in one transaction with its
        record's tombstone, the stats decrement and its mark, beside the deletes of its
        ratings, guards and postings: conditioned on the version read, which every rating
        moves, so the partition read saw every rating record it had when it went (none can
        follow: a rating needs the item). One refused goes the long way (read again); if
        it is not deleted in the end, what went beside it is put back (`_restore`)."""
        deleted: dict[Ref, Item] = {}
        cleanup: list[tuple[Ref, Item | None, _Found]] = []
        early: set[Ref] = set()  # deleted with their side data beside the transaction
        removed_beside: set[Ref] = set()
        if known:
            done, removed_beside = self._delete_known(known, now_us, marks)
            for ref in done:
                memory, partition = known[ref]
                deleted[ref] = _item_of(memory)
                cleanup.append((ref, deleted[ref], partition))
                early.add(ref)
        pending = [ref for ref in refs if ref not in deleted]
        for attempt in range(self._max_retries + 1):
            if not pending:
                break
            if attempt:
                self._calls.backoff.wait(attempt)
            found = self._read(pending)
            targets: list[tuple[Ref, _Found]] = []
            for ref in pending:
                partition = found[ref]
                if partition.item is None:
                    if partition.ratings or partition.record:  # left by a cut-off delete
                        cleanup.append((ref, None, partition))
                elif not expired_only or not is_live(partition.item, now_us):
                    targets.append((ref, partition))
            outcomes = self._calls.round_trips.run(
                [partial(self._delete_item, ref, p.item, marks) for ref, p in targets]
            )
            pending = []
            for (ref, partition), outcome in zip(targets, outcomes, strict=True):
                if outcome.moved:
                    pending.append(ref)
                elif outcome.deleted is not None:
                    deleted[ref] = outcome.deleted
                    cleanup.append((ref, outcome.deleted, partition))
        for tenant, memory_id in pending:
            _log.warning("delete: memory %s of %s kept changing; not deleted", memory_id, tenant)
        self._restore({ref: known[ref][1] for ref in removed_beside if ref not in deleted})
        self._clean_up(cleanup, early, early & removed_beside)
        return deleted

    def _delete_known(
        self, known: Mapping[Ref, tuple[Memory, _Found]], now_us: int, marks: CallMarks | None
    ) -> tuple[list[Ref], set[Ref]]:
        """One stage: per stats shard the transaction (item, tombstone, stats, marks) ‖
        the deletes of the ratings, guards and postings of those memories. (the refs
        deleted, the refs whose side data is all gone)."""
        extra = None if marks is None else partial(_marks_of_group, marks)
        counting = Counting(
            self._calls, [_tombstone(ref, m, now_us) for ref, (m, _) in known.items()], extra
        )
        side = BatchWrite(
            self._calls,
            [r for ref, (m, p) in known.items() for r in _side_deletes(ref, _item_of(m), p)],
        )
        counted, written = run_groups(self._calls.round_trips, [counting.tasks(), side.tasks()])
        outcomes = counting.finish(cast(list[dict[Ref, Counted]], counted))
        left = side.finish(written)
        done = [ref for ref in known if outcomes[ref].outcome is Outcome.DONE]
        return done, set(known) - left

    def _read(self, refs: list[Ref]) -> dict[Ref, _Found]:
        queries = [
            {
                "KeyConditionExpression": "#pk = :pk",
                "ExpressionAttributeNames": {"#pk": PK},
                "ExpressionAttributeValues": {":pk": s(memory_pk(tenant, memory_id))},
                "ConsistentRead": True,
            }
            for tenant, memory_id in refs
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

    def _delete_item(self, ref: Ref, item: Item | None, marks: CallMarks | None) -> _Outcome:
        """The item's delete on the version read (with its mark, when the call has a
        record: then a transaction, and the item as read is what went)."""
        assert item is not None
        tenant, memory_id = ref
        delete: Item = {
            "Key": memory_key(tenant, memory_id),
            "ConditionExpression": "#version = :version",
            "ExpressionAttributeNames": {"#version": "version"},
            "ExpressionAttributeValues": {":version": item["version"]},
        }
        mark = None if marks is None else mark_action(tenant, marks, [memory_id])
        try:
            if mark is None:
                response = self._calls.client.delete_item(
                    TableName=self._calls.table, ReturnValues="ALL_OLD", **delete
                )
                old = response.get("Attributes")
                return _Outcome(deleted=dict(old)) if old else _Outcome()
            mark["Update"]["TableName"] = self._calls.table
            actions = [{"Delete": {"TableName": self._calls.table, **delete}}, mark]
            self._calls.client.transact_write_items(
                TransactItems=cast(Any, actions),
                ClientRequestToken=uuid.uuid4().hex,
            )
            return _Outcome(deleted=dict(item))
        except AWS_ERRORS as exc:
            reasons = getattr(exc, "response", {}).get("CancellationReasons") or [{}]
            moved = error_code(exc) == _CONDITION_FAILED or (
                reasons[0].get("Code") == "ConditionalCheckFailed"
            )
            if not moved:  # an error, or the call record is no longer this send's
                _log.error("delete: memory %s of %s: %s", memory_id, tenant, error_code(exc))
                return _Outcome()
            # Changed since the read, or gone (another delete won): read it again.
            return _Outcome(moved=True)

    def _clean_up(
        self,
        cleanup: list[tuple[Ref, Item | None, _Found]],
        tombstones: set[Ref],
        removed_beside: set[Ref],
    ) -> None:
        """Ratings, guards, postings (unless they went beside the transaction) with the
        embeddings; then the index records with their stats decrement — or, for tombstones
        (uncounted with their item), their delete, deferred beside the call's answer
        (calls.py), with the embeddings when no stage here was needed."""
        requests = [
            r
            for ref, item, partition in cleanup
            if ref not in removed_beside
            for r in _side_deletes(ref, item, partition)
        ]
        objects = [
            k for _, item, _ in cleanup if item is not None and (k := opt_s(item, "embedding_key"))
        ]
        deletes = [partial(self._objects.delete, objects)] if objects else []
        left: set[Ref] = set()
        if requests:  # a stage of its own: the embeddings go in it too
            write = BatchWrite(self._calls, requests)
            _, outcomes = run_groups(self._calls.round_trips, [deletes, write.tasks()])
            left, deletes = write.finish(outcomes), []
        for tenant, memory_id in sorted(left, key=str):
            _log.error("delete: ratings/postings of %s (%s) left behind", memory_id, tenant)
        # The record goes last: until its postings are gone it is what names them.
        records = {
            ref: partition.record
            for ref, _, partition in cleanup
            if partition.record is not None and ref not in left
        }
        gone = {ref for ref, r in records.items() if r.gone} | (tombstones - left)
        tasks = [partial(_drop_tombstone, self._calls, r) for r in gone]
        defer(self._calls.round_trips, [*tasks, *deletes])
        self._uncount({ref: r for ref, r in records.items() if ref not in gone})

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
                guard, _ = rating_items(rating_from_item(record), None)
                if TTL_ATTRIBUTE in record:
                    guard[TTL_ATTRIBUTE] = record[TTL_ATTRIBUTE]
                requests += [(ref, {"PutRequest": {"Item": i}}) for i in (record, guard)]
            requests += [(ref, r) for r in posting_diff((), memory_from_item(item))]
        for tenant, memory_id in sorted(self._calls.batch_write(requests), key=str):
            _log.error("delete: ratings/postings of %s (%s) not put back", memory_id, tenant)

    def _uncount(self, records: dict[Ref, IndexRecord]) -> None:
        """Stage 4: delete the records with their stats decrement. A record that moved
        since the read (a replace of the memory recorded its new version after our read; its
        item is gone now) is deleted as it is now: its postings first, then the record."""
        for attempt in range(self._calls.max_attempts):
            if not records:
                return
            if attempt:
                self._calls.backoff.wait(attempt)
            counted = Counting(self._calls, [count_delete(r, c) for r, c in records.items()])
            moved: dict[Ref, IndexRecord] = {}
            for ref, outcome in counted.run().items():
                if outcome.outcome is Outcome.FAILED:
                    tenant, memory_id = ref
                    _log.error("delete: index record of %s (%s) left", memory_id, tenant)
                elif outcome.outcome is Outcome.REFUSED:
                    current = outcome.current or self._read_record(ref)
                    if current is not None:
                        moved[ref] = current
            requests = [
                (ref, {"DeleteRequest": {"Key": k}})
                for ref, record in moved.items()
                for k in key_items(record.posting_keys())
            ]
            left = self._calls.batch_write(requests)
            records = {ref: record for ref, record in moved.items() if ref not in left}
        for tenant, memory_id in records:
            _log.error("delete: index record of %s (%s) kept moving", memory_id, tenant)

    def _read_record(self, ref: Ref) -> IndexRecord | None:
        item = self._calls.get_item(record_key(*ref))
        return None if item is None else record_from_item(item)


# A tombstone outlives a cut-off delete's postings at most this long (DynamoDB TTL).
_TOMBSTONE_S = 86_400


def _tombstone(ref: Ref, memory: Memory, now_us: int) -> Count[Ref]:
    """The item's Delete on the version read, its record turned into a tombstone on
    counting exactly that version, and the stats decrement: one transaction's actions."""
    tenant, memory_id = ref
    item = {
        "Delete": {
            "TableName": "",
            "Key": memory_key(tenant, memory_id),
            "ConditionExpression": "#version = :version",
            "ExpressionAttributeNames": {"#version": "version"},
            "ExpressionAttributeValues": {":version": n(memory.version)},
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
        }
    }
    condition, names, values = counts_snapshot(memory)
    values.update({":gone": {"BOOL": True}, ":ttl": n(now_us // 1_000_000 + _TOMBSTONE_S)})
    record = {
        "Update": {
            "TableName": "",
            "Key": record_key(tenant, memory_id),
            "UpdateExpression": "SET #gone = :gone, #ttl = :ttl",
            "ConditionExpression": condition,
            "ExpressionAttributeNames": {**names, "#ttl": TTL_ATTRIBUTE},
            "ExpressionAttributeValues": values,
        }
    }
    return Count(ref, tenant, memory_id, record, -1, -memory.doc_len, (item,))


def _side_deletes(ref: Ref, item: Item | None, partition: _Found) -> list[tuple[Ref, Item]]:
    """The deletes of a memory's rating records, their guards and every posting its item
    or its index record names (each key once)."""
    tenant, _ = ref
    keys = {key_id(r) for r in partition.ratings}
    keys |= {key_id(rating_guard_key(tenant, get_n(r, "insert_id"))) for r in partition.ratings}
    if partition.record is not None:
        keys |= partition.record.posting_keys()
    if item is not None:
        keys |= {key_id(k) for k in stored_posting_keys(item)}
    return [(ref, r) for r in posting_diff(keys, None)]


def _marks_of_group(marks: CallMarks, group: Sequence[Count[Ref]]) -> Item | None:
    return mark_action(group[0].tenant, marks, [c.memory_id for c in group])


def _item_of(memory: Memory) -> Item:
    """The deleted item as the caller read it (the transaction returns nothing)."""
    return memory_item(memory, write_id="", embedding_key=memory.embedding_key)


def _drop_tombstone(calls: TableCalls, ref: Ref) -> None:
    try:
        calls.client.delete_item(
            TableName=calls.table,
            Key=record_key(*ref),
            ConditionExpression="attribute_exists(#gone)",
            ExpressionAttributeNames={"#gone": GONE},
        )
    except AWS_ERRORS as exc:  # TTL removes it; a later delete of the ID would too
        _log.info("delete: tombstone of %s kept: %s", ref[1], error_code(exc))
