"""DynamoDB + S3 Vectors adapter of the storage port (the Lambda backend; the data model
and every access pattern: docs/dynamodb.md).

Composed lazily: each part is built, and its module imported, on first use (a memory fetch
never imports the ledger); `prime()` builds them all, before a SnapStart snapshot. The
parts hold no state of their own (the membership hints, which do, are built eagerly): two
threads racing on a first use may build one twice, harmlessly. A port method a part serves
as it is is one `_Served` line; the methods here are the adapter's own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cached_property, partial
from typing import TYPE_CHECKING, Self, overload

from shared.logs import silence_payload_loggers
from shared.storage.dynamo.calls import TableCalls
from shared.storage.dynamo.items import (
    counter_key,
    get_n,
    get_s,
    is_live,
    memory_key,
    opt_s,
    s,
    tag_key,
)
from shared.storage.dynamo.membership_hints import MembershipHints
from shared.storage.dynamo.parallel import RoundTrips
from shared.storage.values import to_us

if TYPE_CHECKING:
    from shared.domain import CounterName, Memory, MemoryId
    from shared.storage.aws_clients import AwsClients
    from shared.storage.dynamo.brain import BrainIndex
    from shared.storage.dynamo.embeddings import EmbeddingVectors
    from shared.storage.dynamo.ledger import LedgerTable
    from shared.storage.dynamo.memories import MemoryWriter
    from shared.storage.dynamo.memory_delete import MemoryDeleter
    from shared.storage.dynamo.memory_index import MemoryIndexReads
    from shared.storage.dynamo.memory_replace import MemoryReplacer
    from shared.storage.dynamo.memory_supersede import MemorySuperseder
    from shared.storage.dynamo.projects import ProjectRecords
    from shared.storage.dynamo.ratings import RatingWriter
    from shared.storage.dynamo.reservations import CallRecords
    from shared.storage.port import StoragePort


class _Served[**P, R]:
    """A port method that a part serves as it is: `method` finds it on the adapter (the
    part built on first use). Typed by the part's method, so mypy checks it against the
    port; called on the class (`DynamoStorage.put_memories(storage, ...)`) like a method."""

    def __init__(self, method: Callable[[DynamoStorage], Callable[P, R]]) -> None:
        self._method = method

    @overload
    def __get__(self, storage: None, owner: type) -> Self: ...
    @overload
    def __get__(self, storage: DynamoStorage, owner: type) -> Callable[P, R]: ...
    def __get__(self, storage: DynamoStorage | None, owner: type) -> Callable[P, R] | Self:
        return self if storage is None else self._method(storage)

    def __call__(self, storage: DynamoStorage, *args: P.args, **kwargs: P.kwargs) -> R:
        return self._method(storage)(*args, **kwargs)


class DynamoStorage:
    """`StoragePort` on one DynamoDB table plus an S3 Vectors bucket for embeddings."""

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
    ) -> None:
        # botocore logs every item and object it sends at DEBUG: never let that reach a log.
        silence_payload_loggers()
        self._clients = clients
        self._bucket = bucket_name
        self._max_retries = rating_max_retries
        self._calls = TableCalls(
            clients.dynamodb, table_name, round_trips or RoundTrips(), max_attempts, sleep
        )
        self._hints = MembershipHints()

    def prime(self) -> None:
        """Build every part now (imports included) instead of on first use."""
        from shared.storage.dynamo import memory_items  # noqa: F401  (get_memories)

        for name, attribute in vars(DynamoStorage).items():
            if isinstance(attribute, cached_property):  # the parts, in definition order
                getattr(self, name)

    # --- the parts, each built on first use ----------------------------------------------

    @cached_property
    def _vectors(self) -> EmbeddingVectors:
        from shared.storage.dynamo.embeddings import EmbeddingVectors

        return EmbeddingVectors(self._clients.s3vectors, self._bucket)

    @cached_property
    def _ratings(self) -> RatingWriter:
        from shared.storage.dynamo.ratings import RatingWriter

        return RatingWriter(self._calls, self._max_retries)

    @cached_property
    def _brain(self) -> BrainIndex:
        from shared.storage.dynamo.brain import BrainIndex

        return BrainIndex(self._calls, self._max_retries)

    @cached_property
    def _writer(self) -> MemoryWriter:
        from shared.storage.dynamo.memories import MemoryWriter

        return MemoryWriter(self._calls, self._vectors)

    @cached_property
    def _replacer(self) -> MemoryReplacer:
        from shared.storage.dynamo.memory_replace import MemoryReplacer

        return MemoryReplacer(self._calls, self._vectors)

    @cached_property
    def _superseder(self) -> MemorySuperseder:
        from shared.storage.dynamo.memory_supersede import MemorySuperseder

        return MemorySuperseder(self._calls)

    @cached_property
    def _deleter(self) -> MemoryDeleter:
        from shared.storage.dynamo.memory_delete import MemoryDeleter

        return MemoryDeleter(self._calls, self._vectors, self._max_retries)

    @cached_property
    def _index(self) -> MemoryIndexReads:
        from shared.storage.dynamo.memory_index import MemoryIndexReads

        return MemoryIndexReads(self._calls, self._hints, lambda q: self._vectors.search(q))

    @cached_property
    def _projects(self) -> ProjectRecords:
        from shared.storage.dynamo.projects import ProjectRecords

        return ProjectRecords(self._calls, self._hints)

    @cached_property
    def _ledger(self) -> LedgerTable:
        from shared.storage.dynamo.ledger import LedgerTable

        return LedgerTable(self._calls, self._max_retries)

    @cached_property
    def _call_records(self) -> CallRecords:
        from shared.storage.dynamo.reservations import CallRecords, IdLeases

        # The lease is state (the IDs this container holds), built with its part: two
        # threads racing on a first use may build two, which only leaves gaps.
        return CallRecords(self._calls, IdLeases(self._calls))

    def close(self) -> None:
        self._calls.round_trips.close()

    # --- the port methods a part serves as they are -------------------------------------

    reserve_ids = _Served(lambda s: s._calls.reserve_ids)
    claim_call = _Served(lambda s: s._call_records.claim)
    reserve_call_ids = _Served(lambda s: s._call_records.reserve_ids)
    finish_call = _Served(lambda s: s._call_records.finish)
    drop_call = _Served(lambda s: s._call_records.drop)
    side_by_side = _Served(lambda s: s._calls.round_trips.side_by_side)
    deferring = _Served(lambda s: s._calls.deferring)
    complete_memories = _Served(lambda s: s._writer.complete)
    put_memories = _Served(lambda s: s._writer.put)
    replace_memories = _Served(lambda s: s._replacer.replace)
    supersede_memories = _Served(lambda s: s._superseder.supersede)
    read_for_delete = _Served(lambda s: s._deleter.read)
    delete_memories = _Served(lambda s: s._deleter.delete)
    delete_expired = _Served(lambda s: s._deleter.sweep)
    recent_memories = _Served(lambda s: s._index.recent)
    list_memories = _Served(lambda s: s._index.by_areas)
    find_memories_by_scopes = _Served(lambda s: s._index.by_scopes)
    record_ratings = _Served(lambda s: s._ratings.record)
    lookup_memory_terms = _Served(lambda s: s._index.lookup)
    memory_stats = _Served(lambda s: s._index.stats)
    search_vectors = _Served(lambda s: s._vectors.search)
    profile_dimensions = _Served(lambda s: s._vectors.profile_dimensions)
    get_ratings = _Served(lambda s: s._ratings.list)
    put_brain_entries = _Served(lambda s: s._brain.put)
    get_brain_entries = _Served(lambda s: s._brain.get)
    find_brain_by_reference = _Served(lambda s: s._brain.find_by_reference)
    find_brain_by_references = _Served(lambda s: s._brain.find_by_references)
    list_brain_entries = _Served(lambda s: s._brain.list)
    lookup_terms = _Served(lambda s: s._brain.lookup_terms)
    brain_stats = _Served(lambda s: s._brain.stats)
    create_project = _Served(lambda s: s._projects.create)
    get_project = _Served(lambda s: s._projects.get)
    add_project_members = _Served(lambda s: s._projects.add)
    remove_project_members = _Served(lambda s: s._projects.remove)
    projects_of = _Served(lambda s: s._projects.of)
    append_ledger = _Served(lambda s: s._ledger.append)
    get_ledger = _Served(lambda s: s._ledger.get)
    find_ledger = _Served(lambda s: s._ledger.find)
    ledger_totals = _Served(lambda s: s._ledger.totals)
    open_reminders = _Served(lambda s: s._ledger.reminders)

    # --- the adapter's own: IDs, tags, the retry layer's release, reads of one request ---

    def highest_id(self, tenant: str, counter: CounterName) -> int:
        item = self._calls.get_item(counter_key(tenant, counter))
        return 0 if item is None else get_n(item, "value")

    def ensure_tags(self, tenant: str, names: Sequence[str]) -> dict[str, str]:
        wanted = {name.casefold(): name for name in reversed(names)}  # the first spelling wins
        stored = self._calls.round_trips.run(
            [partial(self._put_tag, tenant, key, name) for key, name in wanted.items()]
        )
        return dict(zip(wanted, stored, strict=True))

    def _put_tag(self, tenant: str, key: str, name: str) -> str:
        """The stored spelling of one tag: one UpdateItem that sets the name only where
        there is none (the first writer's spelling stays) and returns the item as stored."""
        response = self._calls.client.update_item(
            TableName=self._calls.table,
            Key=tag_key(tenant, key),
            UpdateExpression="SET #key = :key, #name = if_not_exists(#name, :name)",
            ExpressionAttributeNames={"#key": "name_key", "#name": "name"},
            ExpressionAttributeValues={":key": s(key), ":name": s(name)},
            ReturnValues="ALL_NEW",
        )
        return get_s(response["Attributes"], "name")

    def release_calls(self) -> int:
        """No owner: a Lambda never knows that another one died; the marks expire."""
        return 0

    def get_memories(
        self, tenant: str, ids: Sequence[MemoryId], now: datetime
    ) -> dict[MemoryId, Memory]:
        from shared.storage.dynamo.memory_items import memory_from_item

        now_us = to_us(now)
        keys = [memory_key(tenant, memory_id) for memory_id in dict.fromkeys(ids)]
        memories = (
            memory_from_item(item) for item in self._calls.batch_get(keys) if is_live(item, now_us)
        )
        return {m.id: m for m in memories if m.tenant == tenant}

    def get_embedding(self, tenant: str, memory_id: MemoryId) -> bytes | None:
        key = memory_key(tenant, memory_id)
        item = self._calls.get_item(key, ProjectionExpression="embedding_key")
        ref = None if item is None else opt_s(item, "embedding_key")
        return None if ref is None else self._vectors.get(ref)


if TYPE_CHECKING:

    def _implements_port(storage: DynamoStorage) -> StoragePort:
        return storage
