"""DynamoDB + S3 Vectors adapter of the storage port (the Lambda backend).

One table (keys and items: `items.py`, definition: `schema.py`), embeddings in S3 Vectors
(`embeddings.py`). Batch
methods do their I/O in as few sequential round trips as possible: independent calls of
one step run together as one `RoundTrips` stage (a thread pool in production, serial in
tests). The data model and every access pattern: docs/dynamodb.md.

Composed lazily: each part (memory writes, ratings, brain index, projects, ledger, ...) is
built, and its module imported, on first use, so a Lambda function loads only the parts
its tool calls (a memory fetch never imports the ledger). `prime()` builds them all: before
a SnapStart snapshot, so that no restored environment imports anything on its first call.
The parts hold no state of their own (the membership hints, which do, are built eagerly):
two threads racing on a first use may build one twice, harmlessly.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import date, datetime
from functools import cached_property, partial
from typing import TYPE_CHECKING

from shared.logs import silence_payload_loggers
from shared.search.postings import POSTINGS_PER_AREA_TERM
from shared.search.topk import WordQuery
from shared.storage.dynamo.calls import (
    Backoff,
    TableCalls,
    counter_range,
    deferring,
)
from shared.storage.dynamo.items import (
    counter_key,
    get_n,
    get_s,
    is_live,
    memory_key,
    opt_s,
    s,
    tag_key,
    to_us,
)
from shared.storage.dynamo.membership_hints import MembershipHints
from shared.storage.dynamo.parallel import RoundTrips

if TYPE_CHECKING:
    from shared.calls import CallClaim, CallMarks, CallRecord
    from shared.domain import (
        BrainEntry,
        BrainWrite,
        CorpusStats,
        CounterName,
        DeleteRead,
        EntryFailure,
        ExpiredMemory,
        Memory,
        MemoryId,
        MemoryPosition,
        MemoryReplace,
        MemoryType,
        NewMemory,
        Project,
        Rating,
        RatingOutcome,
        Supersession,
        TermLookup,
    )
    from shared.ledger.model import AlreadyAppended, LedgerTotal, LedgerView, LedgerWrite
    from shared.search.lookup import MemoryTermLookup
    from shared.search.vectors import VectorHit, VectorQuery
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

_log = logging.getLogger(__name__)


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
        rng: Callable[[], float] = random.random,
    ) -> None:
        # botocore logs every item and object it sends at DEBUG: never let that reach a log.
        silence_payload_loggers()
        self._clients = clients
        self._dynamodb = clients.dynamodb
        self._table = table_name
        self._bucket = bucket_name
        self._max_retries = rating_max_retries
        self._round_trips = round_trips if round_trips is not None else RoundTrips.serial()
        self._calls = TableCalls(
            clients.dynamodb, table_name, self._round_trips, Backoff(sleep, rng), max_attempts
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

        return MemoryIndexReads(self._calls, self._hints, self.search_vectors)

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

    @property
    def table_name(self) -> str:
        return self._table

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
        return counter_range(self._dynamodb, self._table, tenant, counter, count)

    def highest_id(self, tenant: str, counter: CounterName) -> int:
        item = self._calls.get_item(counter_key(tenant, counter))
        return 0 if item is None else get_n(item, "value")

    # --- call records (reservations.py) ------------------------------------------------

    def claim_call(self, claim: CallClaim) -> CallRecord:
        """One conditional PutItem, IDs from this container's lease (a refill side by side
        when it runs low); a takeover one UpdateItem more."""
        return self._call_records.claim(claim)

    def reserve_call_ids(
        self, tenant: str, key: str, token: str, wants: Mapping[CounterName, Sequence[int]]
    ) -> dict[CounterName, dict[int, int]]:
        return self._call_records.reserve_ids(tenant, key, token, wants)

    def finish_call(
        self, tenant: str, key: str, token: str, answer: str, expires_at: datetime
    ) -> bool:
        return self._call_records.finish(tenant, key, token, answer, to_us(expires_at))

    def drop_call(self, tenant: str, key: str, token: str) -> None:
        self._call_records.drop(tenant, key, token)

    def release_calls(self) -> int:
        """No owner: a Lambda never knows that another one died; the marks expire."""
        return 0

    def side_by_side[T](self, tasks: Sequence[Callable[[], T]]) -> list[T]:
        return self._round_trips.side_by_side(tasks)

    def deferring(self) -> AbstractContextManager[None]:
        """A replace's cleanup beside the call record's completion (calls.py)."""
        return deferring(self._round_trips)

    def complete_memories(self, memories: Sequence[tuple[Memory, bytes | None]]) -> None:
        """Postings and embeddings put again, one stage (memories.py)."""
        self._writer.complete(memories)

    def ensure_tags(self, tenant: str, names: Sequence[str]) -> dict[str, str]:
        wanted: dict[str, str] = {}
        for name in names:  # within one call, the first spelling wins
            wanted.setdefault(name.casefold(), name)
        stored = self._round_trips.run(
            [partial(self._put_tag, tenant, key, name) for key, name in wanted.items()]
        )
        return dict(zip(wanted, stored, strict=True))

    def _put_tag(self, tenant: str, key: str, name: str) -> str:
        """The stored spelling of one tag: one UpdateItem that sets the name only where
        there is none (the first writer's spelling stays) and returns the item as stored."""
        response = self._dynamodb.update_item(
            TableName=self._table,
            Key=tag_key(tenant, key),
            UpdateExpression="SET #kind = :kind, #key = :key, #name = if_not_exists(#name, :name)",
            ExpressionAttributeNames={"#kind": "kind", "#key": "name_key", "#name": "name"},
            ExpressionAttributeValues={":kind": s("tag"), ":key": s(key), ":name": s(name)},
            ReturnValues="ALL_NEW",
        )
        return get_s(response["Attributes"], "name")

    # --- memories -----------------------------------------------------------------------

    def put_memories(self, memories: Sequence[NewMemory]) -> list[EntryFailure | None]:
        """Items, embeddings, postings and stats of all memories in one stage; an undo
        stage only if something failed (memories.py)."""
        return self._writer.put(memories)

    def replace_memories(
        self, replaces: Sequence[MemoryReplace], now: datetime
    ) -> list[EntryFailure | None]:
        return self._replacer.replace(replaces, to_us(now))

    def supersede_memories(
        self, tenant: str, marks: Sequence[Supersession], now: datetime
    ) -> list[EntryFailure | None]:
        return self._superseder.supersede(tenant, marks, to_us(now))

    def read_for_delete(self, tenant: str, ids: Sequence[MemoryId], now: datetime) -> DeleteRead:
        return self._deleter.read(tenant, ids, to_us(now))

    def delete_memories(
        self, tenant: str, ids: Sequence[MemoryId], now: datetime, read: DeleteRead | None = None,
        marks: CallMarks | None = None,
    ) -> list[MemoryId]:  # fmt: skip
        return self._deleter.delete(tenant, ids, to_us(now), read, marks) if ids else []

    def delete_expired(self, now: datetime, limit: int) -> list[ExpiredMemory]:
        return self._deleter.sweep(to_us(now), limit)

    def recent_memories(
        self, tenant: str, typ: MemoryType, areas: Sequence[str], now: datetime, limit: int
    ) -> list[Memory]:
        return self._index.recent(tenant, typ, areas, to_us(now), limit)

    def list_memories(
        self,
        tenant: str,
        areas: Sequence[str],
        before: MemoryPosition | None,
        now: datetime,
        limit: int,
    ) -> list[Memory]:
        return self._index.by_areas(tenant, areas, before, to_us(now), limit)

    def lookup_memory_terms(
        self,
        tenant: str,
        terms: Sequence[str],
        areas: Sequence[str],
        member: str | None = None,
        *,
        path: str | None = None,
        per_area_term: int = POSTINGS_PER_AREA_TERM,
        recent: int = 0,
        now: datetime | None = None,
        vector: VectorQuery | None = None,
        words: WordQuery | None = None,
    ) -> MemoryTermLookup:
        now_us = None if now is None else to_us(now)
        return self._index.lookup(
            tenant, terms, areas, member, path, per_area_term, recent, now_us, vector, words
        )

    def memory_stats(self, tenant: str) -> CorpusStats:
        return self._index.stats(tenant)

    def get_memories(
        self, tenant: str, ids: Sequence[MemoryId], now: datetime
    ) -> dict[MemoryId, Memory]:
        if not ids:
            return {}
        from shared.storage.dynamo.memory_items import memory_from_item

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
        ref = opt_s(response.get("Item", {}), "embedding_key")
        return None if ref is None else self._vectors.get(ref)

    def profile_dimensions(self, tenant: str, profiles: Sequence[str]) -> dict[str, int]:
        """The bucket's index per profile (S3 Vectors indexes are per profile and dimension,
        shared by the tenants of a bucket)."""
        del tenant
        return self._vectors.profile_dimensions(profiles)

    def search_vectors(self, query: VectorQuery) -> list[VectorHit]:
        """One QueryVectors (S3 Vectors) with a tenant/area/type/expiry filter."""
        return self._vectors.search(query)

    def find_memories_by_scope(
        self, tenant: str, scope: str, scope_vk: str, now: datetime, limit: int
    ) -> list[Memory]:
        found = self._index.by_scopes(tenant, [(scope, scope_vk)], to_us(now), limit)
        return found.get((scope, scope_vk), [])

    def find_memories_by_scopes(
        self,
        tenant: str,
        scopes: Sequence[tuple[str, str]],
        now: datetime,
        limit: int,
        areas: Sequence[str] | None = None,
    ) -> dict[tuple[str, str], list[Memory]]:
        """One by_reference Query per distinct pair, all in one stage (memory_index.py)."""
        return self._index.by_scopes(tenant, scopes, to_us(now), limit, areas)

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

    def find_brain_by_references(
        self, tenant: str, references: Sequence[tuple[str, str]], limit: int
    ) -> dict[tuple[str, str], list[BrainEntry]]:
        """One by_reference Query per distinct pair, all in one stage (brain.py)."""
        return self._brain.find_by_references(tenant, references, limit)

    def list_brain_entries(self, tenant: str, limit: int) -> list[BrainEntry]:
        return self._brain.list(tenant, limit)

    def lookup_terms(self, tenant: str, terms: Sequence[str]) -> TermLookup:
        return self._brain.lookup_terms(tenant, terms)

    def brain_stats(self, tenant: str) -> CorpusStats:
        return self._brain.stats(tenant)

    # --- projects -----------------------------------------------------------------------

    def create_project(self, project: Project) -> bool:
        return self._projects.create(project)

    def get_project(self, tenant: str, name: str) -> Project | None:
        return self._projects.get(tenant, name)

    def add_project_members(self, tenant: str, name: str, members: Sequence[str]) -> bool:
        return self._projects.add(tenant, name, members)

    def remove_project_members(self, tenant: str, name: str, members: Sequence[str]) -> bool:
        return self._projects.remove(tenant, name, members)

    def projects_of(self, tenant: str, nutzer: str) -> frozenset[str]:
        return self._projects.of(tenant, nutzer)

    # --- ledger (ledger.py) -------------------------------------------------------------

    def append_ledger(
        self, writes: Sequence[LedgerWrite]
    ) -> list[EntryFailure | AlreadyAppended | None]:
        return self._ledger.append(writes)

    def get_ledger(self, tenant: str, ids: Sequence[int]) -> dict[int, LedgerView]:
        return self._ledger.get(tenant, ids)

    def find_ledger(
        self,
        tenant: str,
        areas: Sequence[str],
        von: date | None,
        bis: date | None,
        limit: int | None,
    ) -> dict[str, list[LedgerView]]:
        return self._ledger.find(tenant, areas, von, bis, limit)

    def ledger_totals(
        self, tenant: str, areas: Sequence[str], von_monat: str | None, bis_monat: str | None
    ) -> list[LedgerTotal]:
        return self._ledger.totals(tenant, areas, von_monat, bis_monat)

    def open_reminders(
        self, tenant: str, areas: Sequence[str], faellig_bis: date, limit: int
    ) -> list[LedgerView]:
        return self._ledger.reminders(tenant, areas, faellig_bis, limit)


if TYPE_CHECKING:

    def _implements_port(storage: DynamoStorage) -> StoragePort:
        return storage
