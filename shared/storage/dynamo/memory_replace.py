"""Replacing memories (replace_memories, for update_brain_memories).

The caller's snapshot (`MemoryReplace.previous`, what it read) is the old version: every
write below is conditioned on it. Per batch one stage, side by side:
1. per stats shard one TransactWriteItems (`write_index`): per memory the item's Update of the
   replaced attributes (condition: the version and `embedding_key` read, not expired;
   created time, scores, last_call and write_id untouched, the version bumped) and its
   index record's Update conditioned on counting exactly the snapshot (its area, doc_len
   and terms, no `stale`), which records the new version and names as `stale` the old
   version's posting keys the new one lacks; plus the stats ADD of the length change.
   Item, record and stats move together or not at all;
2. the postings: delete the stale keys, put every posting of the new version;
3. only with new embeddings, S3 Vectors PutVectors under fresh keys (an item may name its
   fresh vector a moment before it exists; if PutVectors fails, the memory reports STORAGE
   and its resend writes a fresh one).
Deferred (`TableCalls.defer`: beside the call record's answer): once the postings are
complete the record's `stale` is removed, and the replaced vector is deleted.

- Item refused: the memory is missing or expired (NOT_FOUND) or its version moved
  (CONFLICT: the service reads again); the postings it changed are put back as the stored
  item has them and its fresh vector is deleted (an undo stage, only then).
- Record refused (it does not count the snapshot: postings of a failed or cut-off replace
  still `stale`, a snapshot that is not the stored item): the transaction is sent again
  conditioned on the record it returned (its version; absent, though the insert writes
  item and record together), deleting the record's posting keys too and counting from
  its doc_len.
- Postings failing after the retries: STORAGE ("send the update again"); the record keeps
  `stale`, so the resend or the next write (replace, reindex, delete) deletes them.
- Cut off anywhere: before the transaction, the item and record are the old version and
  the resend runs the same diff; after it, the record names the new postings and the stale
  ones, and the resend (record refused: `stale`) deletes what is left and clears them.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from typing import Any

from boto3.dynamodb.conditions import Attr

from shared.domain import (
    EmbeddingChange,
    EntryFailure,
    EntryFailureCode,
    Memory,
    MemoryId,
    MemoryReplace,
)
from shared.storage.dynamo.calls import AWS_ERRORS, TableCalls
from shared.storage.dynamo.embeddings import EmbeddingVectors, VectorWrite, vector_ref
from shared.storage.dynamo.index_writer import Count, Outcome, write_index
from shared.storage.dynamo.items import (
    PK,
    Item,
    action,
    expression,
    is_live,
    memory_key,
    to_us,
    unexpired,
)
from shared.storage.dynamo.memory_items import (
    REPLACED_ATTRIBUTES,
    key_id,
    memory_from_item,
    memory_item,
    posting_diff,
    posting_keys,
)
from shared.storage.dynamo.memory_records import (
    PLAIN,
    STALE,
    IndexRecord,
    KeyId,
    count_put,
    counts_snapshot,
    memory_shard,
    record_from_item,
    record_item,
    record_key,
    record_of,
)

_log = logging.getLogger(__name__)

_INDEX_FAILED = "search index not updated; send the update again"


@dataclass(frozen=True)
class _Replace:
    index: int
    change: MemoryReplace
    s3_key: str | None  # the fresh object of EmbeddingChange.SET

    @property
    def new_keys(self) -> set[KeyId]:
        return {key_id(k) for k in posting_keys(self.change.memory)}

    @property
    def old_keys(self) -> set[KeyId]:
        return {key_id(k) for k in posting_keys(self.change.previous)}


class _Snapshot:
    """The record as the snapshot implies it (first attempt: it counts the old version)."""


_SNAPSHOT = _Snapshot()
Known = IndexRecord | None | _Snapshot  # the record as returned (None: absent)


class MemoryReplacer:
    def __init__(self, calls: TableCalls, objects: EmbeddingVectors) -> None:
        self._calls = calls
        self._objects = objects

    def replace(
        self, replaces: Sequence[MemoryReplace], now: datetime
    ) -> list[EntryFailure | None]:
        now_us = to_us(now)
        for r in replaces:  # programming errors surface before anything is written
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
        if plans:
            _Run(self, plans, results, now_us).run()
        return results


@dataclass
class _Run:
    """One batch's attempts: the transactions, the postings beside them, what follows."""

    replacer: MemoryReplacer
    plans: list[_Replace]
    results: list[EntryFailure | None]
    now_us: int

    def run(self) -> None:
        calls, objects = self.replacer._calls, self.replacer._objects
        batches = objects.batches(
            [
                VectorWrite(p.change.memory, p.s3_key, bytes(p.change.embedding))
                for p in self.plans
                if p.s3_key is not None and p.change.embedding is not None
            ]
        )
        vectors: list[Callable[[], Any]] = [partial(objects.put_batch, b) for b in batches]
        known: dict[int, Known] = {p.index: _SNAPSHOT for p in self.plans}
        deleted: dict[int, set[KeyId]] = {p.index: set() for p in self.plans}
        stale: dict[int, frozenset[KeyId]] = {}  # done: the keys its record names stale
        recorded: dict[int, frozenset[KeyId]] = {}
        incomplete: set[int] = set()
        refused: list[tuple[_Replace, Item | None]] = []
        pending = list(self.plans)
        vector_failures: dict[str, str] = {}
        for attempt in range(calls.max_attempts):
            if not pending:
                break
            counts, requests = [], []
            for p in pending:
                keys = self._stale(p, known[p.index])
                recorded[p.index] = frozenset(keys)
                counts.append(self._count(p, known[p.index], recorded[p.index]))
                new = p.change.memory if attempt == 0 else None  # its puts: once
                requests += [(p.index, r) for r in posting_diff(keys - deleted[p.index], new)]
                deleted[p.index] |= keys
            outcomes, unindexed, stored = write_index(calls, counts, requests, beside=vectors)
            if attempt == 0:
                pairs = zip(batches, stored, strict=True)
                vector_failures = {v.ref: f for b, f in pairs for v in b if f}
            vectors = []
            incomplete |= unindexed
            retry = []
            for p in pending:
                outcome = outcomes[p.index]
                if outcome.outcome is Outcome.DONE:
                    stale[p.index] = recorded[p.index]
                elif outcome.outcome is Outcome.FAILED:  # applied or not: the resend knows
                    self.results[p.index] = _index_failed(p)
                elif 0 in outcome.also_refused:
                    refused.append((p, outcome.also_refused[0]))
                else:
                    item = outcome.item
                    known[p.index] = None if item is None else record_from_item(item)
                    retry.append(p)
            pending = retry
        for p in pending:
            self.results[p.index] = _index_failed(p)
        self._undo(refused, deleted)
        self._cleanup([p for p in self.plans if p.index in stale], stale, incomplete)
        for p in self.plans:
            if p.index not in stale:
                continue
            if p.s3_key in vector_failures:
                failure = vector_failures[p.s3_key]
                self.results[p.index] = EntryFailure(EntryFailureCode.STORAGE, failure)
            elif p.index in incomplete:
                self.results[p.index] = _index_failed(p)

    def _stale(self, p: _Replace, record: Known) -> set[KeyId]:
        """The posting keys to delete: every key that may exist beyond the new version's."""
        possible = set(p.old_keys)
        if isinstance(record, IndexRecord):
            possible |= record.posting_keys()
        return possible - p.new_keys

    def _count(self, p: _Replace, record: Known, stale: frozenset[KeyId]) -> Count[int]:
        """The item's Update with the record's action and the stats change."""
        m, previous = p.change.memory, p.change.previous
        version = previous.version + 1
        item = self._item_update(p)
        if isinstance(record, _Snapshot):
            new = record_of(m, version=version, write_id="")
            return _snapshot_update(p.index, new, stale, previous, item)
        write_id = "" if record is None else record.write_id
        new = replace(record_of(m, version=version, write_id=write_id), stale=stale)
        documents, total = (1, m.doc_len) if record is None else (0, m.doc_len - record.doc_len)
        expected = None if record is None else record.version
        return replace(count_put(p.index, new, documents, total, expected), also=(item,))

    def _item_update(self, p: _Replace) -> Item:
        """The memory item's conditional Update (a TransactItem)."""
        m, previous = p.change.memory, p.change.previous
        full = memory_item(m, write_id="", embedding_key=None)
        sets = {name: PLAIN.deserialize(full[name]) for name in REPLACED_ATTRIBUTES if name in full}
        removes = [name for name in REPLACED_ATTRIBUTES if name not in full]
        sets["version"] = previous.version + 1
        if p.s3_key is not None:
            sets["embedding_key"] = p.s3_key
        elif p.change.embedding_change is EmbeddingChange.REMOVE:
            removes.append("embedding_key")
        condition = Attr(PK).exists() & Attr("version").eq(previous.version)
        condition &= unexpired(self.now_us)
        if p.change.embedding_change is not EmbeddingChange.KEEP:  # the vector deleted after
            was = previous.embedding_key
            key = Attr("embedding_key")
            condition &= key.not_exists() if was is None else key.eq(was)
        update = expression(condition, put=sets, remove=removes)
        return action("Update", all_old=True, Key=memory_key(m.tenant, m.id), **update)

    def _undo(
        self, refused: list[tuple[_Replace, Item | None]], deleted: dict[int, set[KeyId]]
    ) -> None:
        """Refused items: NOT_FOUND or CONFLICT; the postings this replace changed are put
        back as the stored item has them, its fresh vector deleted (one stage)."""
        requests: list[tuple[int, Item]] = []
        objects: list[str] = []
        for p, item in refused:
            m = p.change.memory
            live = item is not None and is_live(item, self.now_us)
            code = EntryFailureCode.CONFLICT if live else EntryFailureCode.NOT_FOUND
            self.results[p.index] = EntryFailure(code, f"memory {m.id} changed or gone")
            if p.s3_key is not None:
                objects.append(p.s3_key)
            current = memory_from_item(item) if item is not None and live else None
            touched = p.new_keys | deleted[p.index]
            undo = posting_diff(p.new_keys, current, only=touched)
            requests += [(p.index, r) for r in undo]
        if not requests and not objects:
            return
        tasks = [partial(self.replacer._objects.delete, objects)] if objects else []
        if write_index(self.replacer._calls, [], requests, beside=tasks)[1]:
            _log.warning("replace_memories: postings of a refused replace not restored")

    def _cleanup(
        self, done: list[_Replace], stale: dict[int, frozenset[KeyId]], incomplete: set[int]
    ) -> None:
        """Deferred: the records' `stale` removed where the postings are complete, the
        replaced vectors deleted (the items no longer name them)."""
        calls = self.replacer._calls
        tasks: list[Callable[[], object]] = [
            partial(_clear_stale, calls, p.change.memory, p.change.previous.version + 1)
            for p in done
            if stale[p.index] and p.index not in incomplete
        ]
        replaced = [
            p.change.previous.embedding_key
            for p in done
            if p.change.embedding_change is not EmbeddingChange.KEEP
            and p.change.previous.embedding_key is not None
        ]
        if replaced:
            tasks.append(partial(self.replacer._objects.delete, replaced))
        calls.defer(tasks)


