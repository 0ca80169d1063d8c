"""Memories: insert (long- and short-term) and fetch; ratings: services/ratings.py.

An insert is a `Write` (services/writes.py): its token checks build it, the retry layer
runs between those and the storage.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from shared.auth.principal import Principal
from shared.calls import CallRecord, CallState
from shared.domain import (
    CounterName,
    EntryFailure,
    Memory,
    MemoryId,
    MemoryType,
    NewMemory,
)
from shared.ledger.classify import ledger_hinweis
from shared.search.analyzer import document_terms
from shared.search.vectors import encode as encode_embedding
from shared.services import responses
from shared.services.areas import unread_hint, user_area
from shared.services.authorization import identity_errors, require_caller
from shared.services.context import ServiceContext
from shared.services.duplicates import duplicate_hinweis, merge_duplicates
from shared.services.duplicates_ahead import NOTHING_READ, Prefetched, Probe, probe, read_ahead
from shared.services.embeddings import with_server_embeddings

# Moved to entry_errors (supersede.py reads them without a cycle); re-exported for the
# writers that import them from here.
from shared.services.entry_errors import STORAGE_ART as STORAGE_ART
from shared.services.entry_errors import not_found as not_found
from shared.services.entry_errors import not_found_message as not_found_message
from shared.services.entry_errors import storage_failure as storage_failure
from shared.services.entry_errors import storage_failure_message as storage_failure_message
from shared.services.entry_errors import visible_memories as visible_memories
from shared.services.profiles import with_profiles
from shared.services.secrets import clean_value, screen
from shared.services.supersede import Replaced
from shared.services.tags import ensure_tags, scrubbed_tags
from shared.services.writes import Refs, Stored, run_plain, stamp
from shared.tools.idempotency_fields import KEY_FIELD
from shared.validation.errors import FieldError
from shared.validation.parsed import Batch, FetchRequest, MemoryInput
from shared.validation.rules import DUPLICATE_FLAG
from shared.validation.supersede import is_ersetzt_key

# The texts of a memory that are scrubbed for secrets before anything is stored, and the
# identifiers that cannot hold a marker (a secret in one refuses the entry).
SCRUBBED_FIELDS = ("kurzbeschreibung", "memory", "tags")
IDENTIFIER_FIELDS = ("scope", "scope_vk", "embedding_profil_hash")


def memory_terms(memory: Memory) -> tuple[dict[str, int], int]:
    """The search index terms of a memory: kurzbeschreibung weighs like a title."""
    return document_terms(memory.kurzbeschreibung, "\n".join([memory.memory, *memory.tags]))


@dataclass
class InsertWrite:
    """insert_brain_*_memory (and REST POST /api/memory) between the retry layer's phases."""

    ctx: ServiceContext
    principal: Principal
    batch: Batch[MemoryInput]
    typ: MemoryType
    area: str | None
    results: list[dict[str, Any]]  # entries refused before anything is stored
    accepted: list[tuple[int, MemoryInput]]  # as sent: scrubbed in `store`
    tags: dict[str, str] = field(default_factory=dict)
    postings: Prefetched = NOTHING_READ  # read in `ahead` for the duplicate check
    # The area's authorization when it needs storage (REST: `areas.authorize_write`).
    authorize: Callable[[], None] | None = None
    # The memories the entries replace (issue 25; `referenzfelder.ersetzt`, REST `ersetzt`).
    replaced: Replaced | None = None

    @property
    def counter(self) -> CounterName:
        return CounterName(self.typ.value)

    def wants(self) -> dict[CounterName, list[int]]:
        """After `ahead`: without the entries its reads refused (no ID reserved for them)."""
        refused = self._refused()
        return {self.counter: [index for index, _ in self.accepted if index not in refused]}

    def _refused(self) -> dict[int, FieldError]:
        return self.replaced.refused if self.replaced else {}

    def ahead(self) -> None:
        """The area's authorization (when it needs storage), then the tag records (their
        names scrubbed first: no tag record for a refused write) beside the near-duplicate
        check's reads ahead (services/duplicates_ahead.py: read only)."""
        if self.authorize is not None:
            self.authorize()
        ctx, tenant = self.ctx, self.principal.tenant

        def tags() -> None:
            self.tags = ensure_tags(ctx.storage, tenant, self._clean_tags())

        def postings() -> None:
            self.postings = read_ahead(ctx, tenant, self._probes(), ctx.clock())

        replaced = [self.replaced.read] if self.replaced else []
        ctx.storage.side_by_side([tags, postings, *replaced])

    def _probes(self) -> list[Probe]:
        """What the duplicate check reads ahead (services/duplicates_ahead.py): the memory
        texts as `store` scrubs them, with their vectors, of the entries that do not ask
        for a copy (nor replace another memory: `ersetzt` states the relation, nothing is
        merged)."""
        return [
            probe(
                self.ctx,
                self.area or user_area(entry.nutzer),
                self.typ,
                clean_value(entry.kurzbeschreibung).value,
                clean_value(entry.memory).value,
                entry.embedding,
                entry.embedding_profil_hash,
            )
            for index, entry in self.accepted
            if self._checked(index, entry)
        ]

    def _checked(self, index: int, entry: MemoryInput) -> bool:
        """The duplicate check runs for this entry (no copy asked for, nothing replaced)."""
        return not entry.duplikat_erlaubt and not (self.replaced and index in self.replaced.wanted)

    def _clean_tags(self) -> list[list[str]]:
        policy = self.ctx.settings.scrub_policy
        return scrubbed_tags(policy, (entry.tags for _, entry in self.accepted))

    def only(self, indexes: set[int]) -> InsertWrite:
        return replace(
            self,
            results=[r for r in self.results if r["index"] in indexes],
            accepted=[(i, e) for i, e in self.accepted if i in indexes],
        )

    def store(self, ctx: ServiceContext, call: CallRecord) -> Stored:
        results = list(self.results)
        screened: list[tuple[int, MemoryInput]] = []
        hinweise: dict[int, str] = {}
        refused = self._refused()
        for index, error in sorted(refused.items()):
            results.append(responses.entry_failure(index, [error], typ=self.typ.value))
        for index, entry in self.accepted:
            if index in refused:
                continue
            path = f"inhalt.memories[{index}]"
            checked = screen(
                entry, SCRUBBED_FIELDS, ctx.settings.scrub_policy, path, IDENTIFIER_FIELDS
            )
            if checked.value is None:
                results.append(responses.entry_failure(index, checked.errors, typ=self.typ.value))
                continue
            screened.append((index, checked.value))
            notes = [checked.hinweis, ledger_hinweis(entry.kurzbeschreibung, entry.memory)]
            if any(notes):
                hinweise[index] = " ".join(note for note in notes if note)
        screened = with_profiles(ctx, self.principal.tenant, self.typ, screened, results)
        refs: Refs = {}
        if screened:
            results += self._store(ctx, call, screened, refs)
        envelope = responses.batch(
            responses.with_hinweise(results, hinweise), self.batch.referenzfelder
        )
        # Once per call, not per entry: where it went and how this token finds it.
        unread = unread_hint(self.principal, responses.written_areas(results))
        if unread:
            envelope["hinweis"] = unread
        return Stored(envelope, refs)

    def _store(
        self,
        ctx: ServiceContext,
        call: CallRecord,
        accepted: list[tuple[int, MemoryInput]],
        refs: Refs,
    ) -> list[dict[str, Any]]:
        storage, tenant, now, typ = ctx.storage, self.principal.tenant, ctx.clock(), self.typ
        ids = {index: call.id_of(self.counter, index) for index, _ in accepted}
        replaced = self.replaced
        refused: list[dict[str, Any]] = []
        if replaced:
            for index, _ in accepted:
                error = replaced.check(index, MemoryId(typ, ids[index]))
                if error is not None:
                    refused.append(responses.entry_failure(index, [error], typ=typ.value))
            gone = {entry["index"] for entry in refused}
            accepted = [(index, entry) for index, entry in accepted if index not in gone]
        successors = {index: MemoryId(typ, ids[index]) for index, _ in accepted}
        resumed = call.state is CallState.RESUMED
        embeddings = {
            index: None if entry.embedding is None else encode_embedding(entry.embedding)
            for index, entry in accepted
        }
        # A resend of a write a crash cut off: entries it already stored are not stored again
        # (but completed where the crash cut their write short).
        already = stored_before(ctx, tenant, typ, ids, now, embeddings) if resumed else {}
        results = [*refused]
        results += [self._success(index, memory, refs) for index, memory in already.items()]
        accepted = [(index, entry) for index, entry in accepted if index not in already]
        marked: dict[int, FieldError] = {}
        if not accepted:
            if replaced:
                marked = replaced.mark({i: successors[i] for i in already}, now)
            return _with_mark_errors(results, marked)
        missing = [
            tag for _, entry in accepted for tag in entry.tags if tag.casefold() not in self.tags
        ]
        stored_tags = {**self.tags, **ensure_tags(storage, tenant, [missing])}
        new_memories = []
        for index, entry in accepted:
            memory = self._memory(ctx, entry, ids[index], stored_tags, now)
            embedding = embeddings[index]
            new_memories.append(NewMemory(memory, embedding))
        new_memories = with_server_embeddings(ctx, new_memories, self.postings.embedded)
        checked = [
            (index, new)
            for (index, entry), new in zip(accepted, new_memories, strict=True)
            if self._checked(index, entry)
        ]
        own = frozenset(MemoryId(typ, n) for n in call.ids.get(self.counter, {}).values())
        merged = merge_duplicates(ctx, tenant, checked, now, own, self.postings)
        results += [self._success(i, memory, refs, duplikat=True) for i, memory in merged.items()]
        kept = [(pair, new) for pair, new in zip(accepted, new_memories, strict=True)]
        kept = [(pair, new) for pair, new in kept if pair[0] not in merged]
        accepted, new_memories = [pair for pair, _ in kept], [new for _, new in kept]

        def put() -> list[EntryFailure | None]:
            return storage.put_memories(new_memories) if new_memories else []

        def mark() -> list[EntryFailure | None]:
            if replaced:
                marked.update(replaced.mark(successors, now))
            return []

        # The successors and the marks of what they replace: one stage.
        outcomes, _ = storage.side_by_side([put, mark])
        failed = {
            index: outcome
            for (index, _), outcome in zip(accepted, outcomes, strict=True)
            if outcome is not None
        }
        # A send racing its resend (one of them took the other's record over): an ID
        # reserved for this entry that is stored now was stored by the other send; the
        # entry is stored, never reported failed.
        raced = (
            stored_before(ctx, tenant, typ, {i: ids[i] for i in failed}, now, embeddings)
            if failed
            else {}
        )
        for (index, _), new in zip(accepted, new_memories, strict=True):
            if index not in failed:
                results.append(self._success(index, new.memory, refs))
            elif index in raced:
                results.append(self._success(index, raced[index], refs))
            else:
                error = storage_failure(f"inhalt.memories[{index}]", failed[index])
                results.append(responses.entry_failure(index, [error], typ=typ.value))
        lost = {index: successors[index] for index in failed if index not in raced}
        if replaced and lost:
            replaced.unmark(lost, now)
        return _with_mark_errors(results, {i: e for i, e in marked.items() if i not in lost})

    def _success(
        self, index: int, memory: Memory, refs: Refs, *, duplikat: bool = False
    ) -> dict[str, Any]:
        refs[index] = (str(memory.id), stamp(memory.updated_at))
        # Where it went: the area says who finds it (CONTRACT §2 areas).
        success: dict[str, Any] = {
            "index": index,
            "typ": self.typ.value,
            "erfolg": True,
            "ID": str(memory.id),
            "bereich": memory.area,
        }
        if duplikat:
            success["duplikat_von"] = str(memory.id)
            success["hinweis"] = duplicate_hinweis(memory.id)
        if self.replaced and index in self.replaced.wanted:
            success["ersetzt"] = self.replaced.replaced_ids(index)
        return success

    def _memory(
        self,
        ctx: ServiceContext,
        entry: MemoryInput,
        number: int,
        stored_tags: dict[str, str],
        now: datetime,
    ) -> Memory:
        expires_at = None
        if self.typ is MemoryType.SHORTTERM:
            ttl = entry.ttl_sekunden or ctx.settings.shortterm_ttl_default_s
            expires_at = now + timedelta(seconds=ttl)
        memory = Memory(
            tenant=self.principal.tenant,
            id=MemoryId(self.typ, number),
            kurzbeschreibung=entry.kurzbeschreibung,
            memory=entry.memory,
            tags=[stored_tags[tag.casefold()] for tag in entry.tags],
            scope=entry.scope,
            scope_vk=entry.scope_vk,
            nutzer=entry.nutzer,
            agent=entry.agent,
            created_at=now,
            updated_at=now,
            referenzfelder=stored_referenzfelder(self.batch.referenzfelder),
            expires_at=expires_at,
            embedding_dim=len(entry.embedding) if entry.embedding is not None else None,
            embedding_profil_hash=entry.embedding_profil_hash,
            # Brain-tool memories live in their nutzer's area
            area=self.area or user_area(entry.nutzer),
        )
        memory.terms, memory.doc_len = memory_terms(memory)
        return memory


