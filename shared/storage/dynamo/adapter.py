"""DynamoDB + S3 adapter of the storage port (the Lambda backend).

One table (keys and items: `items.py`, definition: `schema.py`), embeddings in S3. Batch
methods do their I/O in as few sequential round trips as possible: independent calls of
one step run together as one `RoundTrips` stage (a thread pool in production, serial in
tests). The data model and every access pattern: docs/dynamodb.md.
"""

from __future__ import annotations

import logging
import random
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from shared.domain import (
    BrainEntry,
    BrainWrite,
    CorpusStats,
    CounterName,
    EntryFailure,
    EntryFailureCode,
    Memory,
    MemoryId,
    MemoryType,
    NewMemory,
    Rating,
    RatingOutcome,
    TermLookup,
)
from shared.logs import silence_payload_loggers
from shared.storage.dynamo.brain import BrainIndex
from shared.storage.dynamo.calls import AWS_ERRORS, Backoff, TableCalls, error_code
from shared.storage.dynamo.items import (
    PK,
    REF_INDEX,
    REF_PK,
    Item,
    counter_key,
    embedding_s3_key,
    get_n,
    get_s,
    is_live,
    memory_from_item,
    memory_item,
    memory_key,
    n,
    opt_s,
    s,
    scope_ref_pk,
    tag_key,
    to_us,
)
from shared.storage.dynamo.parallel import RoundTrips
from shared.storage.dynamo.ratings import RatingWriter

if TYPE_CHECKING:
    from shared.storage.aws import AwsClients
    from shared.storage.port import StoragePort

_log = logging.getLogger(__name__)

_CONDITION_FAILED = "ConditionalCheckFailedException"


@dataclass(frozen=True)
class _MemoryWrite:
    memory: Memory
    item: Item
    write_id: str
    s3_key: str | None
    body: bytes | None


@dataclass(frozen=True)
class _Step:
    """What one put task of `put_memories` achieved."""

    ok: bool
    detail: str = ""
    # The item write failed its condition: another memory owns the ID, nothing to undo.
    exists: bool = False


