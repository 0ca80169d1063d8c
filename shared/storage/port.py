"""The one storage port. Adapters: SQLite (`brain serve`) and DynamoDB + S3 (Lambda).

Design rules every adapter keeps:
- The tenant is part of every key; no method reaches across tenants.
- Batch methods take and return lists in request order, one outcome per item, and apply
  each item on its own: one failed item never undoes or blocks another.
- Batch methods exist so that an adapter can do its I/O in as few sequential round trips
  as possible (DynamoDB: BatchGetItem, parallel writes, one counter step per range).
- Reads of memories treat an expired memory as absent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Protocol

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
from shared.search.lookup import MemoryTermLookup
from shared.search.postings import POSTINGS_PER_AREA_TERM
from shared.search.topk import WordQuery
from shared.search.vectors import VectorHit, VectorQuery
from shared.storage.ledger_port import LedgerPort


class StoragePort(LedgerPort, Protocol):
    # --- IDs and tags -------------------------------------------------------------------
    def reserve_ids(self, tenant: str, counter: CounterName, count: int) -> range:
        """Atomically reserve `count` consecutive IDs (>= 1) of one per-tenant sequence.

        IDs are never handed out twice, even across concurrent callers and restarts.
        """
        ...

    def highest_id(self, tenant: str, counter: CounterName) -> int:
        """The highest ID the sequence handed out so far (0 when none); reads, reserves
        nothing. Admin jobs (reindex, export) walk the IDs up to it."""
        ...

    # --- call records of the retry layer (shared/calls.py, shared/tools/retry.py) --------
    def claim_call(self, claim: CallClaim) -> CallRecord:
        """Atomically claim the record of `claim.key` for the send `claim.token`.

        No record (or one past its window): store it RUNNING until `claim.running_until`,
        with the marks (and, where that costs nothing, an ID per wanted entry) — NEW. An
        answered record: DONE with its answer, nothing written. A running record whose mark
        has not expired, or whose body differs: RUNNING, nothing written. A running record
        past its mark with the same body: taken over — RESUMED with its token, its IDs and
        its marks plus the new ones. IDs are never handed out twice (an adapter may lease
        them in blocks: gaps are allowed).
        """
        ...

    def reserve_call_ids(
        self, tenant: str, key: str, token: str, wants: Mapping[CounterName, Sequence[int]]
    ) -> dict[CounterName, dict[int, int]]:
        """The IDs of the wanted entries of the send `token`'s record: those it holds, plus
        fresh ones for wanted entries without one, recorded with it in one step (raises
        CallRecordsUnavailable when the record is another send's). An adapter may reserve
        them with the claim already (DynamoDB: from its lease, at no cost); the retry layer
        calls this only for entries whose ID is missing."""
        ...

    def finish_call(
        self, tenant: str, key: str, token: str, answer: str, expires_at: datetime
    ) -> bool:
        """Store the answer of the send `token`, kept until `expires_at`. False (nothing
        written) when the record is gone or belongs to another send."""
        ...

    def drop_call(self, tenant: str, key: str, token: str) -> None:
        """Forget the record if it belongs to the send `token` (a call that stored nothing,
        or a replay that no longer holds)."""
        ...

    def release_calls(self) -> int:
        """A server that owns its store, at start: end the running mark of every running
        record (the process that ran it is gone; its IDs and marks stay for the resend that
        takes it over). Returns how many. Adapters without such an owner: 0."""
        ...

    def deferring(self) -> AbstractContextManager[None]:
        """A write call's span (the retry layer's): cleanup its writes leave that no answer
        depends on (DynamoDB: a replace's stale index marks and replaced vectors) runs
        beside the call's `finish_call`/`drop_call`; what is left runs when it ends.
        Adapters without such cleanup: a no-op."""
        ...

    def side_by_side[T](self, tasks: Sequence[Callable[[], T]]) -> list[T]:
        """Run independent port calls together: one round trip where the adapter can
        overlap them (DynamoDB: each task on its own thread, their own stages on the pool),
        in order otherwise. Results in task order; the first exception is re-raised after
        every task ended."""
        ...

    def complete_memories(self, memories: Sequence[tuple[Memory, bytes | None]]) -> None:
        """Finish the writes of stored memories (as read) that a crash may have cut off (a
        resend of the same write found their items): whatever `put_memories` writes beside
        the item and its stats (postings, the embedding — its bytes given with the memory)
        is written again, idempotently; nothing is counted twice. An adapter whose put is
        one transaction per memory has nothing to complete.
        """
        ...

    def ensure_tags(self, tenant: str, names: Sequence[str]) -> dict[str, str]:
        """Create the tags that do not exist yet; return {casefolded name: stored name}.

        Names arrive trimmed. Tags are unique case-insensitively: the first spelling wins.
        """
        ...

    # --- memories -----------------------------------------------------------------------
    def put_memories(self, memories: Sequence[NewMemory]) -> list[EntryFailure | None]:
        """Store new memories (IDs already reserved) with their embeddings and their
        search postings (`memory.terms`), updating the tenant's memory corpus stats.

        None per stored item; an EntryFailure leaves nothing of that item behind. An ID
        that is already stored fails its entry and is never overwritten.
        """
        ...

    def replace_memories(
        self, replaces: Sequence[MemoryReplace], now: datetime
    ) -> list[EntryFailure | None]:
        """Replace memories by new versions (update_brain_memories).

        Applied only while the stored version still equals `previous.version` and the memory
        is not expired at `now`; the stored version is then bumped by one. A missing or
        expired memory gives NOT_FOUND, a moved version CONFLICT — nothing is written then.
        Postings, stats and the embedding follow the new version. Created time, scores and
        last_call are the stored ones (ratings own them).
        """
        ...

    def supersede_memories(
        self, tenant: str, marks: Sequence[Supersession], now: datetime
    ) -> list[EntryFailure | None]:
        """Mark memories as replaced (issue 25): `gueltig_bis` = `mark.at`, `ersetzt_durch`
        = `mark.successor`, version + 1; nothing else changes (text, postings, vector,
        ratings, updated_at).

        Applied only while the memory exists, is not expired at `now` and is current: a
        missing or expired memory gives NOT_FOUND, one replaced by another successor
        CONFLICT; one this successor replaced already gives None and is left unchanged (a
        resend). `at` None takes this successor's mark back (current again; None whether
        or not there was one). Each mark on its own; one round trip for the batch
        (DynamoDB: one conditional UpdateItem per mark, side by side).
        """
        ...

    def read_for_delete(self, tenant: str, ids: Sequence[MemoryId], now: datetime) -> DeleteRead:
        """The live memories of `ids` (as `get_memories`), read so that `delete_memories`
        can remove them without reading again (DynamoDB: one consistent Query per memory
        partition instead of a BatchGetItem: item, ratings and a tombstone)."""
        ...

    def delete_memories(
        self,
        tenant: str,
        ids: Sequence[MemoryId],
        now: datetime,
        read: DeleteRead | None = None,
        marks: CallMarks | None = None,
    ) -> list[MemoryId]:
        """Delete memories with their ratings, embeddings and postings.

        Returns the IDs that existed and were not expired at `now` (expired ones are deleted
        too, but reported like missing ones). `read`: some of them as `read_for_delete`
        read them (every rating and replace moves `Memory.version`); an adapter deletes
        those on their version without reading them again — one whose version moved since
        is read and deleted as the others. `marks`: each memory this call removes gets its
        mark on the call record in the same transaction as its removal (none else).
        """
        ...

    def recent_memories(
        self, tenant: str, typ: MemoryType, areas: Sequence[str], now: datetime, limit: int
    ) -> list[Memory]:
        """The newest memories of one type in the given areas (highest ID first), not
        expired at `now`, at most `limit`. Per area an ordered index read, newest first
        (DynamoDB: one by_vk_typ Query of `MTYP#<typ>#<area>` per area, side by side),
        never a tenant-wide read. No areas or limit <= 0 give []."""
        ...

    def list_memories(
        self,
        tenant: str,
        areas: Sequence[str],
        before: MemoryPosition | None,
        now: datetime,
        limit: int,
    ) -> list[Memory]:
        """The memories of the given areas, not expired at `now`, newest first (descending
        `MemoryPosition`), strictly before `before` when given, at most `limit`.

        No scan: per area an ordered index read (DynamoDB: one by_area Query per area, side
        by side). No areas or limit <= 0 give [].
        """
        ...

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
        """Postings per analysed term of the memories in the given areas, plus the memory
        corpus stats. Reads only those areas' postings: per (area, term) the at most
        `per_area_term` postings of highest impact (`shared/search/postings.py`). Postings
        of expired memories may still appear (their `expires_at` tells).

        With `words` (the search path), instead of `terms`' postings: the exact top k of
        the query over the areas read, in `words` (`shared/search/topk.py`: the first page
        of every (area, term) list in the first stage, further pages side by side per step
        only while a memory not yet seen could still enter the top k, within the query's
        read budget).

        With `member`, also `projects_of(tenant, member)`, and the postings of those
        project areas that may hold memories under `path` (`searched_areas`). With
        `recent` > 0 (and `now`), also `recent_memories(SHORTTERM)` of all areas read.
        With `vector`, also `search_vectors` of it over the areas read (its own `areas`
        are ignored) in `vectors`, a `VectorProfileError` there instead of raised; hits in
        an area the member turned out not to have may remain (check loaded memories).
        One round trip (DynamoDB: every Query and the QueryVectors side by side) when the
        member's projects are known ahead; the projects read tells, so a second stage
        reads only project areas nobody expected."""
        ...

    def delete_expired(self, now: datetime, limit: int) -> list[ExpiredMemory]:
        """The expiry sweep, across tenants: delete at most `limit` short-term memories whose
        `expires_at <= now`, with ratings, embeddings and postings. Safe to re-run."""
        ...

    def get_memories(
        self, tenant: str, ids: Sequence[MemoryId], now: datetime
    ) -> dict[MemoryId, Memory]:
        """The memories that exist and are not expired at `now`; missing IDs are absent."""
        ...

    def get_embedding(self, tenant: str, memory_id: MemoryId) -> bytes | None:
        """The stored little-endian float32 embedding of a memory, if it has one."""
        ...

    def profile_dimensions(self, tenant: str, profiles: Sequence[str]) -> dict[str, int]:
        """The dimension of each of `profiles` that has a stored vector: fixed by its first
        (should a store hold several, the smallest). SQLite: the tenant's memories
        (`memories_by_profile`); AWS: the profile's S3 Vectors index in the bucket, shared by
        its tenants (one ListIndexes per profile, remembered by the process)."""
        ...

    def search_vectors(self, query: VectorQuery) -> list[VectorHit]:
        """The memories of `query.areas` whose embedding has the query's profile and
        dimension, not expired at `query.now` (of `query.typ` when given), by cosine
        similarity, best first, at most `query.limit`; ties by memory ID.

        Reads only the given areas (SQLite: exact search over them; AWS: one S3 Vectors
        QueryVectors with a tenant/area/type/expiry metadata filter). Raises
        `VectorProfileError` when the profile has no vectors of the query's dimension at all
        (unknown profile, or known only with other dimensions), `VectorSearchUnavailable`
        when the vector store does not answer (AWS: any other S3 Vectors error).
        """
        ...

    def find_memories_by_scopes(
        self,
        tenant: str,
        scopes: Sequence[tuple[str, str]],
        now: datetime,
        limit: int,
        areas: Sequence[str] | None = None,
    ) -> dict[tuple[str, str], list[Memory]]:
        """Per distinct (scope, scope_vk) pair: the long-term memories with exactly that
        scope/scope_vk, not expired at `now`, newest first, at most `limit` each. With
        `areas`, only memories in those areas count, and the filter comes before the limit
        (memories the caller may not see never push visible ones out). Pairs without
        memories may be absent from the result; duplicate pairs are looked up once; no
        pairs give {}. One round trip on adapters that can parallelise (DynamoDB: one Query
        per pair, side by side).
        """
        ...

    def memory_stats(self, tenant: str) -> CorpusStats:
        """Documents and total weighted length of the tenant's memory search index."""
        ...

    # --- ratings ------------------------------------------------------------------------
    def record_ratings(
        self,
        ratings: Sequence[Rating],
        now: datetime,
        known: Mapping[MemoryId, Memory] | None = None,
    ) -> list[RatingOutcome | EntryFailure]:
        """Each rating atomically: its score2memory record plus the memory's aggregate.

        `known` may hold recent snapshots of the rated memories (the caller just read them);
        an adapter with optimistic concurrency starts from them instead of reading again.
        Ratings of different memories are independent; ratings of one memory apply in order.

        score_count += 1, score_sum += score, last_call = max(last_call, datum).
        Concurrent ratings of one memory never lose an update. A memory that is missing or
        expired at `now` gives EntryFailure(NOT_FOUND) and writes nothing.
        """
        ...

    def get_ratings(self, tenant: str, memory_id: MemoryId) -> list[Rating]:
        """All ratings of one memory, in insert_ID order."""
        ...

    # --- brain entries and their search index -------------------------------------------
    def put_brain_entries(self, writes: Sequence[BrainWrite]) -> list[EntryFailure | None]:
        """Create entries, or replace `previous` by `entry`, updating postings and stats.

        A replace whose entry no longer exists gives EntryFailure(NOT_FOUND).
        """
        ...

    def get_brain_entries(self, tenant: str, ids: Sequence[int]) -> dict[int, BrainEntry]: ...

    def find_brain_by_reference(
        self, tenant: str, vk_typ: str, vk_referenz_id: str | None, limit: int
    ) -> list[BrainEntry]:
        """Entries about one entity (or, with vk_referenz_id None, of one vk_typ), newest first."""
        ...

    def find_brain_by_references(
        self, tenant: str, references: Sequence[tuple[str, str]], limit: int
    ) -> dict[tuple[str, str], list[BrainEntry]]:
        """`find_brain_by_reference` for several (vk_typ, vk_referenz_id) pairs at once.

        Per distinct pair: the entries about that entity, newest ID first, at most `limit`
        each. Pairs without entries may be absent from the result; duplicate pairs are
        looked up once; no pairs (or limit <= 0) give {}. One round trip on adapters that
        can parallelise (DynamoDB: one by_reference Query per pair, side by side).
        """
        ...

    def list_brain_entries(self, tenant: str, limit: int) -> list[BrainEntry]:
        """The newest entries (highest ID first), at most `limit`."""
        ...

    def lookup_terms(self, tenant: str, terms: Sequence[str]) -> TermLookup:
        """For each analysed term, the entries that contain it (terms without hits omitted),
        plus the corpus stats BM25 needs — one round trip for the whole query."""
        ...

    def brain_stats(self, tenant: str) -> CorpusStats: ...

    # --- projects (areas `projects/<name>` and their members) ---------------------------
    def create_project(self, project: Project) -> bool:
        """Create the project record with its owner as first member (plus `members`).

        Atomic and conditional: False (and nothing written) when the project exists.
        """
        ...

    def get_project(self, tenant: str, name: str) -> Project | None:
        """The project with all its members, or None."""
        ...

    def add_project_members(self, tenant: str, name: str, members: Sequence[str]) -> bool:
        """Add members (idempotent: existing members stay); False when the project does
        not exist, and then nothing is written."""
        ...

    def remove_project_members(self, tenant: str, name: str, members: Sequence[str]) -> bool:
        """Remove members in both directions (idempotent: non-members are ignored); False
        when the project does not exist, and then nothing is written. The owner rule (the
        owner stays) is the caller's (`areas.remove_project_members`)."""
        ...

    def projects_of(self, tenant: str, nutzer: str) -> frozenset[str]:
        """Names of the projects whose member `nutzer` is: one read, never a scan
        (DynamoDB: one Query of the nutzer's reverse membership partition)."""
        ...
