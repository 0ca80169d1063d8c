"""Memories: insert (long- and short-term) and fetch; ratings: services/ratings.py.

An insert is a `Write` (services/writes.py): its token checks build it, the retry layer
runs between those and the storage.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Final

from shared.auth.principal import Principal
from shared.calls import CallRecord, CallState
from shared.domain import (
    CounterName,
    EntryFailure,
    EntryFailureCode,
    Memory,
    MemoryId,
    MemoryType,
    NewMemory,
)
from shared.ledger.classify import ledger_hinweis
from shared.search.analyzer import document_terms
from shared.search.vectors import encode as encode_embedding
from shared.services import responses
from shared.services.areas import Visibility, unread_hint, user_area
from shared.services.authorization import identity_errors, require_caller
from shared.services.context import ServiceContext
from shared.services.duplicates import (
    NOTHING_READ,
    Prefetched,
    check_terms,
    duplicate_hinweis,
    merge_duplicates,
    read_postings,
)
from shared.services.embeddings import with_server_embeddings
from shared.services.profiles import ProfileCheck, Refused
from shared.services.secrets import clean_value, screen
from shared.services.tags import ensure_tags, scrubbed_tags
from shared.services.writes import Refs, Stored, run_plain, stamp
from shared.tools.idempotency_fields import KEY_FIELD
from shared.validation.errors import Art, FieldError
from shared.validation.parsed import Batch, FetchRequest, MemoryInput
from shared.validation.rules import DUPLICATE_FLAG

# The texts of a memory that are scrubbed for secrets before anything is stored, and the
# identifiers that cannot hold a marker (a secret in one refuses the entry).
SCRUBBED_FIELDS = ("kurzbeschreibung", "memory", "tags")
IDENTIFIER_FIELDS = ("scope", "scope_vk", "embedding_profil_hash")


def memory_terms(memory: Memory) -> tuple[dict[str, int], int]:
    """The search index terms of a memory: kurzbeschreibung weighs like a title."""
    return document_terms(memory.kurzbeschreibung, "\n".join([memory.memory, *memory.tags]))


def not_found_message(memory_id: object) -> str:
    """Missing, expired and not visible read alike, so sequential IDs reveal nothing."""
    return f"nicht_gefunden: Die Erinnerung '{memory_id}' existiert nicht."


def storage_failure_message(failure: EntryFailure) -> str:
    """German text for a storage outcome; never includes storage details or values."""
    if failure.code is EntryFailureCode.NOT_FOUND:
        return "nicht_gefunden: Die Erinnerung existiert nicht."
    if failure.code is EntryFailureCode.CONFLICT:
        return (
            "Konflikt: Die Erinnerung wurde gleichzeitig geändert; der Eintrag wurde nicht "
            "gespeichert. Bitte diesen Eintrag erneut senden."
        )
    return "Speicherfehler: Der Eintrag wurde nicht gespeichert. Bitte erneut senden."


STORAGE_ART: Final = {
    EntryFailureCode.NOT_FOUND: Art.NOT_FOUND,
    EntryFailureCode.CONFLICT: Art.CONFLICT,
}


def storage_failure(path: str, failure: EntryFailure) -> FieldError:
    """The error of a storage outcome, its kind from the storage's typed code."""
    art = STORAGE_ART.get(failure.code, Art.STORAGE)
    return FieldError(path, storage_failure_message(failure), art)


