"""Memories: insert (long- and short-term), fetch and rate."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from shared.auth.principal import Principal
from shared.domain import (
    CounterName,
    EntryFailure,
    EntryFailureCode,
    Memory,
    MemoryId,
    MemoryType,
    NewMemory,
    Rating,
    ReservedId,
)
from shared.ledger.classify import ledger_hinweis
from shared.search.analyzer import document_terms
from shared.search.vectors import encode as encode_embedding
from shared.services import responses
from shared.services.areas import Visibility, user_area
from shared.services.authorization import identity_errors, require_caller
from shared.services.context import ServiceContext
from shared.services.embeddings import with_server_embeddings
from shared.services.entry_ids import reserve_entry_ids
from shared.services.profiles import ProfileCheck, Refused
from shared.services.secrets import screen
from shared.services.tags import ensure_tags
from shared.validation.errors import FieldError
from shared.validation.parsed import Batch, FetchRequest, MemoryInput, RatingInput

# The texts of a memory that are scrubbed for secrets before anything is stored, and the
# identifiers that cannot hold a marker (a secret in one refuses the entry).
SCRUBBED_FIELDS = ("kurzbeschreibung", "memory", "tags")
IDENTIFIER_FIELDS = ("scope", "scope_vk", "embedding_profil_hash")
# A rating may be dated a little ahead of the server clock (clock skew), not more.
MAX_FUTURE_SKEW = timedelta(minutes=5)


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


def insert_memories(
    ctx: ServiceContext,
    principal: Principal,
    batch: Batch[MemoryInput],
    typ: MemoryType,
    *,
    area: str | None = None,
) -> dict[str, Any]:
    """Store a batch; the memories live in their nutzer's area unless the caller (the REST
    API, after `areas.authorize_write`) names another `area`."""
    require_caller(principal, batch.caller)
    results: list[dict[str, Any]] = []
    accepted: list[tuple[int, MemoryInput]] = []
    hinweise: dict[int, str] = {}
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
        screened = screen(
            entry, SCRUBBED_FIELDS, ctx.settings.scrub_policy, path, IDENTIFIER_FIELDS
        )
        if screened.value is None:
            results.append(responses.entry_failure(index, screened.errors, typ=typ.value))
            continue
        accepted.append((index, screened.value))
        notes = [screened.hinweis, ledger_hinweis(entry.kurzbeschreibung, entry.memory)]
        if any(notes):
            hinweise[index] = " ".join(note for note in notes if note)

    accepted = _with_profiles(ctx, principal.tenant, typ, accepted, results)
    if accepted:
        results += _store_memories(ctx, principal, batch, typ, accepted, area)
    return responses.batch(responses.with_hinweise(results, hinweise), batch.referenzfelder)


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


def _store_memories(
    ctx: ServiceContext,
    principal: Principal,
    batch: Batch[MemoryInput],
    typ: MemoryType,
    accepted: list[tuple[int, MemoryInput]],
    area: str | None,
) -> list[dict[str, Any]]:
    storage, tenant, now = ctx.storage, principal.tenant, ctx.clock()
    reserved = reserve_entry_ids(ctx, tenant, CounterName(typ.value), accepted)
    # A resend of a write a crash cut off: entries it already stored are not stored again
    # (but completed where the crash cut their write short).
    embeddings = {
        index: None if entry.embedding is None else encode_embedding(entry.embedding)
        for index, entry in accepted
    }
    already = stored_before(ctx, tenant, typ, reserved, now, embeddings)
    results = [
        {"index": index, "typ": typ.value, "erfolg": True, "ID": str(MemoryId(typ, number))}
        for index, number in already.items()
    ]
    accepted = [(index, entry) for index, entry in accepted if index not in already]
    if not accepted:
        return results
    ids = [reserved[index].number for index, _ in accepted]
    stored_tags = ensure_tags(storage, tenant, (entry.tags for _, entry in accepted))

    new_memories = []
    for number, (index, entry) in zip(ids, accepted, strict=True):
        expires_at = None
        if typ is MemoryType.SHORTTERM:
            ttl = entry.ttl_sekunden or ctx.settings.shortterm_ttl_default_s
            expires_at = now + timedelta(seconds=ttl)
        memory = Memory(
            tenant=tenant,
            id=MemoryId(typ, number),
            kurzbeschreibung=entry.kurzbeschreibung,
            memory=entry.memory,
            tags=[stored_tags[tag.casefold()] for tag in entry.tags],
            scope=entry.scope,
            scope_vk=entry.scope_vk,
            nutzer=entry.nutzer,
            agent=entry.agent,
            created_at=now,
            updated_at=now,
            referenzfelder=batch.referenzfelder,
            expires_at=expires_at,
            embedding_dim=len(entry.embedding) if entry.embedding is not None else None,
            embedding_profil_hash=entry.embedding_profil_hash,
            # Brain-tool memories live in their nutzer's area
            area=area or user_area(entry.nutzer),
        )
        memory.terms, memory.doc_len = memory_terms(memory)
        embedding = encode_embedding(entry.embedding) if entry.embedding is not None else None
        new_memories.append(NewMemory(memory, embedding, fresh=not reserved[index].reused))

    outcomes = storage.put_memories(with_server_embeddings(ctx, new_memories))
    for (index, _), new, outcome in zip(accepted, new_memories, outcomes, strict=True):
        if outcome is None:
            results.append(
                {"index": index, "typ": typ.value, "erfolg": True, "ID": str(new.memory.id)}
            )
        else:
            error = FieldError(f"inhalt.memories[{index}]", storage_failure_message(outcome))
            results.append(responses.entry_failure(index, [error], typ=typ.value))
    return results


def stored_before(
    ctx: ServiceContext,
    tenant: str,
    typ: MemoryType,
    reserved: dict[int, ReservedId],
    now: datetime,
    embeddings: Mapping[int, bytes | None] | None = None,
) -> dict[int, int]:
    """{index: ID} of the entries an earlier send of this write stored already. Their
    writes are completed first (`complete_memories`): a crash may have cut them off after
    the item, before its postings, stats or embedding (`embeddings`: bytes per index)."""
    reused = {index: r.number for index, r in reserved.items() if r.reused}
    if not reused:
        return {}
    found = ctx.storage.get_memories(tenant, [MemoryId(typ, n) for n in reused.values()], now)
    already = {index: number for index, number in reused.items() if MemoryId(typ, number) in found}
    if already:
        ctx.storage.complete_memories(
            tenant,
            {
                MemoryId(typ, number): (embeddings or {}).get(index)
                for index, number in already.items()
            },
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


def rate_memories(
    ctx: ServiceContext, principal: Principal, batch: Batch[RatingInput]
) -> dict[str, Any]:
    require_caller(principal, batch.caller)
    now = ctx.clock()
    results: list[dict[str, Any]] = []
    candidates: list[tuple[int, RatingInput]] = []
    for index, entry in enumerate(batch.entries):
        if isinstance(entry, list):
            results.append(responses.entry_failure(index, entry))
            continue
        path = f"inhalt.memories[{index}].parameter"
        errors = identity_errors(principal, nutzer=[], agents=[(f"{path}.agent", entry.agent)])
        if entry.datum is not None and entry.datum > now + MAX_FUTURE_SKEW:
            errors.append(FieldError(f"{path}.datum", "datum darf nicht in der Zukunft liegen."))
        if errors:
            results.append(_rating_failure(index, entry, errors))
        else:
            candidates.append((index, entry))
    if not candidates:
        return responses.batch(results, batch.referenzfelder)

    tenant = principal.tenant
    ids = list(dict.fromkeys(entry.memory_id for _, entry in candidates))
    memories = visible_memories(ctx, principal, batch.caller.nutzer, ids, now)
    accepted: list[tuple[int, RatingInput]] = []
    for index, entry in candidates:
        if entry.memory_id not in memories:
            results.append(_rating_failure(index, entry, [_not_found(index, entry)]))
        else:
            accepted.append((index, entry))
    if not accepted:
        return responses.batch(results, batch.referenzfelder)

    reserved = reserve_entry_ids(ctx, tenant, CounterName.RATING, accepted)
    # A resend of a write a crash cut off: ratings it already recorded count once.
    for index, entry in _rated_before(ctx, tenant, accepted, reserved):
        memory = memories[entry.memory_id]
        results.append(_rating_success(ctx, index, entry, reserved[index].number, memory))
    done = {result["index"] for result in results}
    accepted = [(index, entry) for index, entry in accepted if index not in done]
    if not accepted:
        return responses.batch(results, batch.referenzfelder)
    insert_ids = [reserved[index].number for index, _ in accepted]
    ratings = [
        Rating(
            tenant=tenant,
            insert_id=insert_id,
            memory_id=entry.memory_id,
            agent=entry.agent,
            nutzer=batch.caller.nutzer,
            score=entry.score,
            datum=entry.datum or now,
            referenzfelder=batch.referenzfelder,
        )
        for insert_id, (_, entry) in zip(insert_ids, accepted, strict=True)
    ]
    outcomes = ctx.storage.record_ratings(ratings, now, known=memories)
    for (index, entry), outcome in zip(accepted, outcomes, strict=True):
        if isinstance(outcome, EntryFailure):
            if outcome.code is EntryFailureCode.NOT_FOUND:
                error = _not_found(index, entry)
            else:
                error = FieldError(f"inhalt.memories[{index}]", storage_failure_message(outcome))
            results.append(_rating_failure(index, entry, [error]))
            continue
        results.append(
            {
                "index": index,
                "typ": entry.typ.value,
                "memory_ID": str(entry.memory_id),
                "erfolg": True,
                "insert_ID": outcome.insert_id,
                "score_avg": responses.number(outcome.score_avg),
                "score_count": outcome.score_count,
                "last_call": responses.format_local(outcome.last_call, ctx.settings.zone),
            }
        )
    return responses.batch(results, batch.referenzfelder)


def _rated_before(
    ctx: ServiceContext,
    tenant: str,
    accepted: list[tuple[int, RatingInput]],
    reserved: dict[int, ReservedId],
) -> list[tuple[int, RatingInput]]:
    """The entries whose rating an earlier send of this write recorded already."""
    reused = [(index, entry) for index, entry in accepted if reserved[index].reused]
    recorded: dict[MemoryId, set[int]] = {}
    for memory_id in dict.fromkeys(entry.memory_id for _, entry in reused):
        recorded[memory_id] = {r.insert_id for r in ctx.storage.get_ratings(tenant, memory_id)}
    return [
        (index, entry)
        for index, entry in reused
        if reserved[index].number in recorded[entry.memory_id]
    ]


def _rating_success(
    ctx: ServiceContext, index: int, entry: RatingInput, insert_id: int, memory: Memory
) -> dict[str, Any]:
    return {
        "index": index,
        "typ": entry.typ.value,
        "memory_ID": str(entry.memory_id),
        "erfolg": True,
        "insert_ID": insert_id,
        "score_avg": responses.number(memory.score_avg),
        "score_count": memory.score_count,
        "last_call": responses.format_local(memory.last_call, ctx.settings.zone),
    }


def _not_found(index: int, entry: RatingInput) -> FieldError:
    return FieldError(
        f"inhalt.memories[{index}].parameter.memory_ID",
        not_found_message(entry.memory_id),
    )


def _rating_failure(index: int, entry: RatingInput, errors: list[FieldError]) -> dict[str, Any]:
    return responses.entry_failure(
        index, errors, typ=entry.typ.value, memory_ID=str(entry.memory_id)
    )