def _snapshot_update(
    owner: int, new: IndexRecord, stale: frozenset[KeyId], snapshot: Memory, item: Item
) -> Count[int]:
    """The record's Update conditioned on counting exactly the snapshot: the stats change
    is the length's."""
    fields = record_item(replace(new, stale=stale))
    names = ("area", "doc_len", "terms", "version", *([STALE] if stale else []))
    sets = {name: PLAIN.deserialize(fields[name]) for name in names}
    update = expression(counts_snapshot(snapshot), put=sets)
    record = action("Update", all_old=True, Key=record_key(new.tenant, new.memory_id), **update)
    shard = memory_shard(new.tenant, new.memory_id)
    return Count(owner, shard, record, 0, new.doc_len - snapshot.doc_len, (item,))


def _clear_stale(calls: TableCalls, memory: Memory, version: int) -> None:
    """The record's `stale` removed, if it is still the version this replace recorded."""
    try:
        calls.client.update_item(
            TableName=calls.table,
            Key=record_key(memory.tenant, memory.id),
            **expression(Attr("version").eq(version), remove=(STALE,)),
        )
    except AWS_ERRORS as exc:  # the next write of the memory deletes them again
        _log.info("replace_memories: stale marks of %s kept: %s", memory.id, exc)


def _index_failed(p: _Replace) -> EntryFailure:
    return EntryFailure(EntryFailureCode.STORAGE, f"memory {p.change.memory.id}: {_INDEX_FAILED}")
