"""Replacing memories (replace_memories; docs/dynamodb.md, "Memories: replace"). Per batch
one stage (`write_index`): the items' Updates (version bumped, `stale` = the old posting
keys the new version lacks), conditioned on the caller's snapshot (`MemoryReplace.previous`,
which the item indexes exactly), with the stats ADD ‖ the postings diff ‖ PutVectors under
fresh keys. Deferred: once the postings are complete `stale` is removed and the replaced
vector deleted.

Invariants:
- Item and stats move together or not at all; the item names every posting that may
  exist (its version's and `stale`), so a cut anywhere is repaired by the resend: before
  the transaction the item is the old version and the resend runs the same diff; after
  it, the resend is refused for `stale` and deletes what is left.
- Refused at the version read (`stale` of a failed or cut-off replace, or a snapshot that
  is not what the item indexes): sent again from the item it returned (ALL_OLD), deleting
  every key it names and counting from its doc_len. Refused otherwise: NOT_FOUND (gone or
  expired) or CONFLICT (moved); its postings are put back as the stored item has them and
  its fresh vector deleted (an undo stage, only then).
- Postings failing after the retries: STORAGE; the item keeps `stale` for the next write.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
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
from shared.storage.dynamo.index_writer import Count, KeyId, Outcome, postings_diff, write_index
from shared.storage.dynamo.items import (
    PK,
    Item,
    action,
    expression,
    get_n,
    is_live,
    memory_key,
    opt_s,
    plain,
    unexpired,
)
from shared.storage.dynamo.memory_items import (
    REPLACED_ATTRIBUTES,
    STALE,
    memory_from_item,
    memory_item,
    memory_shard,
    named_keys,
    posting_keys,
    postings,
    stale_attribute,
)
from shared.storage.values import to_us

_log = logging.getLogger(__name__)


@dataclass
class _Replace:
    index: int
    change: MemoryReplace
    s3_key: str | None  # the fresh object of EmbeddingChange.SET
    stored: Item | None = None  # the item a refusal at the version read returned
    deleted: set[KeyId] = field(default_factory=set)  # posting keys deleted so far
    stale: frozenset[KeyId] = frozenset()  # the keys the last Update names stale

    def moved(self, now_us: int) -> bool:
        """The stored item is not the version read (or gone): its refusal is final."""
        previous, change, stored = self.change.previous, self.change.embedding_change, self.stored
        if stored is None or not is_live(stored, now_us):
            return True
        vector = change is not EmbeddingChange.KEEP
        moved_vector = vector and opt_s(stored, "embedding_key") != previous.embedding_key
        return get_n(stored, "version") != previous.version or moved_vector


class MemoryReplacer:
    def __init__(self, calls: TableCalls, objects: EmbeddingVectors) -> None:
        self._calls = calls
        self._objects = objects

    def replace(
        self, replaces: Sequence[MemoryReplace], now: datetime
    ) -> list[EntryFailure | None]:
        results: list[EntryFailure | None] = [None] * len(replaces)
        plans: list[_Replace] = []
        seen: set[tuple[str, MemoryId]] = set()
        for index, r in enumerate(replaces):  # no I/O: programming errors surface first
            m = r.memory
            memory_item(m, write_id="", embedding_key=None)
            if (m.tenant, m.id) in seen:  # the first applies; the later one read a stale version
                detail = f"memory {m.id} changed twice in one batch"
                results[index] = EntryFailure(EntryFailureCode.CONFLICT, detail)
                continue
            seen.add((m.tenant, m.id))
            s3_key = None
            if r.embedding_change is EmbeddingChange.SET and r.embedding is not None:
                s3_key = vector_ref(m, len(r.embedding) // 4, uuid.uuid4().hex)
            plans.append(_Replace(index, r, s3_key))
        self._run(plans, results, to_us(now))
        return results

    def _run(self, plans: list[_Replace], results: list[EntryFailure | None], now_us: int) -> None:
        """One batch's attempts: the transactions, the postings beside them, what follows."""
        puts = [
            VectorWrite(p.change.memory, p.s3_key, bytes(p.change.embedding))
            for p in plans
            if p.s3_key is not None and p.change.embedding is not None
        ]
        vectors: list[Callable[[], Any]] = [*self._objects.put_tasks(puts)]
        incomplete: set[int] = set()
        refused: list[_Replace] = []
        pending = list(plans)
        vector_failures: dict[str, str] = {}  # from the first attempt (its vectors beside)
        for attempt in range(self._calls.max_attempts):
            if not pending:
                break
            counts, requests = [], []
            for p in pending:
                # every key that may exist beyond the new version's: the snapshot's, and
                # those the item a refusal returned names
                named = set() if p.stored is None else named_keys(p.stored)
                old = posting_keys(p.change.previous) | named
                p.stale = frozenset(old - posting_keys(p.change.memory))
                counts.append(_count(p, now_us))
                new = postings(p.change.memory) if attempt == 0 else []  # its puts: once
                requests += [(p.index, r) for r in postings_diff(p.stale - p.deleted, new)]
                p.deleted |= p.stale
            outcomes, unindexed, stored = write_index(self._calls, counts, requests, beside=vectors)
            vector_failures |= {ref: f for failed in stored for ref, f in failed.items()}
            vectors = []
            incomplete |= unindexed
            retry: list[_Replace] = []
            for p in pending:
                outcome = outcomes[p.index]
                if outcome.outcome is Outcome.FAILED:  # applied or not: the resend knows
                    results[p.index] = _index_failed(p)
                elif outcome.outcome is Outcome.REFUSED:  # final if the item moved, else again
                    p.stored = outcome.item
                    (refused if p.moved(now_us) else retry).append(p)
            pending = retry
        for p in pending:
            results[p.index] = _index_failed(p)
        self._undo(refused, results, now_us)
        done = [p for p in plans if results[p.index] is None]  # their Update applied
        self._cleanup(done, incomplete)
        for p in done:
            if p.s3_key in vector_failures:
                results[p.index] = EntryFailure(EntryFailureCode.STORAGE, vector_failures[p.s3_key])
            elif p.index in incomplete:
                results[p.index] = _index_failed(p)

    def _undo(
        self, refused: list[_Replace], results: list[EntryFailure | None], now_us: int
    ) -> None:
        """Refused items: NOT_FOUND or CONFLICT; the postings this replace changed are put
        back as the stored item has them, its fresh vector deleted (one stage)."""
        requests: list[tuple[int, Item]] = []
        for p in refused:
            m, item = p.change.memory, p.stored
            current = memory_from_item(item) if item is not None and is_live(item, now_us) else None
            code = EntryFailureCode.CONFLICT if current else EntryFailureCode.NOT_FOUND
            results[p.index] = EntryFailure(code, f"memory {m.id} changed or gone")
            ours = posting_keys(m)
            now = postings(current) if current is not None else []
            requests += [(p.index, r) for r in postings_diff(ours, now, only=ours | p.deleted)]
        objects = [partial(self._objects.delete, [p.s3_key for p in refused if p.s3_key])]
        if write_index(self._calls, [], requests, beside=objects)[1]:
            _log.warning("replace_memories: postings of a refused replace not restored")

    def _cleanup(self, done: list[_Replace], incomplete: set[int]) -> None:
        """Deferred: the items' `stale` removed where the postings are complete, the
        replaced vectors deleted (the items no longer name them)."""
        tasks: list[Callable[[], object]] = [
            partial(_clear_stale, self._calls, p.change.memory, p.change.previous.version + 1)
            for p in done
            if p.stale and p.index not in incomplete
        ]
        replaced = [
            p.change.previous.embedding_key
            for p in done
            if p.change.embedding_change is not EmbeddingChange.KEEP
            and p.change.previous.embedding_key is not None
        ]
        if replaced:
            tasks.append(partial(self._objects.delete, replaced))
        self._calls.defer(tasks)