def _with_mark_errors(
    results: list[dict[str, Any]], marked: dict[int, FieldError]
) -> list[dict[str, Any]]:
    """Stored entries whose replaced memories could not be marked say so (`ersetzt_fehler`):
    the entry itself is stored."""
    for entry in results:
        error = marked.get(entry["index"])
        if error is not None and entry.get("erfolg"):
            entry["ersetzt_fehler"] = error.as_dict()
            entry.pop("ersetzt", None)
    return results


def prepare_insert(
    ctx: ServiceContext,
    principal: Principal,
    batch: Batch[MemoryInput],
    typ: MemoryType,
    *,
    area: str | None = None,
) -> InsertWrite:
    """The token's checks of an insert (no storage read); the memories live in their
    nutzer's area unless the caller (the REST API, after `areas.authorize_write`) names
    another `area`."""
    require_caller(principal, batch.caller)
    results: list[dict[str, Any]] = []
    accepted: list[tuple[int, MemoryInput]] = []
    for index, entry in enumerate(batch.entries):
        if isinstance(entry, list):
            results.append(responses.entry_failure(index, entry, typ=typ.value))
            continue
        path = f"inhalt.memories[{index}]"
        errors = identity_errors(
            principal,
            nutzer=[(f"{path}.nutzer", entry.nutzer)],
            agents=[(f"{path}.agent", entry.agent)],
        )
        if errors:
            results.append(responses.entry_failure(index, errors, typ=typ.value))
            continue
        accepted.append((index, entry))
    kept = {index for index, _ in accepted}
    wanted = {index: named for index, named in batch.ersetzt.items() if index in kept}
    replaced = Replaced.of(ctx, principal, batch.caller.nutzer, wanted) if wanted else None
    return InsertWrite(ctx, principal, batch, typ, area, results, accepted, replaced=replaced)


