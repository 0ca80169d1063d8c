"""Deleting memories (delete_memories) and the expiry sweep (delete_expired).

A delete of a batch takes four stages:
1. one consistent Query per memory partition: the memory item, all its rating records and
   its index record (memory_records.py);
2. per memory a DeleteItem conditioned on the version just read (ReturnValues ALL_OLD).
   A rating or replace that landed in between moved the version: that memory goes back to
   stage 1 (bounded retries with backoff), so no rating record can be left behind. For a
   memory the caller read (`read`), stages 1 and 2 run side by side, and 2 is per stats
   shard one TransactWriteItems: the item's Delete on the version read, its index record
   made a tombstone (condition: it counts exactly that version) and the stats decrement;
3. side by side: BatchWriteItem deletes of the rating records, their guards and every
   posting the item or its index record names, and S3 Vectors DeleteVectors of the
   embeddings (batched per index);
4. per stats shard one TransactWriteItems: the index records (condition: as read) with
   the shard's decrement — only for memories whose postings are all gone. A record a
   replace moved after the read is deleted as it is now (its postings, then it). A
   tombstone (already uncounted) is deleted instead, deferred beside the call's answer
   (calls.py); one a cut left behind goes with the next delete of the ID, or TTL.

Side data is only removed once the item is gone. The index record outlives the item until
the postings it names are deleted, and its removal is the decrement: a delete cut off
anywhere after its DeleteItem is finished by the next delete of that ID (the resend, which
the write marks send here): stage 1 finds the record (and ratings) without an item and
stages 3-4 run for them, so postings go and the stats drop exactly once.

The sweep adds a stage 0: the sparse `by_expiry` GSI, one Query per shard
(`exp_sk <= now`, oldest first, `Limit`), merged oldest first and cut to the limit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import cast

from shared.domain import ExpiredMemory, Memory, MemoryId
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
    key,
    memory_key,
    memory_pk,
    n,
    opt_s,
    rating_guard_key,
    s,
)
from shared.storage.dynamo.memory_items import (
    EXPIRY_SHARDS,
    expiry_pk,
    memory_item,
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


class MemoryDeleter:
    def __init__(self, calls: TableCalls, objects: EmbeddingVectors, max_retries: int) -> None:
        self._calls = calls
        self._objects = objects
        self._max_retries = max_retries

    def delete(
        self, tenant: str, ids: Sequence[MemoryId], now_us: int, read: Mapping[MemoryId, Memory]
    ) -> list[MemoryId]:
        unique = list(dict.fromkeys(ids))
        known = {(tenant, m): read[m] for m in unique if m in read}
        deleted = self._delete([(tenant, memory_id) for memory_id in unique], now_us, known)
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
        deleted = self._delete(refs, now_us, {}, expired_only=True)
        return [
            ExpiredMemory(tenant, memory_id)
            for tenant, memory_id in refs
            if (tenant, memory_id) in deleted
        ]

    # --- the three stages ---------------------------------------------------------------

    def _delete(
        self,
        refs: list[Ref],
        now_us: int,
        known: Mapping[Ref, Memory],
        *,
        expired_only: bool = False,
    ) -> dict[Ref, Item]:
        """Delete the memories of `refs`; returns the items this call deleted. A memory of
        `known` (as the caller read it) is deleted in the first attempt side by side with
        the partition Query, in one transaction with its record's tombstone and the stats
        decrement: conditioned on the version read, which every rating moves, so the Query
        — before or after it — sees every rating record the memory had when it went (none
        can follow: a rating needs the item)."""
        deleted: dict[Ref, Item] = {}
        cleanup: list[tuple[Ref, Item | None, _Found]] = []
        tombstones: set[Ref] = set()
        pending = refs
        for attempt in range(self._max_retries + 1):
            if not pending:
                break
            if attempt:
                self._calls.backoff.wait(attempt)
            early = [ref for ref in pending if ref in known] if attempt == 0 else []
            found, early_outcomes = self._read_beside(pending, early, known, now_us)
            for ref, outcome in zip(early, early_outcomes, strict=True):
                if outcome.deleted is not None:
                    deleted[ref] = outcome.deleted
                    cleanup.append((ref, outcome.deleted, found[ref]))
                    tombstones.add(ref)
            failed = {ref for ref, o in zip(early, early_outcomes, strict=True) if o.moved}
            targets: list[tuple[Ref, _Found]] = []
            for ref in pending:
                partition = found[ref]
                if ref in early and ref not in failed:
                    continue  # deleted on the caller's version, or the DeleteItem failed
                if partition.item is None:
                    if partition.ratings or partition.record:  # left by a cut-off delete
                        cleanup.append((ref, None, partition))
                elif ref in failed:
                    targets.append((ref, partition))  # moved since the caller read it
                elif not expired_only or not is_live(partition.item, now_us):
                    targets.append((ref, partition))
            outcomes = self._calls.round_trips.run(
                [partial(self._delete_item, ref, partition.item) for ref, partition in targets]
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
        self._clean_up(cleanup, tombstones)
        return deleted

    def _read_beside(
        self, refs: list[Ref], early: list[Ref], known: Mapping[Ref, Memory], now_us: int
    ) -> tuple[dict[Ref, _Found], list[_Outcome]]:
        """Stage 1, with the transactions of `early` (on their known versions) beside it."""
        if not early:
            return self._read(refs), []
        counting = Counting(self._calls, [_tombstone(ref, known[ref], now_us) for ref in early])
        round_trips = self._calls.round_trips
        tasks: list[Callable[[], object]] = [
            partial(self._read, refs),
            partial(round_trips.run, counting.tasks()),
        ]
        found, counted = round_trips.side_by_side(tasks)
        outcomes = counting.finish(cast(list[dict[Ref, Counted]], counted))
        return cast(dict[Ref, _Found], found), [
            _Outcome(deleted=_item_of(known[ref]))
            if outcomes[ref].outcome is Outcome.DONE
            else _Outcome(moved=True)  # moved, its record not as read, or unknown: read again
            for ref in early
        ]

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

    def _delete_item(self, ref: Ref, item: Item | None) -> _Outcome:
        assert item is not None
        return self._delete_version(ref, get_n(item, "version"))

    def _delete_version(self, ref: Ref, version: int) -> _Outcome:
        tenant, memory_id = ref
        try:
            response = self._calls.client.delete_item(
                TableName=self._calls.table,
                Key=memory_key(tenant, memory_id),
                ConditionExpression="#version = :version",
                ExpressionAttributeNames={"#version": "version"},
                ExpressionAttributeValues={":version": n(version)},
                ReturnValues="ALL_OLD",
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AWS_ERRORS as exc:
            if error_code(exc) != _CONDITION_FAILED:
                _log.error("delete: memory %s of %s: %s", memory_id, tenant, exc)
                return _Outcome()
            # Changed since the read, or gone (another delete won): read it again.
            return _Outcome(moved=True)
        old = response.get("Attributes")
        return _Outcome(deleted=dict(old)) if old else _Outcome()

    def _clean_up(
        self, cleanup: list[tuple[Ref, Item | None, _Found]], tombstones: set[Ref]
    ) -> None:
        """Stage 3: ratings, guards, postings, embeddings; stage 4: the index records with
        their stats decrement — or, for tombstones (uncounted with their item), their
        delete, deferred beside the call's answer (calls.py)."""
        requests: dict[tuple[str, str], tuple[Ref, Item]] = {}

        def remove(ref: Ref, target: Item) -> None:
            requests[(target[PK]["S"], target[SK]["S"])] = (ref, {"DeleteRequest": {"Key": target}})

        objects: list[str] = []
        for ref, item, partition in cleanup:
            tenant, memory_id = ref
            for record in partition.ratings:
                remove(ref, key(get_s(record, PK), get_s(record, SK)))
                remove(ref, rating_guard_key(tenant, get_n(record, "insert_id")))
            if partition.record is not None:
                for posting_key in key_items(partition.record.posting_keys()):
                    remove(ref, posting_key)
            if item is None:
                continue
            for posting_key in stored_posting_keys(item):
                remove(ref, posting_key)
            s3_key = opt_s(item, "embedding_key")
            if s3_key is not None:
                objects.append(s3_key)
        write = BatchWrite(self._calls, list(requests.values()))
        vector_deletes = [partial(self._objects.delete, objects)] if objects else []
        _, outcomes = run_groups(self._calls.round_trips, [vector_deletes, write.tasks()])
        left = write.finish(outcomes)
        for tenant, memory_id in sorted(left, key=str):
            _log.error("delete: ratings/postings of %s (%s) left behind", memory_id, tenant)
        # The record goes last: until its postings are gone it is what names them.
        records = {
            ref: partition.record
            for ref, _, partition in cleanup
            if partition.record is not None and ref not in left
        }
        gone = {ref for ref, r in records.items() if r.gone} | (tombstones - left)
        defer(self._calls.round_trips, [partial(_drop_tombstone, self._calls, r) for r in gone])
        self._uncount({ref: r for ref, r in records.items() if ref not in gone})

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
