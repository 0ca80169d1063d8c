"""Creating memories (put_memories) and completing a cut-off create (complete_memories;
docs/dynamodb.md, "Memories: partial failures"). For the whole batch ONE stage
(`write_index`): the items' Puts, conditioned absent, with the stats ADD ‖ the postings ‖
PutVectors. Only if something failed, one undo stage: what may have applied taken out
(conditioned on this write's `write_id`: refused where it never applied), its postings
deleted or, for an ID that exists, made the existing item's again, its vector deleted.

Invariants:
- Item and stats are stored together or not at all: counted == stored (memory_items.py).
- An item is only ever written conditioned on its absence: a duplicate ID fails its entry
  and never overwrites; botocore's resend of a timed-out transaction carries the same
  `ClientRequestToken` and applies once.
- A Lambda cut off in the stage leaves either no item (the resend, with the same reserved
  IDs and entries, writes the same posting keys; the vector's key names the dead write)
  or item and stats, possibly without postings or vector: the resend finds the item
  (`ReservedId.reused`) and `complete` re-puts them (the same idempotent puts).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from boto3.dynamodb.conditions import Attr

from shared.domain import EntryFailure, EntryFailureCode, Memory, MemoryId, NewMemory
from shared.storage.dynamo.calls import ITEM_MAX_BYTES, TableCalls, item_size_bound
from shared.storage.dynamo.embeddings import EmbeddingVectors, VectorWrite, vector_ref
from shared.storage.dynamo.index_writer import Count, Outcome, postings_diff, write_index
from shared.storage.dynamo.items import PK, Item, action, memory_key
from shared.storage.dynamo.memory_items import (
    memory_from_item,
    memory_item,
    memory_shard,
    posting_keys,
    postings,
)

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _NewWrite:
    index: int
    memory: Memory
    item: Item
    write_id: str
    s3_key: str | None
    body: bytes | None

    def count(self) -> Count[int]:
        """The item's Put, conditioned absent (refused: ALL_OLD), with its count."""
        m = self.memory
        put = action("Put", Attr(PK).not_exists(), all_old=True, Item=self.item)
        return Count(self.index, memory_shard(m.tenant, m.id), (put,), 1, m.doc_len)

    def uncount(self) -> Count[int]:
        """The item's Delete conditioned on this write, unreplaced, with the decrement."""
        m = self.memory
        ours = Attr("write_id").eq(self.write_id) & Attr("version").eq(m.version)
        delete = action("Delete", ours, Key=memory_key(m.tenant, m.id))
        return Count(self.index, memory_shard(m.tenant, m.id), (delete,), -1, -m.doc_len)


class MemoryWriter:
    def __init__(self, calls: TableCalls, objects: EmbeddingVectors) -> None:
        self._calls = calls
        self._objects = objects

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
            if item_size_bound(item) > ITEM_MAX_BYTES:  # would fail its whole transaction
                detail = f"memory {m.id}: item larger than {ITEM_MAX_BYTES} bytes"
                results[index] = EntryFailure(EntryFailureCode.STORAGE, detail)
                continue
            writes.append(_NewWrite(index, m, item, write_id, s3_key, body))

        puts = [VectorWrite(w.memory, w.s3_key, w.body) for w in writes if w.s3_key and w.body]
        requests = [(w.index, r) for w in writes for r in postings_diff((), postings(w.memory))]
        vectors = self._objects.put_tasks(puts)
        counts = [w.count() for w in writes]
        counted, unindexed, failures = write_index(self._calls, counts, requests, beside=vectors)
        unstored = {ref: why for failed in failures for ref, why in failed.items()}
        undo: list[tuple[_NewWrite, Memory | None]] = []
        for w in writes:
            outcome = counted[w.index]
            if outcome.outcome is Outcome.REFUSED:
                detail = f"memory {w.memory.id} exists"
            elif outcome.outcome is Outcome.FAILED:
                detail = f"memory {w.memory.id}: not stored; send the entry again"
            elif w.s3_key in unstored:
                detail = unstored[w.s3_key]
            elif w.index in unindexed:
                detail = f"memory {w.memory.id}: search index not updated; send the entry again"
            else:
                continue
            results[w.index] = EntryFailure(EntryFailureCode.STORAGE, detail)
            # the item a refused Put met (other outcomes carry none)
            undo.append((w, None if outcome.item is None else memory_from_item(outcome.item)))
        self._undo(undo)
        return results

    def _undo(self, failed: list[tuple[_NewWrite, Memory | None]]) -> None:
        """One stage: what may have applied taken out again (refused where it did not),
        our postings deleted or, where the ID exists, made the existing memory's again,
        our vectors deleted."""
        uncounts = [w.uncount() for w, existing in failed if existing is None]
        requests: list[tuple[int, Item]] = []
        for w, existing in failed:
            ours = posting_keys(w.memory)
            now = postings(existing) if existing is not None else []
            requests += [(w.index, r) for r in postings_diff(ours, now, only=ours)]
        beside = [partial(self._objects.delete, [w.s3_key for w, _ in failed if w.s3_key])]
        counted, left, _ = write_index(self._calls, uncounts, requests, beside=beside)
        if left or any(c.outcome is Outcome.FAILED for c in counted.values()):
            _log.error("put_memories: the undo of %d failed memories was incomplete", len(failed))

    def complete(self, memories: Sequence[tuple[Memory, bytes | None]]) -> None:
        """Re-apply what a cut-off `put` of these stored memories may lack: every posting,
        and the embedding under the key its item names (the same bytes: the entry's
        fingerprint is unchanged). Both are idempotent puts, one stage; item and stats were
        stored together, so nothing is counted again."""
        requests = [(m.id, r) for m, _ in memories for r in postings_diff((), postings(m))]
        puts = [VectorWrite(m, m.embedding_key, b) for m, b in memories if m.embedding_key and b]
        vectors = self._objects.put_tasks(puts)
        _, left, failures = write_index(self._calls, [], requests, beside=vectors)
        if left or any(failures):  # logged: the items are stored and readable
            _log.error("complete_memories: %d memories still incomplete", len(memories))