def insert_memories(
    ctx: ServiceContext,
    principal: Principal,
    batch: Batch[MemoryInput],
    typ: MemoryType,
    *,
    area: str | None = None,
) -> dict[str, Any]:
    """Store a batch outside the retry layer (services/writes.py `run_plain`)."""
    write = prepare_insert(ctx, principal, batch, typ, area=area)
    return run_plain(ctx, principal.tenant, write)


def stored_referenzfelder(referenzfelder: Mapping[str, Any]) -> dict[str, Any]:
    """The provenance a write stores: its referenzfelder without the idempotency key, which
    is an opaque identifier and lives only inside the call record's digest, and without the
    duplicate flag (an instruction, not provenance)."""
    return {
        k: v
        for k, v in referenzfelder.items()
        if k not in (KEY_FIELD, DUPLICATE_FLAG) and not is_ersetzt_key(k)
    }


def stored_before(
    ctx: ServiceContext,
    tenant: str,
    typ: MemoryType,
    ids: Mapping[int, int],
    now: datetime,
    embeddings: Mapping[int, bytes | None] | None = None,
) -> dict[int, Memory]:
    """{index: memory} of the entries an earlier send of this write stored already (their
    IDs were reserved for exactly these entries). Their writes are completed first
    (`complete_memories`): a crash may have cut them off after the item, before its
    postings or embedding (`embeddings`: bytes per index)."""
    if not ids:
        return {}
    found = ctx.storage.get_memories(tenant, [MemoryId(typ, n) for n in ids.values()], now)
    already = {
        index: found[MemoryId(typ, number)]
        for index, number in ids.items()
        if MemoryId(typ, number) in found
    }
    if already:
        ctx.storage.complete_memories(
            [(memory, (embeddings or {}).get(index)) for index, memory in already.items()]
        )
    return already


