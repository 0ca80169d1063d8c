"""Replacing memories (replace_memories, for update_brain_memories).

Per batch, three stages:
1. side by side: only with new embeddings, S3 Vectors PutVectors under fresh keys; per
   memory one UpdateItem of the replaced attributes, conditioned on the version the
   caller read and on not being expired (`ReturnValues=ALL_OLD`: the stored old version);
   created time, scores, last_call and write_id are not touched, the version is bumped;
   one BatchGetItem of the memories' index records (memory_records.py). An item may name
   its fresh vector before the vector exists (as an insert's does); if PutVectors fails,
   the memory reports STORAGE and its resend writes a fresh vector (a vector query never
   finds a missing vector, a delete of one is harmless). A memory whose UpdateItem fails
   has its fresh vector deleted in stage 2;
2. side by side: the postings — delete every key the old item or the index record names
   that the new version lacks, put every new posting — and DeleteVectors of
   replaced/removed embeddings (and of the fresh object of a memory whose condition failed);
3. per stats shard one TransactWriteItems: the new index records (condition: the record
   as read, or absent) with the stats delta from what the record counted (no record:
   nothing) to the new version; only for memories whose postings are complete. A refused
   record is read again and the delta recomputed.
A memory whose condition fails gets NOT_FOUND (missing or expired) or CONFLICT (version
moved) and nothing of it is written. If postings still fail after the retries, the memory
reports STORAGE and its record stays as it was: it still names the postings the old
version had, so the resend or the next write deletes them.

Cut off anywhere after stage 1's UpdateItem, the memory is the new version and its record still says
what the stats count and (with the old item the resend's UpdateItem returns) which
postings may exist. The resend re-runs the update (same content, version + 1): it deletes
what the record or the old item name beyond the new version, puts the new postings and
applies the stats delta from the record — exactly once, as the record moves with it.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from shared.domain import (
    EmbeddingChange,
    EntryFailure,
    EntryFailureCode,
    Memory,
    MemoryId,
    MemoryReplace,
)
from shared.storage.dynamo.calls import (
    AWS_ERRORS,
    BatchWrite,
    StorageUnavailable,
    TableCalls,
    error_code,
    run_groups,
)
from shared.storage.dynamo.embeddings import EmbeddingVectors, VectorWrite, vector_ref
from shared.storage.dynamo.items import (
    PK,
    Item,
    get_n,
    is_live,
    memory_key,
    n,
    opt_s,
    s,
)
from shared.storage.dynamo.memory_items import (
    REPLACED_ATTRIBUTES,
    key_deletes,
    key_id,
    memory_item,
    posting_keys,
    posting_puts,
    stored_posting_keys,
    update_expression,
)
from shared.storage.dynamo.memory_records import (
    Count,
    Counting,
    IndexRecord,
    Outcome,
    count_put,
    key_items,
    record_from_item,
    record_key,
    record_of,
)

_log = logging.getLogger(__name__)

_CONDITION_FAILED = "ConditionalCheckFailedException"
_INDEX_FAILED = "search index not updated; send the update again"


@dataclass(frozen=True)
class _Replace:
    index: int
    change: MemoryReplace
    s3_key: str | None  # the fresh object of EmbeddingChange.SET


class MemoryReplacer:
    def __init__(self, calls: TableCalls, objects: EmbeddingVectors) -> None:
        self._calls = calls
        self._objects = objects

    def replace(self, replaces: Sequence[MemoryReplace], now_us: int) -> list[EntryFailure | None]:
        for r in replaces:  # programming errors surface before anything is written
            if (r.previous.tenant, r.previous.id) != (r.memory.tenant, r.memory.id):
                raise ValueError(
                    f"replace must keep tenant and ID: {r.previous.tenant}/{r.previous.id}"
                    f" -> {r.memory.tenant}/{r.memory.id}"
                )
            if r.embedding_change is EmbeddingChange.SET and r.embedding is None:
                raise ValueError(f"EmbeddingChange.SET of {r.memory.id} without an embedding")
            memory_item(r.memory, write_id="", embedding_key=None)
        results: list[EntryFailure | None] = [None] * len(replaces)
        plans: list[_Replace] = []
        seen: set[tuple[str, MemoryId]] = set()
        for index, r in enumerate(replaces):
            m = r.memory
            if (m.tenant, m.id) in seen:  # the first applies; the later one read a stale version
                detail = f"memory {m.id} changed twice in one batch"
                results[index] = EntryFailure(EntryFailureCode.CONFLICT, detail)
                continue
            seen.add((m.tenant, m.id))
            s3_key = None
            if r.embedding_change is EmbeddingChange.SET and r.embedding is not None:
                s3_key = vector_ref(m, len(r.embedding) // 4, uuid.uuid4().hex)
            plans.append(_Replace(index, r, s3_key))

        # New embeddings under fresh keys, side by side with the items (module docstring).
        batches = self._objects.batches(
            [
                VectorWrite(p.change.memory, p.s3_key, bytes(p.change.embedding))
                for p in plans
                if p.s3_key is not None and p.change.embedding is not None
            ]
        )
        vectors = [partial(self._objects.put_batch, b) for b in batches]
        # Side by side with the vectors: an item names a vector that is still being written
        # (or failed: the memory then reports STORAGE, the resend writes a fresh one).
        updates = [partial(self._update_item, p, now_us) for p in plans]
        reads = [partial(self._read_records, [p.change.memory for p in plans])]
        stored, outcomes, read = run_groups(self._calls.round_trips, [vectors, updates, reads])
        records = read[0] if read else {}
        failures = {v.ref: f for b, f in zip(batches, stored, strict=True) for v in b if f}

        objects: list[str] = []
        done: list[tuple[_Replace, Item]] = []
        for p, outcome in zip(plans, outcomes, strict=True):
            m = p.change.memory
            if isinstance(outcome, EntryFailure):
                results[p.index] = outcome
                if p.s3_key is not None:
                    objects.append(p.s3_key)
                continue
            if records is None:  # the item is the new version; a resend completes the rest
                detail = f"memory {m.id}: {_INDEX_FAILED}"
                results[p.index] = EntryFailure(EntryFailureCode.STORAGE, detail)
            else:
                done.append((p, outcome))
            old_key = opt_s(outcome, "embedding_key")
            if old_key is not None and p.change.embedding_change is not EmbeddingChange.KEEP:
                objects.append(old_key)
        known: dict[MemoryId, IndexRecord] = records or {}
        requests: list[tuple[int, Item]] = []
        for p, old in done:
            record = known.get(p.change.memory.id)
            new_keys = {key_id(k) for k in posting_keys(p.change.memory)}
            possible = {key_id(k) for k in stored_posting_keys(old)}
            if record is not None:
                possible |= record.posting_keys()
            requests += [(p.index, r) for r in key_deletes(key_items(possible - new_keys))]
            requests += [(p.index, r) for r in posting_puts(p.change.memory)]
        postings = BatchWrite(self._calls, requests)
        vector_deletes = [partial(self._objects.delete, objects)] if objects else []
        _, posting_outcomes = run_groups(
            self._calls.round_trips, [vector_deletes, postings.tasks()]
        )
        failed = postings.finish(posting_outcomes)
        # The record follows only complete postings: until then it (with the item) names
        # what a resend or the next write must still delete.
        indexed = self._record([(p, old) for p, old in done if p.index not in failed], known)
        for p, _ in done:
            if p.s3_key in failures:
                results[p.index] = EntryFailure(EntryFailureCode.STORAGE, failures[p.s3_key])
            elif p.index in failed or p.index not in indexed:
                detail = f"memory {p.change.memory.id}: {_INDEX_FAILED}"
                results[p.index] = EntryFailure(EntryFailureCode.STORAGE, detail)
        return results

    def _read_records(self, memories: Sequence[Memory]) -> dict[MemoryId, IndexRecord] | None:
        """The index records of these memories (None: the read failed)."""
        try:
            items = self._calls.batch_get([record_key(m.tenant, m.id) for m in memories])
        except (*AWS_ERRORS, StorageUnavailable) as exc:
            _log.warning("replace_memories: index records not read: %s", error_code(exc))
            return None
        found = [record_from_item(item) for item in items]
        return {r.memory_id: r for r in found}

    def _record(
        self, done: list[tuple[_Replace, Item]], records: dict[MemoryId, IndexRecord]
    ) -> dict[int, IndexRecord]:
        """Stage 4: the new index records with their stats deltas (from what the record
        counted). A refused record (moved since the read) is read again and the delta
        recomputed; {index: the record now stored} — a newer version's, if one superseded
        ours. Missing: not recorded (the stats follow with the resend or the next write)."""
        plans = {p.index: (p, old) for p, old in done}
        current: dict[int, IndexRecord | None] = {
            p.index: records.get(p.change.memory.id) for p, _ in done
        }
        indexed: dict[int, IndexRecord] = {}
        pending = list(plans)
        for _ in range(self._calls.max_attempts):
            if not pending:
                break
            counts = [_recount(*plans[i], current[i]) for i in pending]
            outcomes = Counting(self._calls, counts).run()
            retry = []
            for c in counts:
                outcome = outcomes[c.owner]
                new = record_from_item(c.action["Put"]["Item"])
                if outcome.outcome is Outcome.DONE:
                    indexed[c.owner] = new
                elif outcome.outcome is Outcome.REFUSED:
                    stored = outcome.current or self._read_record(new)
                    if stored is None and current[c.owner] is not None:
                        # Only a delete removes records: the memory is gone, and the
                        # delete has uncounted it. Recording it again would count it.
                        indexed[c.owner] = new
                    elif stored is not None and stored.version >= new.version:
                        indexed[c.owner] = stored
                    else:
                        current[c.owner] = stored
                        retry.append(c.owner)
            pending = retry
        return indexed

    def _read_record(self, record: IndexRecord) -> IndexRecord | None:
        item = self._calls.get_item(record_key(record.tenant, record.memory_id))
        return None if item is None else record_from_item(item)

    def _update_item(self, plan: _Replace, now_us: int) -> Item | EntryFailure:
        """The conditional UpdateItem of one replace: the old item (ALL_OLD) or why not."""
        m, previous = plan.change.memory, plan.change.previous
        full = memory_item(m, write_id="", embedding_key=None)
        sets: dict[str, Any] = {name: full[name] for name in REPLACED_ATTRIBUTES if name in full}
        removes = [name for name in REPLACED_ATTRIBUTES if name not in full]
        sets["version"] = n(previous.version + 1)
        if plan.s3_key is not None:
            sets["embedding_key"] = s(plan.s3_key)
        elif plan.change.embedding_change is EmbeddingChange.REMOVE:
            removes.append("embedding_key")
        expression, names, values = update_expression(sets, removes)
        names.update({"#pk": PK, "#version": "version", "#expires": "expires_us"})
        values.update({":expected": n(previous.version), ":now": n(now_us)})
        try:
            response = self._calls.client.update_item(
                TableName=self._calls.table,
                Key=memory_key(m.tenant, m.id),
                UpdateExpression=expression,
                ConditionExpression=(
                    "attribute_exists(#pk) AND #version = :expected"
                    " AND (attribute_not_exists(#expires) OR #expires > :now)"
                ),
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=values,
                ReturnValues="ALL_OLD",
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AWS_ERRORS as exc:
            if error_code(exc) != _CONDITION_FAILED:
                _log.warning("replace_memories: %s: %s", m.id, exc)
                return EntryFailure(EntryFailureCode.STORAGE, f"memory {m.id}: {error_code(exc)}")
            response_body = getattr(exc, "response", {})
            try:
                current = (
                    response_body["Item"]
                    if "Item" in response_body
                    else self._calls.get_item(memory_key(m.tenant, m.id))
                )
            except AWS_ERRORS as read_error:
                return EntryFailure(EntryFailureCode.STORAGE, error_code(read_error))
            if current is None or not is_live(current, now_us):
                return EntryFailure(EntryFailureCode.NOT_FOUND, f"memory {m.id}")
            detail = (
                f"memory {m.id} is at version {get_n(current, 'version')}, not {previous.version}"
            )
            return EntryFailure(EntryFailureCode.CONFLICT, detail)
        return dict(response.get("Attributes", {}))


def _recount(plan: _Replace, old: Item, record: IndexRecord | None) -> Count[int]:
    """The new version's index record, conditioned on `record` (as read; None: absent),
    with the stats delta from what is counted now to the new version."""
    m = plan.change.memory
    if record is not None:
        documents, total, write_id = 1, record.doc_len, record.write_id
    else:
        documents, total, write_id = 0, 0, opt_s(old, "write_id") or ""
    new = record_of(m, version=plan.change.previous.version + 1, write_id=write_id)
    expected = None if record is None else record.version
    return count_put(plan.index, new, 1 - documents, m.doc_len - total, expected)