def not_found(path: str, memory_id: object) -> FieldError:
    return FieldError(path, not_found_message(memory_id), Art.NOT_FOUND)


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
    ahead_first: bool = False

    @property
    def counter(self) -> CounterName:
        return CounterName(self.typ.value)

    def wants(self) -> dict[CounterName, list[int]]:
        return {self.counter: [index for index, _ in self.accepted]}

    def ahead(self) -> None:
        """The area's authorization (when it needs storage), then the tag records (their
        names scrubbed first: no tag record for a refused write) beside the near-duplicate
        check's postings read (services/duplicates.py: read only)."""
        if self.authorize is not None:
            self.authorize()
        ctx, tenant = self.ctx, self.principal.tenant

        def tags() -> None:
            self.tags = ensure_tags(ctx.storage, tenant, self._clean_tags())

        def postings() -> None:
            self.postings = read_postings(ctx, tenant, self._check_terms(), ctx.clock())

        ctx.storage.side_by_side([tags, postings])

    def _check_terms(self) -> dict[str, set[str]]:
        """Per target area the terms the duplicate check looks up: those of the memory
        texts as `store` scrubs them, of the entries that do not ask for a copy."""
        return check_terms(
            [
                (self.area or user_area(entry.nutzer), clean_value(entry.memory).value)
                for _, entry in self.accepted
                if not entry.duplikat_erlaubt
            ]
        )

    def _clean_tags(self) -> list[list[str]]:
        policy = self.ctx.settings.scrub_policy
        return scrubbed_tags(policy, (entry.tags for _, entry in self.accepted))

    def marks(self) -> tuple[str, ...]:
        return ()

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
        for index, entry in self.accepted:
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
        screened = _with_profiles(ctx, self.principal.tenant, self.typ, screened, results)
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
        resumed = call.state is CallState.RESUMED
        embeddings = {
            index: None if entry.embedding is None else encode_embedding(entry.embedding)
            for index, entry in accepted
        }
        # A resend of a write a crash cut off: entries it already stored are not stored again
        # (but completed where the crash cut their write short).
        already = stored_before(ctx, tenant, typ, ids, now, embeddings) if resumed else {}
        results = [self._success(index, memory, refs) for index, memory in already.items()]
        accepted = [(index, entry) for index, entry in accepted if index not in already]
        if not accepted:
            return results
        missing = [
            tag for _, entry in accepted for tag in entry.tags if tag.casefold() not in self.tags
        ]
        stored_tags = {**self.tags, **ensure_tags(storage, tenant, [missing])}
        new_memories = []
        for index, entry in accepted:
            memory = self._memory(ctx, entry, ids[index], stored_tags, now)
            embedding = embeddings[index]
            new_memories.append(NewMemory(memory, embedding, fresh=not resumed))
        new_memories = with_server_embeddings(ctx, new_memories)
        checked = [
            (index, new)
            for (index, entry), new in zip(accepted, new_memories, strict=True)
            if not entry.duplikat_erlaubt
        ]
        own = frozenset(MemoryId(typ, n) for n in call.ids.get(self.counter, {}).values())
        merged = merge_duplicates(ctx, tenant, checked, now, own, self.postings)
        results += [self._success(i, memory, refs, duplikat=True) for i, memory in merged.items()]
        kept = [(pair, new) for pair, new in zip(accepted, new_memories, strict=True)]
        kept = [(pair, new) for pair, new in kept if pair[0] not in merged]
        accepted, new_memories = [pair for pair, _ in kept], [new for _, new in kept]
        outcomes = storage.put_memories(new_memories) if new_memories else []
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
        return results

    def _success(
        self, index: int, memory: Memory, refs: Refs, *, duplikat: bool = False
    ) -> dict[str, Any]:
        refs[index] = (str(memory.id), stamp(memory.updated_at))
        # Where it went: the area says who finds it (CONTRACT §2 areas).
        result = {
            "index": index,
            "typ": self.typ.value,
            "erfolg": True,
            "ID": str(memory.id),
            "bereich": memory.area,
        }
        if duplikat:
            result["duplikat_von"] = str(memory.id)
            result["hinweis"] = duplicate_hinweis(memory.id)
        return result

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
    return InsertWrite(ctx, principal, batch, typ, area, results, accepted)


def _with_profiles(
    ctx: ServiceContext,
    tenant: str,
    typ: MemoryType,
    accepted: list[tuple[int, MemoryInput]],
    results: list[dict[str, Any]],
) -> list[tuple[int, MemoryInput]]:
    """The entries whose vectors keep the profile rule (`profiles.py`), each with the profile
    it goes under; the others' refusals go to `results`."""
    with_vectors = [entry for _, entry in accepted if entry.embedding is not None]
    if not with_vectors:
        return accepted
    check = ProfileCheck(ctx, tenant, (entry.embedding_profil_hash for entry in with_vectors))
    kept: list[tuple[int, MemoryInput]] = []
    for index, entry in accepted:
        if entry.embedding is None:
            kept.append((index, entry))
            continue
        profile = check.resolve(len(entry.embedding), entry.embedding_profil_hash)
        if isinstance(profile, Refused):
            error = FieldError(f"inhalt.memories[{index}].{profile.field}", profile.message)
            results.append(responses.entry_failure(index, [error], typ=typ.value))
        else:
            kept.append((index, replace(entry, embedding_profil_hash=profile)))
    return kept


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
    return {k: v for k, v in referenzfelder.items() if k not in (KEY_FIELD, DUPLICATE_FLAG)}


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
    postings, stats or embedding (`embeddings`: bytes per index)."""
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
            tenant,
            {memory.id: (embeddings or {}).get(index) for index, memory in already.items()},
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


def visible_memories(
    ctx: ServiceContext, principal: Principal, nutzer: str, ids: list[MemoryId], now: datetime
) -> dict[MemoryId, Memory]:
    """The memories that exist, are not expired and lie in an area the call acting as
    `nutzer` may read; all others are reported alike (nicht_gefunden), so sequential IDs
    reveal nothing."""
    found = ctx.storage.get_memories(principal.tenant, ids, now) if ids else {}
    visibility = Visibility(ctx, principal, nutzer)
    return {mid: m for mid, m in found.items() if visibility.may_read(m.area)}


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