def memory_view(memory: Memory, ctx: ServiceContext) -> dict[str, Any]:
    zone = ctx.settings.zone
    view: dict[str, Any] = {
        "ID": str(memory.id),
        "kurzbeschreibung": memory.kurzbeschreibung,
        "memory": memory.memory,
        "tags": memory.tags,
        "scope": memory.scope,
        "scope_vk": memory.scope_vk,
        "score_avg": responses.number(memory.score_avg),
        "score_count": memory.score_count,
        "last_call": responses.format_local(memory.last_call, zone),
        "nutzer": memory.nutzer,
        "agent": memory.agent,
        "erstellt": responses.format_local(memory.created_at, zone),
    }
    if memory.expires_at is not None:
        view["ablauf"] = responses.format_local(memory.expires_at, zone)
    if memory.embedding_dim is not None:
        view["embedding_dim"] = memory.embedding_dim
    if memory.embedding_profil_hash is not None:
        view["embedding_profil_hash"] = memory.embedding_profil_hash
    if memory.gueltig_bis is not None:  # superseded (issue 25): ISO 8601 with offset
        view["gueltig_bis"] = memory.gueltig_bis.astimezone(zone).isoformat()
    if memory.ersetzt_durch is not None:
        view["ersetzt_durch"] = str(memory.ersetzt_durch)
    return view


