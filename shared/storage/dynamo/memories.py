"""Creating memories (put_memories).

For the whole batch ONE stage: per memory whose ID is not fresh the conditional PutItem,
the embeddings (S3 Vectors PutVectors, one per index and 500 vectors), the items of fresh
memories and the postings of all memories (BatchWriteItem, chunks of 25, fresh items
first) and, per touched memory-stats shard, one TransactWriteItems of the memories' index
records (absent before) with the shard's ADD (memory_records.py: counted == recorded, so
no stats are counted twice). Only if something failed, an undo stage removes what the
failed memories wrote (and restores the postings of an existing memory a duplicate ID
overwrote; uncounts a record only if this write put it), so that a failed entry leaves
nothing behind. Replace: memory_replace.py.

Invariants:
- An item is written unconditionally only if its ID is fresh (`NewMemory.fresh`: straight
  from the counter, which never hands out an ID twice); every other item is a PutItem
  conditional on its absence, so a duplicate ID fails its entry and never overwrites.
- A fresh memory whose BatchWriteItem chunk failed (or stayed unprocessed after the
  retries) may have been written in part: its undo deletes its item (conditional on this
  write's `write_id`) and its postings, whatever of them had landed.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from shared.domain import (
    EntryFailure,
    EntryFailureCode,
    Memory,
    MemoryId,
    NewMemory,
)
from shared.storage.dynamo.calls import (
    AWS_ERRORS,
    ITEM_MAX_BYTES,
    BatchWrite,
    StorageUnavailable,
    TableCalls,
    error_code,
    item_size_bound,
    run_groups,
)
from shared.storage.dynamo.embeddings import EmbeddingVectors, VectorWrite, vector_ref
from shared.storage.dynamo.index_writer import Count, Counting, Outcome
from shared.storage.dynamo.items import (
    PK,
    SK_MEMORY,
    Item,
    key,
    memory_key,
    opt_s,
    s,
)
from shared.storage.dynamo.memory_items import (
    key_id,
    memory_from_item,
    memory_item,
    posting_diff,
    posting_keys,
    posting_puts,
)
from shared.storage.dynamo.memory_records import (
    IndexRecord,
    count_delete,
    count_put,
    record_of,
)

_log = logging.getLogger(__name__)

_CONDITION_FAILED = "ConditionalCheckFailedException"
_INDEX_FAILED = "search index not updated; send the entry again"
_BATCH_FAILED = "item or search index not written; send the entry again"


@dataclass(frozen=True)
class _NewWrite:
    index: int
    memory: Memory
    item: Item
    write_id: str
    s3_key: str | None
    body: bytes | None
    postings: list[Item] = field(default_factory=list)
    # Fresh, and small enough: the item goes in a BatchWriteItem chunk, unconditionally.
    fresh: bool = False


@dataclass(frozen=True)
class _Step:
    """What one call achieved."""

    ok: bool
    detail: str = ""
    # The item write failed its condition: another memory owns the ID (its item, if the
    # service returned it), so there is no item to undo, but postings to restore.
    exists: bool = False
    existing: Item | None = None


_OK = _Step(ok=True)


def _new_record(write: _NewWrite) -> IndexRecord:
    return record_of(write.memory, version=write.memory.version, write_id=write.write_id)


def _new_count(write: _NewWrite) -> Count[int]:
    """The new memory's index record, counted with it (absent before: else REFUSED)."""
    return count_put(write.index, _new_record(write), 1, write.memory.doc_len, None)