class DynamoStorage:
    """`StoragePort` on one DynamoDB table plus an S3 bucket for embeddings."""

    def __init__(
        self,
        clients: AwsClients,
        *,
        table_name: str,
        bucket_name: str,
        round_trips: RoundTrips | None = None,
        rating_max_retries: int = 8,
        max_attempts: int = 5,
        sleep: Callable[[float], None] = time.sleep,
        rng: Callable[[], float] = random.random,
    ) -> None:
        # botocore logs every item and object it sends at DEBUG: never let that reach a log.
        silence_payload_loggers()
        self._dynamodb = clients.dynamodb
        self._s3 = clients.s3
        self._table = table_name
        self._bucket = bucket_name
        self._round_trips = round_trips if round_trips is not None else RoundTrips.serial()
        self._calls = TableCalls(
            clients.dynamodb, table_name, self._round_trips, Backoff(sleep, rng), max_attempts
        )
        self._ratings = RatingWriter(self._calls, rating_max_retries)
        self._brain = BrainIndex(self._calls, rating_max_retries)

    @property
    def table_name(self) -> str:
        return self._table

    @property
    def bucket_name(self) -> str:
        return self._bucket

    def close(self) -> None:
        self._round_trips.close()

    def __enter__(self) -> DynamoStorage:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- IDs and tags -------------------------------------------------------------------

    def reserve_ids(self, tenant: str, counter: CounterName, count: int) -> range:
        if count < 1:
            raise ValueError(f"count must be >= 1, not {count}")
        response = self._dynamodb.update_item(
            TableName=self._table,
            Key=counter_key(tenant, counter),
            UpdateExpression="ADD #value :count",
            ExpressionAttributeNames={"#value": "value"},
            ExpressionAttributeValues={":count": n(count)},
            ReturnValues="UPDATED_NEW",
        )
        last = get_n(response["Attributes"], "value")
        return range(last - count + 1, last + 1)

    def ensure_tags(self, tenant: str, names: Sequence[str]) -> dict[str, str]:
        wanted: dict[str, str] = {}
        for name in names:  # within one call, the first spelling wins
            wanted.setdefault(name.casefold(), name)
        if not wanted:
            return {}
        stored = self._round_trips.run(
            [partial(self._put_tag, tenant, key, name) for key, name in wanted.items()]
        )
        result = dict(zip(wanted, stored, strict=True))
        losers = [key for key, name in result.items() if name is None]
        if losers:  # no ALL_OLD in the condition failure: read the winners' spelling
            items = self._calls.batch_get([tag_key(tenant, key) for key in losers])
            for item in items:
                result[get_s(item, "name_key")] = get_s(item, "name")
        missing = [key for key, name in result.items() if name is None]
        if missing:
            raise RuntimeError(f"tags vanished while being ensured: {missing}")
        return {key: name for key, name in result.items() if name is not None}

    def _put_tag(self, tenant: str, key: str, name: str) -> str | None:
        """The stored spelling of one tag, creating it if needed (None: read it back)."""
        try:
            self._dynamodb.put_item(
                TableName=self._table,
                Item={
                    **tag_key(tenant, key),
                    "kind": s("tag"),
                    "name_key": s(key),
                    "name": s(name),
                },
                ConditionExpression="attribute_not_exists(#pk)",
                ExpressionAttributeNames={"#pk": PK},
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AWS_ERRORS as exc:
            if error_code(exc) != _CONDITION_FAILED:
                raise
            existing = getattr(exc, "response", {}).get("Item")
            return None if existing is None else get_s(existing, "name")
        return name

    # --- memories -----------------------------------------------------------------------

    def put_memories(self, memories: Sequence[NewMemory]) -> list[EntryFailure | None]:
        """Item Put and S3 Put of every memory in one stage; undo a half-stored entry in a
        second stage (only when something failed).

        Each write gets a fresh `write_id`, and its embedding a fresh object key derived
        from it, so undoing a failed entry deletes only what this call wrote: never the
        object of an existing memory with the same ID (a duplicate never overwrites it),
        never an item another writer created.
        """
        results: list[EntryFailure | None] = [None] * len(memories)
        writes: dict[int, _MemoryWrite] = {}
        seen: set[tuple[str, MemoryId]] = set()
        for index, new in enumerate(memories):
            m = new.memory
            if (m.tenant, m.id) in seen:
                results[index] = EntryFailure(
                    EntryFailureCode.STORAGE, f"memory {m.id} exists (twice in one batch)"
                )
                continue
            seen.add((m.tenant, m.id))
            write_id = uuid.uuid4().hex
            body = None if new.embedding is None else bytes(new.embedding)
            s3_key = None if body is None else embedding_s3_key(m.tenant, m.id, write_id)
            item = memory_item(m, write_id=write_id, embedding_key=s3_key)
            writes[index] = _MemoryWrite(m, item, write_id, s3_key, body)
        if not writes:
            return results

        tasks: list[Callable[[], _Step]] = []
        slots: list[tuple[int, str]] = []
        for index, write in writes.items():
            tasks.append(partial(self._put_memory_item, write))
            slots.append((index, "item"))
            if write.body is not None:
                tasks.append(partial(self._put_embedding, write))
                slots.append((index, "s3"))
        steps: dict[tuple[int, str], _Step] = dict(
            zip(slots, self._round_trips.run(tasks), strict=True)
        )

        undo: list[Callable[[], None]] = []
        for index, write in writes.items():
            item_step = steps[(index, "item")]
            s3_step = steps.get((index, "s3"), _Step(ok=True))
            if item_step.ok and s3_step.ok:
                continue
            detail = item_step.detail if not item_step.ok else s3_step.detail
            results[index] = EntryFailure(EntryFailureCode.STORAGE, detail)
            if not item_step.exists:
                undo.append(partial(self._delete_own_item, write))
            if write.s3_key is not None:
                undo.append(partial(self._delete_own_object, write.s3_key))
        self._round_trips.run(undo)
        return results

    def _put_memory_item(self, write: _MemoryWrite) -> _Step:
        try:
            self._dynamodb.put_item(
                TableName=self._table,
                Item=write.item,
                ConditionExpression="attribute_not_exists(#pk)",
                ExpressionAttributeNames={"#pk": PK},
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AWS_ERRORS as exc:
            if error_code(exc) == _CONDITION_FAILED:
                existing = getattr(exc, "response", {}).get("Item") or {}
                if opt_s(existing, "write_id") == write.write_id:
                    return _Step(ok=True)  # our own write, resent by botocore after a timeout
                return _Step(ok=False, detail=f"memory {write.memory.id} exists", exists=True)
            _log.warning("put_memories: item %s: %s", write.memory.id, exc)
            return _Step(ok=False, detail=f"memory {write.memory.id}: {error_code(exc)}")
        return _Step(ok=True)

    def _put_embedding(self, write: _MemoryWrite) -> _Step:
        assert write.s3_key is not None and write.body is not None
        try:
            self._s3.put_object(
                Bucket=self._bucket,
                Key=write.s3_key,
                Body=write.body,
                ContentType="application/octet-stream",
                ServerSideEncryption="AES256",
            )
        except AWS_ERRORS as exc:
            _log.warning("put_memories: embedding of %s: %s", write.memory.id, exc)
            return _Step(ok=False, detail=f"embedding of {write.memory.id}: {error_code(exc)}")
        return _Step(ok=True)

    def _delete_own_item(self, write: _MemoryWrite) -> None:
        try:
            self._dynamodb.delete_item(
                TableName=self._table,
                Key=memory_key(write.memory.tenant, write.memory.id),
                ConditionExpression="#write_id = :write_id",
                ExpressionAttributeNames={"#write_id": "write_id"},
                ExpressionAttributeValues={":write_id": s(write.write_id)},
            )
        except AWS_ERRORS as exc:
            if error_code(exc) != _CONDITION_FAILED:  # failed: not ours, or never written
                _log.error("put_memories: could not undo item %s: %s", write.memory.id, exc)

    def _delete_own_object(self, s3_key: str) -> None:
        try:
            self._s3.delete_object(Bucket=self._bucket, Key=s3_key)
        except AWS_ERRORS as exc:
            _log.error("put_memories: orphan embedding object %s left: %s", s3_key, exc)

    def get_memories(
        self, tenant: str, ids: Sequence[MemoryId], now: datetime
    ) -> dict[MemoryId, Memory]:
        if not ids:
            return {}
        now_us = to_us(now)
        keys = [memory_key(tenant, memory_id) for memory_id in dict.fromkeys(ids)]
        memories = (
            memory_from_item(item) for item in self._calls.batch_get(keys) if is_live(item, now_us)
        )
        return {m.id: m for m in memories if m.tenant == tenant}

    def get_embedding(self, tenant: str, memory_id: MemoryId) -> bytes | None:
        response = self._dynamodb.get_item(
            TableName=self._table,
            Key=memory_key(tenant, memory_id),
            ConsistentRead=True,
            ProjectionExpression="#key",
            ExpressionAttributeNames={"#key": "embedding_key"},
        )
        s3_key = opt_s(response.get("Item", {}), "embedding_key")
        if s3_key is None:
            return None
        try:
            obj = self._s3.get_object(Bucket=self._bucket, Key=s3_key)
        except AWS_ERRORS as exc:
            if error_code(exc) in ("NoSuchKey", "404"):
                return None
            raise
        return obj["Body"].read()

    def find_memories_by_scope(
        self, tenant: str, scope: str, scope_vk: str, now: datetime, limit: int
    ) -> list[Memory]:
        if limit <= 0:
            return []
        now_us = to_us(now)
        query: dict[str, Any] = {
            "IndexName": REF_INDEX,
            "KeyConditionExpression": "#pk = :pk",
            "ExpressionAttributeNames": {"#pk": REF_PK},
            "ExpressionAttributeValues": {":pk": s(scope_ref_pk(tenant, scope, scope_vk))},
            "ScanIndexForward": False,
        }
        (items,) = self._calls.query_many([query], limit)
        memories = [memory_from_item(item) for item in items if is_live(item, now_us)]
        return [m for m in memories if m.id.typ is MemoryType.LONGTERM][:limit]

    # --- ratings ------------------------------------------------------------------------

    def record_ratings(
        self,
        ratings: Sequence[Rating],
        now: datetime,
        known: Mapping[MemoryId, Memory] | None = None,
    ) -> list[RatingOutcome | EntryFailure]:
        return self._ratings.record(ratings, to_us(now), known)

    def get_ratings(self, tenant: str, memory_id: MemoryId) -> list[Rating]:
        return self._ratings.list(tenant, memory_id)

    # --- brain entries and their search index -------------------------------------------

    def put_brain_entries(self, writes: Sequence[BrainWrite]) -> list[EntryFailure | None]:
        return self._brain.put(writes)

    def get_brain_entries(self, tenant: str, ids: Sequence[int]) -> dict[int, BrainEntry]:
        return self._brain.get(tenant, ids)

    def find_brain_by_reference(
        self, tenant: str, vk_typ: str, vk_referenz_id: str | None, limit: int
    ) -> list[BrainEntry]:
        return self._brain.find_by_reference(tenant, vk_typ, vk_referenz_id, limit)

    def list_brain_entries(self, tenant: str, limit: int) -> list[BrainEntry]:
        return self._brain.list(tenant, limit)

    def lookup_terms(self, tenant: str, terms: Sequence[str]) -> TermLookup:
        return self._brain.lookup_terms(tenant, terms)

    def brain_stats(self, tenant: str) -> CorpusStats:
        return self._brain.stats(tenant)


if TYPE_CHECKING:

    def _implements_port(storage: DynamoStorage) -> StoragePort:
        return storage