def requested_ids(request: FetchRequest) -> tuple[list[tuple[str, MemoryId]], list[str]]:
    """The IDs listed under their own type (raw and parsed, request order), and the raw IDs
    that cannot exist because they are listed under the other type."""
    wanted: list[tuple[str, MemoryId]] = []
    impossible: list[str] = []
    for typ, raw_ids in (
        (MemoryType.SHORTTERM, request.shortterm),
        (MemoryType.LONGTERM, request.longterm),
    ):
        for raw in raw_ids:
            memory_id = MemoryId.parse(raw)
            if memory_id is None or memory_id.typ is not typ:
                impossible.append(raw)
            else:
                wanted.append((raw, memory_id))
    return wanted, impossible


def fetch_memories(
    ctx: ServiceContext, principal: Principal, request: FetchRequest
) -> dict[str, Any]:
    require_caller(principal, request.caller)
    wanted, not_found = requested_ids(request)
    found = visible_memories(
        ctx, principal, request.caller.nutzer, [mid for _, mid in wanted], ctx.clock()
    )
    daten: dict[str, Any] = {"shortterm": [], "longterm": []}
    for raw, memory_id in wanted:
        memory = found.get(memory_id)
        if memory is not None:
            daten[memory_id.typ.value].append(memory_view(memory, ctx))
        else:
            not_found.append(raw)
    daten["nicht_gefunden"] = list(dict.fromkeys(not_found))
    return responses.success(daten, request.referenzfelder)
