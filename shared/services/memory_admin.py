"""Changing and forgetting memories: update_brain_memories, delete_brain_memories."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from shared.auth.principal import Principal
from shared.domain import (
    EmbeddingChange,
    EntryFailure,
    EntryFailureCode,
    Memory,
    MemoryId,
    MemoryReplace,
)
from shared.search.vectors import encode as encode_embedding
from shared.services import responses
from shared.services.authorization import require_caller
from shared.services.context import ServiceContext
from shared.services.embeddings import with_refreshed_embeddings
from shared.services.memories import (
    IDENTIFIER_FIELDS,
    SCRUBBED_FIELDS,
    memory_terms,
    not_found_message,
    requested_ids,
    storage_failure_message,
    visible_memories,
)
from shared.services.profiles import ProfileCheck, Refused
from shared.services.secrets import screen
from shared.services.summary import follows_text, summary_of
from shared.validation.errors import FieldError
from shared.validation.parsed import UNSET, Batch, FetchRequest, MemoryUpdateInput

# A rating or another update may land between our read and our write; then we read again.
UPDATE_ATTEMPTS = 3
DUPLICATE_ID = (
    "Doppelte ID im Batch: jede Erinnerung höchstens einmal pro Aufruf ändern "
    "(der erste Eintrag wird angewendet)."
)


def update_memories(
    ctx: ServiceContext, principal: Principal, batch: Batch[MemoryUpdateInput]
) -> dict[str, Any]:
    require_caller(principal, batch.caller)
    results: list[dict[str, Any]] = []
    pending: dict[int, MemoryUpdateInput] = {}
    hinweise: dict[int, str] = {}
    seen: set[MemoryId] = set()
    for index, entry in enumerate(batch.entries):
        if isinstance(entry, list):
            results.append(responses.entry_failure(index, entry))
        elif entry.memory_id in seen:
            results.append(_failure(index, entry, DUPLICATE_ID, "ID"))
        else:
            seen.add(entry.memory_id)
            path = f"inhalt.memories[{index}]"
            screened = screen(
                entry, SCRUBBED_FIELDS, ctx.settings.scrub_policy, path, IDENTIFIER_FIELDS
            )
            if screened.value is None:
                results.append(responses.entry_failure(index, screened.errors, ID=entry.raw_id))
                continue
            pending[index] = screened.value
            if screened.hinweis:
                hinweise[index] = screened.hinweis

    tag_names = {
        tag.casefold(): tag
        for entry in pending.values()
        if entry.tags is not UNSET
        for tag in entry.tags
    }
    stored_tags = (
        ctx.storage.ensure_tags(principal.tenant, list(tag_names.values())) if tag_names else {}
    )

    for _ in range(UPDATE_ATTEMPTS):
        if not pending:
            break
        pending = _update_round(ctx, principal, batch, pending, stored_tags, results)
    for index, entry in pending.items():
        message = storage_failure_message(EntryFailure(EntryFailureCode.CONFLICT))
        results.append(_failure(index, entry, message))
    return responses.batch(responses.with_hinweise(results, hinweise), batch.referenzfelder)


def _update_round(
    ctx: ServiceContext,
    principal: Principal,
    batch: Batch[MemoryUpdateInput],
    pending: dict[int, MemoryUpdateInput],
    stored_tags: dict[str, str],
    results: list[dict[str, Any]],
) -> dict[int, MemoryUpdateInput]:
    """One read-modify-write pass; returns the entries that met a concurrent change."""
    now = ctx.clock()
    ids = list(dict.fromkeys(entry.memory_id for entry in pending.values()))
    current = visible_memories(ctx, principal, batch.caller.nutzer, ids, now)
    writes: list[tuple[int, MemoryUpdateInput, MemoryReplace]] = []
    check = _profile_check(ctx, principal.tenant, pending, current)
    for index, entry in pending.items():
        memory = current.get(entry.memory_id)
        if memory is None:
            results.append(_failure(index, entry, not_found_message(entry.raw_id), "ID"))
            continue
        if entry.embedding is not UNSET and entry.embedding is not None:
            profile = check.resolve(len(entry.embedding), _new_profile(entry, memory))
            if isinstance(profile, Refused):
                results.append(_failure(index, entry, profile.message, profile.field))
                continue
            entry = replace(entry, embedding_profil_hash=profile)
        writes.append((index, entry, _apply(memory, entry, stored_tags, batch, now)))
    changes = with_refreshed_embeddings(ctx, [write for _, _, write in writes])
    outcomes = ctx.storage.replace_memories(changes, now) if changes else []
    retry: dict[int, MemoryUpdateInput] = {}
    for (index, entry, _), outcome in zip(writes, outcomes, strict=True):
        if outcome is None:
            results.append({"index": index, "ID": entry.raw_id, "erfolg": True})
        elif outcome.code is EntryFailureCode.CONFLICT:
            retry[index] = entry
        elif outcome.code is EntryFailureCode.NOT_FOUND:
            results.append(_failure(index, entry, not_found_message(entry.raw_id), "ID"))
        else:
            results.append(_failure(index, entry, storage_failure_message(outcome)))
    return retry


def _new_profile(entry: MemoryUpdateInput, memory: Memory) -> str | None:
    """The profile a new vector of an update goes under: the entry's, else the stored one."""
    if entry.embedding_profil_hash is UNSET:
        return memory.embedding_profil_hash
    return entry.embedding_profil_hash


