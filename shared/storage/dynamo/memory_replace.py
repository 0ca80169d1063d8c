"""Replacing memories (replace_memories, for update_brain_memories).

Per batch, at most three stages:
1. only with new embeddings: S3 Vectors PutVectors under fresh keys (the item must never name an
   object that does not exist);
2. per memory one UpdateItem of the replaced attributes, conditioned on the version the
   caller read and on not being expired (`ReturnValues=ALL_OLD`: the stored old version);
   created time, scores, last_call and write_id are not touched, the version is bumped;
3. side by side: the postings diff (delete old-only terms, put every new term), one
   UpdateItem per touched stats shard, DeleteVectors of replaced/removed embeddings (and
   of the fresh object of a memory whose condition failed).
A memory whose condition fails gets NOT_FOUND (missing or expired) or CONFLICT (version
moved) and nothing of it is written. If postings still fail after the retries, the memory
reports STORAGE and the keys of its old-only postings are recorded (`stale_postings`) so the
next write heals them.
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
    MemoryId,
    MemoryReplace,
)
from shared.storage.dynamo.calls import AWS_ERRORS, BatchWrite, TableCalls, error_code, run_groups
from shared.storage.dynamo.embeddings import EmbeddingVectors, VectorWrite, vector_ref
from shared.storage.dynamo.items import (
    PK,
    Item,
    get_n,
    is_live,
    js,
    memory_key,
    n,
    opt_s,
    s,
)
from shared.storage.dynamo.memory_index import StatsDelta, failed_shards
from shared.storage.dynamo.memory_items import (
    REPLACED_ATTRIBUTES,
    is_indexed,
    key_deletes,
    key_id,
    memory_item,
    posting_keys,
    posting_puts,
    stored_posting_keys,
    update_expression,
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

        # New embeddings first, under fresh keys: the item must never name a missing object.
        batches = self._objects.batches(
            [
                VectorWrite(p.change.memory, p.s3_key, bytes(p.change.embedding))
                for p in plans
                if p.s3_key is not None and p.change.embedding is not None
            ]
        )
        stored = self._calls.round_trips.run([partial(self._objects.put_batch, b) for b in batches])
        failures = {v.ref: f for b, f in zip(batches, stored, strict=True) for v in b if f}
        for p in plans:
            if p.s3_key in failures:
                results[p.index] = EntryFailure(EntryFailureCode.STORAGE, failures[p.s3_key])
        runnable = [p for p in plans if results[p.index] is None]
        outcomes = self._calls.round_trips.run(
            [partial(self._update_item, p, now_us) for p in runnable]
        )

        requests: list[tuple[int, Item]] = []
        stats = StatsDelta()
        objects: list[str] = []
        done: list[tuple[_Replace, Item]] = []
        for p, outcome in zip(runnable, outcomes, strict=True):
            m = p.change.memory
            if isinstance(outcome, EntryFailure):
                results[p.index] = outcome
                if p.s3_key is not None:
                    objects.append(p.s3_key)
                continue
            done.append((p, outcome))
            new_keys = {key_id(k) for k in posting_keys(m)}
            old_only = [k for k in stored_posting_keys(outcome) if key_id(k) not in new_keys]
            requests += [(p.index, r) for r in key_deletes(old_only)]
            requests += [(p.index, r) for r in posting_puts(m)]
            if is_indexed(outcome):
                stats.add(m.tenant, m.id, 0, m.doc_len - get_n(outcome, "doc_len"))
            else:  # stored before the memory index existed: it joins the index now
                stats.add(m.tenant, m.id, 1, m.doc_len)
            old_key = opt_s(outcome, "embedding_key")
            if old_key is not None and p.change.embedding_change is not EmbeddingChange.KEEP:
                objects.append(old_key)
        postings = BatchWrite(self._calls, requests)
        shards, stats_tasks = stats.tasks(self._calls)
        vector_deletes = [partial(self._objects.delete, objects)] if objects else []
        _, posting_outcomes, stats_outcomes = run_groups(
            self._calls.round_trips,
            [vector_deletes, postings.tasks(), stats_tasks],
        )
        failed = postings.finish(posting_outcomes)
        for shard in failed_shards(shards, stats_outcomes):
            _log.error("replace_memories: memory stats shard %s missed its delta", shard)
        marks = []
        for p, old in done:
            if p.index in failed:
                detail = f"memory {p.change.memory.id}: {_INDEX_FAILED}"
                results[p.index] = EntryFailure(EntryFailureCode.STORAGE, detail)
                marks.append(partial(self._mark_stale_terms, p.change, old))
        self._calls.round_trips.run(marks)
        return results

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

    def _mark_stale_terms(self, change: MemoryReplace, old: Item) -> None:
        """Best effort: record the old version's posting keys the new one does not have
        (`stale_postings`), so that the next write deletes them even though this one
        could not."""
        m = change.memory
        new_keys = {key_id(k) for k in posting_keys(m)}
        stale = sorted({key_id(k) for k in stored_posting_keys(old) if key_id(k) not in new_keys})
        if not stale:
            return
        try:
            self._calls.client.update_item(
                TableName=self._calls.table,
                Key=memory_key(m.tenant, m.id),
                UpdateExpression="SET #stale = :stale",
                ConditionExpression="#version = :version",
                ExpressionAttributeNames={"#stale": "stale_postings", "#version": "version"},
                ExpressionAttributeValues={
                    ":stale": js([list(pair) for pair in stale]),
                    ":version": n(change.previous.version + 1),
                },
            )
        except AWS_ERRORS as exc:
            _log.error(  # the count only: posting keys hold stems of the memory text
                "memory %s: stale postings left for %d keys: %s",
                m.id,
                len(stale),
                type(exc).__name__,
            )
