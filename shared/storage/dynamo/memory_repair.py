"""Completing memory writes that a crash cut off (complete_memories).

`put_memories` writes a memory's item, its embedding vector, its postings and its index
record with its stats (one transaction per stats shard, memory_records.py) in one stage
(memories.py). A Lambda killed in that stage (a timeout) leaves whatever had reached
DynamoDB and S3 Vectors: possibly the item without all of its postings, its vector or its
record. The resend of the same write recognises the entry (its ID was reserved under the
write key: `ReservedId.reused`) and finds the item; before it reports the entry as stored
it calls `complete_memories`, which re-applies what is missing, idempotently:

1. one BatchGetItem of the memory items and their index records, then one BatchGetItem of
   all their posting keys;
2. side by side: BatchWriteItem of the missing postings, PutVectors of the embedding under
   the key the item names, one call per index (the same values: the entry's fingerprint is
   unchanged, so it is the same embedding), and the index record with its stats `ADD` of
   the memories that have none (condition: still none).

Stats are counted exactly once: a memory counts iff its record exists, and the record is
written together with the stats in one transaction. A memory whose postings and record are
there costs the two reads and the PutVectors of its embedding, nothing else.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from functools import partial

from shared.domain import MemoryId
from shared.storage.dynamo.calls import TableCalls, item_key
from shared.storage.dynamo.embeddings import EmbeddingVectors, VectorWrite
from shared.storage.dynamo.index_writer import Count, Outcome, write_index
from shared.storage.dynamo.items import SK, SK_MEMORY, Item, get_n, key, memory_key, opt_s
from shared.storage.dynamo.memory_items import (
    memory_from_item,
    posting_puts,
    stored_memory_id,
)
from shared.storage.dynamo.memory_records import (
    SK_INDEX,
    count_put,
    record_key,
    record_of,
)

_log = logging.getLogger(__name__)


class MemoryRepair:
    def __init__(self, calls: TableCalls, objects: EmbeddingVectors) -> None:
        self._calls = calls
        self._objects = objects

    def complete(self, tenant: str, embeddings: Mapping[MemoryId, bytes | None]) -> int:
        """Re-apply what a cut-off `put_memories` of these memories left out; returns how
        many memories had postings missing. Missing memories are skipped."""
        if not embeddings:
            return 0
        refs = sorted(embeddings, key=str)
        found = self._calls.batch_get(
            [memory_key(tenant, i) for i in refs] + [record_key(tenant, i) for i in refs]
        )
        items = [item for item in found if item[SK]["S"] == SK_MEMORY]
        recorded = {stored_memory_id(item) for item in found if item[SK]["S"] == SK_INDEX}
        puts: dict[tuple[str, str], tuple[MemoryId, Item]] = {}
        memories = []
        for item in items:
            memory = memory_from_item(item)
            memories.append((memory, item))
            for request in posting_puts(memory):
                posting = request["PutRequest"]["Item"]
                puts[item_key(posting)] = (memory.id, request)
        present = {
            item_key(hit)
            for hit in self._calls.batch_get([key(pk, sk) for pk, sk in puts] if puts else [])
        }
        missing = [(owner, request) for k, (owner, request) in puts.items() if k not in present]
        incomplete = {owner for owner, _ in missing}
        counts: list[Count[MemoryId]] = []
        vectors: list[VectorWrite] = []
        for memory, item in memories:
            ref, body = opt_s(item, "embedding_key"), embeddings.get(memory.id)
            if ref is not None and body is not None:
                vectors.append(VectorWrite(memory, ref, body))
            if memory.id not in recorded:
                record = record_of(
                    memory, version=get_n(item, "version"), write_id=opt_s(item, "write_id") or ""
                )
                counts.append(count_put(memory.id, record, 1, memory.doc_len, None))
        tasks: list[Callable[[], str | None]] = [
            partial(self._objects.put_batch, batch) for batch in self._objects.batches(vectors)
        ]
        counted, left, object_outcomes = write_index(self._calls, counts, missing, beside=tasks)
        unrecorded = [i for i, c in counted.items() if c.outcome is Outcome.FAILED]
        # Logged, not raised: the items are stored and readable (as when an undo fails).
        if left or unrecorded or any(object_outcomes):
            _log.error(
                "complete_memories: %d memories still incomplete", len(left | set(unrecorded))
            )
        return len(incomplete | {c.owner for c in counts})