def _profile_check(
    ctx: ServiceContext,
    tenant: str,
    pending: dict[int, MemoryUpdateInput],
    current: Mapping[MemoryId, Memory],
) -> ProfileCheck:
    profiles = [
        _new_profile(entry, current[entry.memory_id])
        for entry in pending.values()
        if entry.embedding not in (UNSET, None) and entry.memory_id in current
    ]
    return ProfileCheck(ctx, tenant, profiles)


def _apply(
    memory: Memory,
    entry: MemoryUpdateInput,
    stored_tags: dict[str, str],
    batch: Batch[MemoryUpdateInput],
    now: datetime,
) -> MemoryReplace:
    changed = replace(
        memory, updated_at=now, referenzfelder=batch.referenzfelder or memory.referenzfelder
    )
    if entry.kurzbeschreibung is not UNSET:
        changed.kurzbeschreibung = entry.kurzbeschreibung
    if entry.memory is not UNSET:
        changed.memory = entry.memory
        if entry.kurzbeschreibung is UNSET and follows_text(memory.kurzbeschreibung, memory.memory):
            changed.kurzbeschreibung = summary_of(entry.memory)
    if entry.tags is not UNSET:
        changed.tags = [stored_tags[tag.casefold()] for tag in entry.tags]
    if entry.scope is not UNSET:
        changed.scope = entry.scope
    if entry.scope_vk is not UNSET:
        changed.scope_vk = entry.scope_vk
    if entry.embedding_profil_hash is not UNSET:
        changed.embedding_profil_hash = entry.embedding_profil_hash
    change, vector = EmbeddingChange.KEEP, None
    if entry.embedding is not UNSET:
        if entry.embedding is None:
            change = EmbeddingChange.REMOVE
            changed.embedding_dim = None
            changed.embedding_profil_hash = None
        else:
            change, vector = EmbeddingChange.SET, encode_embedding(entry.embedding)
            changed.embedding_dim = len(entry.embedding)
    changed.terms, changed.doc_len = memory_terms(changed)
    return MemoryReplace(changed, memory, change, vector)


def _failure(
    index: int, entry: MemoryUpdateInput, message: str, field: str | None = None
) -> dict[str, Any]:
    path = f"inhalt.memories[{index}]" + (f".{field}" if field else "")
    return responses.entry_failure(index, [FieldError(path, message)], ID=entry.raw_id)


def delete_memories(
    ctx: ServiceContext, principal: Principal, request: FetchRequest
) -> dict[str, Any]:
    """Forget memories: the item, its ratings, its embedding and its index entries."""
    require_caller(principal, request.caller)
    now = ctx.clock()
    wanted, not_found = requested_ids(request)
    found = visible_memories(
        ctx, principal, request.caller.nutzer, [memory_id for _, memory_id in wanted], now
    )
    visible = [memory_id for _, memory_id in wanted if memory_id in found]
    before = _tombstones(ctx, principal.tenant, visible) if wanted else frozenset()
    # A resend after a crash: what the first send deleted answers as it would have, and
    # goes to storage again, which removes what the cut-off delete left of it (ratings).
    gone = [m for _, m in wanted if m not in found and str(m) in before]
    targets = list(dict.fromkeys([*visible, *gone]))
    deleted = set(ctx.storage.delete_memories(principal.tenant, targets, now)) if targets else set()
    deleted |= set(gone)
    geloescht = [raw for raw, memory_id in wanted if memory_id in deleted]
    not_found += [raw for raw, memory_id in wanted if memory_id not in deleted]
    daten = {
        "geloescht": list(dict.fromkeys(geloescht)),
        "nicht_gefunden": list(dict.fromkeys(not_found)),
    }
    return responses.success(daten, request.referenzfelder)


def _tombstones(ctx: ServiceContext, tenant: str, visible: list[MemoryId]) -> frozenset[str]:
    """Inside a retry-safe call: mark the memories about to be deleted under the write key
    (kept for the idempotency window) and return what an earlier send of this write marked,
    so that a resend after a crash mid-delete answers `geloescht`, not `nicht_gefunden`."""
    if ctx.write_key is None:
        return frozenset()
    expires_at = datetime.now(UTC) + timedelta(seconds=ctx.settings.idempotency_window_s)
    return ctx.storage.mark_write(
        tenant, ctx.write_key, [str(memory_id) for memory_id in visible], expires_at
    )
