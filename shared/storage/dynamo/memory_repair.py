"""Completing memory writes that a crash cut off (complete_memories).

`put_memories` writes a memory's item, its embedding vector, its postings and its stats
in one stage (memories.py). A Lambda killed in that stage (a timeout) leaves whatever
had reached DynamoDB and S3 Vectors: possibly the item without all of its postings, its
vector or its stats. The resend of the same write recognises the entry (its ID was reserved under
the write key: `ReservedId.reused`) and finds the item; before it reports the entry as
stored it calls `complete_memories`, which re-applies what is missing, idempotently:

1. one BatchGetItem of the memory items (the stored version decides: its terms, its area,
   its embedding key), then one BatchGetItem of all their posting keys;
2. side by side: BatchWriteItem of the missing postings, PutVectors of the embedding under
   the key the item names, one call per index (the same values: the entry's fingerprint is
   unchanged, so it is the same embedding), and the stats `ADD` of the memories whose
   postings were missing.

Stats: a stage sends a memory's postings before the stats update (the stats tasks come
last), so a memory whose postings were incomplete is taken as not yet counted. If a kill
fell between a stats update and a later postings chunk, that memory counts twice; BM25
uses the stats only as averages (docs/dynamodb.md). A memory whose postings are all there
costs the two reads and the PutVectors of its embedding, nothing else.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from functools import partial

from shared.domain import MemoryId
from shared.storage.dynamo.calls import BatchWrite, TableCalls, item_key, run_groups
from shared.storage.dynamo.embeddings import EmbeddingVectors, VectorWrite
from shared.storage.dynamo.items import PK, SK_MEMORY, Item, key, memory_key, opt_s
from shared.storage.dynamo.memory_index import StatsDelta, failed_shards
from shared.storage.dynamo.memory_items import memory_from_item, posting_puts

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
        pks = {memory_key(tenant, memory_id)[PK]["S"] for memory_id in embeddings}
        items = self._calls.batch_get([key(pk, SK_MEMORY) for pk in sorted(pks)])
        puts: dict[tuple[str, str], tuple[MemoryId, Item]] = {}
        memories = []
        for item in items:
            memory = memory_from_item(item)
            memories.append((memory, opt_s(item, "embedding_key")))
            for request in posting_puts(memory):
                posting = request["PutRequest"]["Item"]
                puts[item_key(posting)] = (memory.id, request)
        present = {
            item_key(found)
            for found in self._calls.batch_get([key(pk, sk) for pk, sk in puts] if puts else [])
        }
        missing = [(owner, request) for k, (owner, request) in puts.items() if k not in present]
        incomplete = {owner for owner, _ in missing}
        stats = StatsDelta()
        vectors: list[VectorWrite] = []
        for memory, ref in memories:
            body = embeddings.get(memory.id)
            if ref is not None and "|" in ref and body is not None:
                vectors.append(VectorWrite(memory, ref, body))
            if memory.id in incomplete:
                stats.add(memory.tenant, memory.id, 1, memory.doc_len)
        tasks: list[Callable[[], str | None]] = [
            partial(self._objects.put_batch, batch) for batch in self._objects.batches(vectors)
        ]
        postings = BatchWrite(self._calls, missing)
        shards, stats_tasks = stats.tasks(self._calls)
        object_outcomes, posting_outcomes, stats_outcomes = run_groups(
            self._calls.round_trips, [tasks, postings.tasks(), stats_tasks]
        )
        left = postings.finish(posting_outcomes)
        # Logged, not raised: the items are stored and readable (as when an undo fails).
        if left or failed_shards(shards, stats_outcomes) or any(object_outcomes):
            _log.error("complete_memories: %d memories still incomplete", len(left))
        return len(incomplete)