def _count(p: _Replace, now_us: int) -> Count[int]:
    """The item's conditional Update (on the snapshot; after a refusal at the version
    read, on the item it returned) with the stats change of its length."""
    m, previous = p.change.memory, p.change.previous
    full = memory_item(m, write_id="", embedding_key=None)
    full |= stale_attribute(p.stale) if p.stale else {}
    names = (*REPLACED_ATTRIBUTES, STALE)
    sets = {name: value for name, value in plain(full).items() if name in names}
    removes = [name for name in names if name not in full]
    sets["version"] = previous.version + 1
    if p.s3_key is not None:
        sets["embedding_key"] = p.s3_key
    elif p.change.embedding_change is EmbeddingChange.REMOVE:
        removes.append("embedding_key")
    condition = Attr(PK).exists() & Attr("version").eq(previous.version) & unexpired(now_us)
    if p.change.embedding_change is not EmbeddingChange.KEEP:  # the vector deleted after
        was = previous.embedding_key
        key = Attr("embedding_key")
        condition &= key.not_exists() if was is None else key.eq(was)
    if p.stored is None:  # it indexes exactly the snapshot (nothing stale)
        indexed = plain(memory_item(previous, write_id="", embedding_key=None))
        condition &= Attr(STALE).not_exists()
        for name in ("area", "doc_len", "terms"):
            condition &= Attr(name).eq(indexed[name])
    was_len = previous.doc_len if p.stored is None else get_n(p.stored, "doc_len")
    update = expression(condition, put=sets, remove=removes)
    item = action("Update", all_old=True, Key=memory_key(m.tenant, m.id), **update)
    return Count(p.index, memory_shard(m.tenant, m.id), (item,), 0, m.doc_len - was_len)


def _clear_stale(calls: TableCalls, memory: Memory, version: int) -> None:
    """The item's `stale` removed, if it is still the version this replace wrote."""
    try:
        calls.client.update_item(
            TableName=calls.table,
            Key=memory_key(memory.tenant, memory.id),
            **expression(Attr("version").eq(version), remove=(STALE,)),
        )
    except AWS_ERRORS as exc:  # the next write of the memory deletes them again
        _log.info("replace_memories: stale marks of %s kept: %s", memory.id, exc)


def _index_failed(p: _Replace) -> EntryFailure:
    detail = f"memory {p.change.memory.id}: search index not updated; send the update again"
    return EntryFailure(EntryFailureCode.STORAGE, detail)