class MemoryWriter:
    def __init__(self, calls: TableCalls, objects: EmbeddingVectors) -> None:
        self._calls = calls
        self._objects = objects

    # --- put ----------------------------------------------------------------------------

    def put(self, memories: Sequence[NewMemory]) -> list[EntryFailure | None]:
        results: list[EntryFailure | None] = [None] * len(memories)
        writes: list[_NewWrite] = []
        seen: set[tuple[str, MemoryId]] = set()
        for index, new in enumerate(memories):
            m = new.memory
            if (m.tenant, m.id) in seen:  # the first one wins, deterministically, before I/O
                detail = f"memory {m.id} exists (twice in one batch)"
                results[index] = EntryFailure(EntryFailureCode.STORAGE, detail)
                continue
            seen.add((m.tenant, m.id))
            write_id = uuid.uuid4().hex
            body = None if new.embedding is None else bytes(new.embedding)
            s3_key = None if body is None else vector_ref(m, len(body) // 4, write_id)
            item = memory_item(m, write_id=write_id, embedding_key=s3_key)
            postings = posting_puts(m)
            # An oversized item would fail its whole chunk: it goes alone, and fails alone.
            batch = new.fresh and item_size_bound(item) <= ITEM_MAX_BYTES
            writes.append(_NewWrite(index, m, item, write_id, s3_key, body, postings, batch))
        if not writes:
            return results

        checked = [w for w in writes if not w.fresh]
        batched = BatchWrite(
            self._calls,
            [(w.index, {"PutRequest": {"Item": w.item}}) for w in writes if w.fresh]
            + [(w.index, r) for w in writes for r in w.postings],
        )
        counts = Counting(self._calls, [_new_count(w) for w in writes])
        vectors = self._objects.batches(
            [
                VectorWrite(w.memory, w.s3_key, w.body)
                for w in writes
                if w.s3_key is not None and w.body is not None
            ]
        )
        item_steps, vector_steps, batch_outcomes, count_outcomes = run_groups(
            self._calls.round_trips,
            [
                [partial(self._put_item, w) for w in checked],
                [partial(self._put_vectors, batch) for batch in vectors],
                batched.tasks(),
                counts.tasks(),
            ],
        )
        failed_batch = batched.finish(batch_outcomes)
        steps = {w.index: step for w, step in zip(checked, item_steps, strict=True)}
        counted = counts.finish(count_outcomes)
        by_ref = {
            v.ref: step for batch, step in zip(vectors, vector_steps, strict=True) for v in batch
        }
        s3_by_index = {w.index: by_ref[w.s3_key] for w in writes if w.s3_key in by_ref}

        failed: list[tuple[_NewWrite, _Step, bool]] = []
        for w in writes:
            item_step = steps.get(w.index, _OK)
            s3_step = s3_by_index.get(w.index, _OK)
            # REFUSED: a record was there (an earlier send of this entry counted it, or
            # the ID exists, which the item put reports); FAILED: maybe applied, undone.
            count = counted[w.index].outcome
            stats_ok = count is not Outcome.FAILED
            if item_step.ok and s3_step.ok and stats_ok and w.index not in failed_batch:
                continue
            if not item_step.ok:
                detail = item_step.detail
            elif not s3_step.ok:
                detail = s3_step.detail
            elif w.fresh and w.index in failed_batch:
                detail = f"memory {w.memory.id}: {_BATCH_FAILED}"
            else:
                detail = f"memory {w.memory.id}: {_INDEX_FAILED}"
            results[w.index] = EntryFailure(EntryFailureCode.STORAGE, detail)
            failed.append((w, item_step, count is not Outcome.REFUSED))
        if failed:
            self._undo_puts(failed)
        return results

    def _put_item(self, write: _NewWrite) -> _Step:
        try:
            self._calls.client.put_item(
                TableName=self._calls.table,
                Item=write.item,
                ConditionExpression="attribute_not_exists(#pk)",
                ExpressionAttributeNames={"#pk": PK},
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AWS_ERRORS as exc:
            if error_code(exc) == _CONDITION_FAILED:
                existing = getattr(exc, "response", {}).get("Item")
                if existing is not None and opt_s(existing, "write_id") == write.write_id:
                    return _OK  # our own write, resent by botocore after a timeout
                detail = f"memory {write.memory.id} exists"
                return _Step(ok=False, detail=detail, exists=True, existing=existing)
            _log.warning("put_memories: item %s: %s", write.memory.id, exc)
            return _Step(ok=False, detail=f"memory {write.memory.id}: {error_code(exc)}")
        return _OK

    def _put_vectors(self, batch: list[VectorWrite]) -> _Step:
        failure = self._objects.put_batch(batch)
        return _OK if failure is None else _Step(ok=False, detail=failure)

    def _undo_puts(self, failed: list[tuple[_NewWrite, _Step, bool]]) -> None:
        """Remove what failed memories wrote. A duplicate ID overwrote postings of the
        existing memory: those are put back from its item (ALL_OLD, else read)."""
        existing = {w.index: step.existing for w, step, _ in failed if step.exists}
        unknown = {
            memory_key(w.memory.tenant, w.memory.id)[PK]["S"]: w.index
            for w, step, _ in failed
            if step.exists and step.existing is None and w.postings
        }
        if unknown:  # the service did not return the existing item: read it
            try:
                items = self._calls.batch_get([key(pk, SK_MEMORY) for pk in unknown])
            except (*AWS_ERRORS, StorageUnavailable) as exc:
                _log.error("put_memories: cannot read existing memories to restore: %s", exc)
                items = []
            for item in items:
                existing[unknown[item[PK]["S"]]] = item

        calls: list[Callable[[], None]] = []
        requests: list[tuple[int, Item]] = []
        uncounts: list[Count[int]] = []
        for w, step, recorded in failed:
            m = w.memory
            if not step.exists:
                calls.append(partial(self._delete_own_item, w))
            if recorded:  # our record, if it was written (conditioned on this write)
                uncounts.append(count_delete(w.index, _new_record(w)))
            ours = {key_id(k) for k in posting_keys(m)}
            stored = existing.get(w.index) if step.exists else None
            if ours and step.exists and stored is None:
                _log.error("put_memories: postings of existing %s may hold our values", m.id)
                continue
            # Ours deleted; where one overwrote the existing memory's, that one put back.
            other = None if stored is None else memory_from_item(stored)
            requests += [(w.index, r) for r in posting_diff(ours, other, only=ours)]
        refs = [w.s3_key for w, _, _ in failed if w.s3_key is not None]
        if refs:
            calls.append(partial(self._objects.delete, refs))
        postings = BatchWrite(self._calls, requests)
        counting = Counting(self._calls, uncounts)
        _, posting_outcomes, count_outcomes = run_groups(
            self._calls.round_trips, [calls, postings.tasks(), counting.tasks()]
        )
        left = postings.finish(posting_outcomes)
        if left:
            _log.error("put_memories: could not undo postings of %d memories", len(left))
        uncounted = counting.finish(count_outcomes).values()
        if any(c.outcome is Outcome.FAILED for c in uncounted):
            _log.error("put_memories: memory stats could not be corrected")

    def _delete_own_item(self, write: _NewWrite) -> None:
        try:
            self._calls.client.delete_item(
                TableName=self._calls.table,
                Key=memory_key(write.memory.tenant, write.memory.id),
                ConditionExpression="#write_id = :write_id",
                ExpressionAttributeNames={"#write_id": "write_id"},
                ExpressionAttributeValues={":write_id": s(write.write_id)},
            )
        except AWS_ERRORS as exc:
            if error_code(exc) != _CONDITION_FAILED:  # failed: not ours, or never written
                _log.error("put_memories: could not undo item %s: %s", write.memory.id, exc)
