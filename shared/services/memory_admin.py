"""Changing and forgetting memories: update_brain_memories, delete_brain_memories.

Both are `Write`s (services/writes.py): the token's checks build them, the retry layer runs
between those and the storage."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from shared.auth.principal import Principal
from shared.calls import CallMarks, CallRecord
from shared.domain import (
    CounterName,
    DeleteRead,
    EmbeddingChange,
    EntryFailure,
    EntryFailureCode,
    Memory,
    MemoryId,
    MemoryReplace,
)
from shared.search.vectors import encode as encode_embedding
from shared.services import responses
from shared.services.areas import unread_hint
from shared.services.authorization import require_caller
from shared.services.context import ServiceContext
from shared.services.embeddings import with_refreshed_embeddings
from shared.services.memories import (
    IDENTIFIER_FIELDS,
    SCRUBBED_FIELDS,
    memory_terms,
    not_found_message,
    requested_ids,
    storage_failure,
    storage_failure_message,
    stored_referenzfelder,
    visible_memories,
)
from shared.services.profiles import ProfileCheck, Refused
from shared.services.secrets import clean_value, screen
from shared.services.summary import follows_text, summary_of
from shared.services.supersede import Replaced
from shared.services.tags import ensure_tags
from shared.services.word_search import memory_path
from shared.services.writes import Refs, Stored, run_plain, stamp
from shared.validation.errors import Art, FieldError
from shared.validation.parsed import UNSET, Batch, Caller, FetchRequest, MemoryUpdateInput

# A rating or another update may land between our read and our write; then we read again.
UPDATE_ATTEMPTS = 3
DUPLICATE_ID = (
    "Doppelte ID im Batch: jede Erinnerung höchstens einmal pro Aufruf ändern "
    "(der erste Eintrag wird angewendet)."
)


@dataclass
class UpdateWrite:
    """update_brain_memories between the retry layer's phases: the memories (visibility,
    the version to update from) are read side by side with the claim, and the tag records
    of visible ones written; the texts are scrubbed and the new versions stored after it."""

    ctx: ServiceContext
    principal: Principal
    batch: Batch[MemoryUpdateInput]
    results: list[dict[str, Any]]
    pending: dict[int, MemoryUpdateInput]  # as sent: scrubbed in `store`
    tags: dict[str, str] = field(default_factory=dict)
    current: dict[MemoryId, Memory] | None = None
    # The memories the entries replace (issue 25: `ersetzt` per entry).
    replaced: Replaced | None = None

    @property
    def caller(self) -> Caller:
        return self.batch.caller

    def wants(self) -> dict[CounterName, list[int]]:
        return {}

    def ahead(self) -> None:
        """The memories (visibility, the version to update from), then the tag records of
        the entries whose memory is visible: a refused update creates no tag."""
        ids = list(dict.fromkeys(entry.memory_id for entry in self.pending.values()))
        nutzer = self.batch.caller.nutzer

        def read() -> None:
            now = self.ctx.clock()
            self.current = visible_memories(self.ctx, self.principal, nutzer, ids, now)

        self.ctx.storage.side_by_side([read, *([self.replaced.read] if self.replaced else [])])
        self.current = self.current or {}
        names = [
            clean_value(list(entry.tags)).value
            for entry in self.pending.values()
            if entry.tags is not UNSET and entry.memory_id in self.current
        ]
        self.tags = ensure_tags(self.ctx.storage, self.principal.tenant, names)

    def only(self, indexes: set[int]) -> UpdateWrite:
        return replace(
            self,
            results=[r for r in self.results if r["index"] in indexes],
            pending={i: e for i, e in self.pending.items() if i in indexes},
        )

    def store(self, ctx: ServiceContext, call: CallRecord) -> Stored:
        results = list(self.results)
        hinweise: dict[int, str] = {}
        pending: dict[int, MemoryUpdateInput] = {}
        for index, entry in self.pending.items():
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
        visible = self.current or {}
        missing = [
            tag
            for entry in pending.values()
            if entry.tags is not UNSET and entry.memory_id in visible
            for tag in entry.tags
            if tag.casefold() not in self.tags
        ]
        stored_tags = {**self.tags, **ensure_tags(ctx.storage, self.principal.tenant, [missing])}
        refs: Refs = {}
        current = self.current
        for _ in range(UPDATE_ATTEMPTS):
            if not pending:
                break
            pending = _update_round(ctx, self, pending, stored_tags, results, refs, current)
            current = None  # a concurrent change: read again
        for index, entry in pending.items():
            message = storage_failure_message(EntryFailure(EntryFailureCode.CONFLICT))
            results.append(_failure(index, entry, message, art=Art.CONFLICT))
        envelope = responses.batch(
            responses.with_hinweise(results, hinweise), self.batch.referenzfelder
        )
        # As an insert does: once per call, where this token's Memory OS tools do not look.
        unread = unread_hint(self.principal, responses.written_areas(results))
        if unread:
            envelope["hinweis"] = unread
        return Stored(envelope, refs)


def _place(memory: Memory) -> dict[str, str]:
    """Where a changed or forgotten memory lies (issue 26: every write says where it went),
    `bereich` and `pfad` as search shows them."""
    return {"bereich": memory.area, "pfad": memory_path(memory)}


def _where(write: UpdateWrite, memory: Memory) -> dict[str, str]:
    """The place, and as whom the call acted: the nutzer whose areas it could see."""
    return {**_place(memory), "handelnd_als": write.caller.nutzer}


def prepare_update(
    ctx: ServiceContext, principal: Principal, batch: Batch[MemoryUpdateInput]
) -> UpdateWrite:
    """The token's checks of an update (no storage read)."""
    require_caller(principal, batch.caller)
    results: list[dict[str, Any]] = []
    pending: dict[int, MemoryUpdateInput] = {}
    seen: set[MemoryId] = set()
    for index, entry in enumerate(batch.entries):
        if isinstance(entry, list):
            results.append(responses.entry_failure(index, entry))
        elif entry.memory_id in seen:
            results.append(_failure(index, entry, DUPLICATE_ID, "ID"))
        else:
            seen.add(entry.memory_id)
            pending[index] = entry
    wanted = {
        index: (f"inhalt.memories[{index}].ersetzt", list(entry.ersetzt))
        for index, entry in pending.items()
        if entry.ersetzt
    }
    replaced = Replaced.of(ctx, principal, batch.caller.nutzer, wanted) if wanted else None
    return UpdateWrite(ctx, principal, batch, results, pending, replaced=replaced)


def update_memories(
    ctx: ServiceContext, principal: Principal, batch: Batch[MemoryUpdateInput]
) -> dict[str, Any]:
    """Update outside the retry layer (services/writes.py `run_plain`)."""
    return run_plain(ctx, principal.tenant, prepare_update(ctx, principal, batch))


def _update_round(
    ctx: ServiceContext,
    write: UpdateWrite,
    pending: dict[int, MemoryUpdateInput],
    stored_tags: dict[str, str],
    results: list[dict[str, Any]],
    refs: Refs,
    current: dict[MemoryId, Memory] | None,
) -> dict[int, MemoryUpdateInput]:
    """One read-modify-write pass (from `current` when the caller just read the memories);
    returns the entries that met a concurrent change."""
    now = ctx.clock()
    if current is None:
        ids = list(dict.fromkeys(entry.memory_id for entry in pending.values()))
        current = visible_memories(ctx, write.principal, write.batch.caller.nutzer, ids, now)
    writes: list[tuple[int, MemoryUpdateInput, MemoryReplace]] = []
    check = _profile_check(ctx, write.principal.tenant, pending, current)
    for index, entry in pending.items():
        memory = current.get(entry.memory_id)
        if memory is None:
            results.append(
                _failure(index, entry, not_found_message(entry.raw_id), "ID", Art.NOT_FOUND)
            )
            continue
        refused = write.replaced.check(index, entry.memory_id) if write.replaced else None
        if refused is not None:
            results.append(responses.entry_failure(index, [refused], ID=entry.raw_id))
            continue
        if entry.embedding is not UNSET and entry.embedding is not None:
            profile = check.resolve(len(entry.embedding), _new_profile(entry, memory))
            if isinstance(profile, Refused):
                results.append(_failure(index, entry, profile.message, profile.field))
                continue
            entry = replace(entry, embedding_profil_hash=profile)
        writes.append((index, entry, _apply(memory, entry, stored_tags, write.batch, now)))
    # Entries that only mark others keep their memory as it is: nothing of theirs is stored.
    unchanged = {index for index, entry, _ in writes if _marks_only(entry, write.batch)}
    changes = with_refreshed_embeddings(
        ctx, [change for index, _, change in writes if index not in unchanged]
    )
    successors = {index: entry.memory_id for index, entry, _ in writes}
    marked: dict[int, FieldError] = {}

    def mark() -> list[EntryFailure | None]:
        if write.replaced:
            marked.update(write.replaced.mark(successors, now))
        return []

    def store() -> list[EntryFailure | None]:
        return ctx.storage.replace_memories(changes, now) if changes else []

    # The new versions and the marks of what they replace: one stage.
    stored, _ = ctx.storage.side_by_side([store, mark])
    rewritten = iter(stored)
    outcomes = [None if index in unchanged else next(rewritten) for index, _, _ in writes]
    retry: dict[int, MemoryUpdateInput] = {}
    failed = {index for (index, _, _), outcome in zip(writes, outcomes, strict=True) if outcome}
    if write.replaced and failed:
        write.replaced.unmark({index: successors[index] for index in failed}, now)
    for (index, entry, change), outcome in zip(writes, outcomes, strict=True):
        if outcome is None:
            results.append(
                {
                    **_updated(index, entry, write.replaced, marked.get(index)),
                    **_where(write, change.memory),
                }
            )
            kept = change.previous if index in unchanged else change.memory
            refs[index] = (str(kept.id), stamp(kept.updated_at))
        elif outcome.code is EntryFailureCode.CONFLICT:
            retry[index] = entry
        elif outcome.code is EntryFailureCode.NOT_FOUND:
            results.append(
                _failure(index, entry, not_found_message(entry.raw_id), "ID", Art.NOT_FOUND)
            )
        else:
            failure = storage_failure(f"inhalt.memories[{index}]", outcome)
            results.append(responses.entry_failure(index, [failure], ID=entry.raw_id))
    return retry


def _marks_only(entry: MemoryUpdateInput, batch: Batch[MemoryUpdateInput]) -> bool:
    """An entry that only names `ersetzt` (and a call without provenance to store): its
    memory stays as it is, only the replaced ones are marked (no rewrite, no new version,
    so a replay of the write that created it still holds)."""
    content = (
        entry.kurzbeschreibung,
        entry.memory,
        entry.tags,
        entry.scope,
        entry.scope_vk,
        entry.embedding,
        entry.embedding_profil_hash,
    )
    return (
        bool(entry.ersetzt)
        and all(value is UNSET for value in content)
        and not stored_referenzfelder(batch.referenzfelder)
    )


def _updated(
    index: int, entry: MemoryUpdateInput, replaced: Replaced | None, error: FieldError | None
) -> dict[str, Any]:
    """A stored update's entry: with what it replaces, or why that could not be marked."""
    result: dict[str, Any] = {"index": index, "ID": entry.raw_id, "erfolg": True}
    if replaced and index in replaced.wanted:
        if error is None:
            result["ersetzt"] = replaced.replaced_ids(index)
        else:
            result["ersetzt_fehler"] = error.as_dict()
    return result


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
        memory,
        updated_at=now,
        referenzfelder=stored_referenzfelder(batch.referenzfelder) or memory.referenzfelder,
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
    index: int,
    entry: MemoryUpdateInput,
    message: str,
    field: str | None = None,
    art: Art = Art.INVALID,
) -> dict[str, Any]:
    path = f"inhalt.memories[{index}]" + (f".{field}" if field else "")
    return responses.entry_failure(index, [FieldError(path, message, art)], ID=entry.raw_id)


REMOVED_PARTS = ("erinnerung", "bewertungen", "vektor", "suchindex")
"""What a delete removes of each memory it names in `geloescht`: the memory, its ratings,
its vector and its index entries (words and vectors), on every adapter."""


@dataclass
class DeleteWrite:
    """delete_brain_memories between the retry layer's phases. Its memories are read
    (visibility; `read_for_delete`: storage need not read again) beside the claim; storage
    records each memory's place on the call record in the transaction that removes it
    (`CallMarks`), so a resend after a crash answers `geloescht` for what the first removed."""

    ctx: ServiceContext
    principal: Principal
    request: FetchRequest
    wanted: list[tuple[str, MemoryId]]
    not_found: list[str]
    found: dict[MemoryId, Memory] = field(default_factory=dict)
    read: DeleteRead | None = None

    @property
    def caller(self) -> Caller:
        return self.request.caller

    def wants(self) -> dict[CounterName, list[int]]:
        return {}

    def ahead(self) -> None:
        ids = [memory_id for _, memory_id in self.wanted]
        if ids:
            now, nutzer = self.ctx.clock(), self.request.caller.nutzer
            self.read = self.ctx.storage.read_for_delete(self.principal.tenant, ids, now)
            found = self.read.memories
            self.found = visible_memories(self.ctx, self.principal, nutzer, ids, now, found)

    def _call_marks(self, ctx: ServiceContext) -> CallMarks | None:
        """Each memory's place, recorded with its removal: a resend answers it (`_marked`)."""
        if ctx.call_key is None or ctx.write_key is None:
            return None  # outside the retry layer: no call record
        marks = {
            memory_id: json.dumps([str(memory_id), *_place(memory).values()])
            for memory_id, memory in self.found.items()
        }
        return CallMarks(ctx.call_key, ctx.write_key, marks)

    def only(self, indexes: set[int]) -> DeleteWrite:
        return self  # a delete has no per-entry replay refs

    def store(self, ctx: ServiceContext, call: CallRecord) -> Stored:
        """Forget memories: the item, its ratings, its embedding and its index entries."""
        now = ctx.clock()
        visible = [memory_id for _, memory_id in self.wanted if memory_id in self.found]
        # A resend after a crash: what the first send deleted answers as it would have, and
        # goes to storage again, which removes what the cut-off delete left of it (ratings).
        marked = _marked(call.marks)
        gone = [m for _, m in self.wanted if m not in self.found and str(m) in marked]
        targets = list(dict.fromkeys([*visible, *gone]))
        tenant = self.principal.tenant
        # As `ahead` read them: storage deletes on their versions without reading again.
        read = self.read.only(visible) if self.read is not None else None
        marks = self._call_marks(ctx)
        deleted = set(ctx.storage.delete_memories(tenant, targets, now, read, marks))
        deleted |= set(gone)
        geloescht = [raw for raw, memory_id in self.wanted if memory_id in deleted]
        not_found = self.not_found + [
            raw for raw, memory_id in self.wanted if memory_id not in deleted
        ]
        places = {**marked, **{str(m): _place(memory) for m, memory in self.found.items()}}
        orte = {
            raw: {"ID": raw, **places.get(str(memory_id), {})}
            for raw, memory_id in self.wanted
            if memory_id in deleted
        }
        daten = {
            "geloescht": list(dict.fromkeys(geloescht)),
            "nicht_gefunden": list(dict.fromkeys(not_found)),
            # Where each forgotten memory was, and as whom the call acted.
            "orte": list(orte.values()),
            "handelnd_als": self.caller.nutzer,
            # What forgetting removed of each of them (the deletion walk shows every path).
            "entfernt": list(REMOVED_PARTS) if geloescht else [],
        }
        return Stored(responses.success(daten, self.request.referenzfelder))


def _marked(marks: Iterable[str]) -> dict[str, dict[str, str]]:
    """The places a cut-off send recorded (`DeleteWrite.marks`), by ID; a plain ID (a record
    written before marks carried places) counts as marked, without a place."""
    places: dict[str, dict[str, str]] = {}
    for mark in marks:
        try:
            raw, area, path = json.loads(mark)
        except (ValueError, TypeError):
            places[mark] = {}
            continue
        places[str(raw)] = {"bereich": area, "pfad": path}
    return places


def prepare_delete(ctx: ServiceContext, principal: Principal, request: FetchRequest) -> DeleteWrite:
    """The token's checks of a delete (no storage read)."""
    require_caller(principal, request.caller)
    wanted, not_found = requested_ids(request)
    return DeleteWrite(ctx, principal, request, wanted, not_found)


def delete_memories(
    ctx: ServiceContext, principal: Principal, request: FetchRequest
) -> dict[str, Any]:
    """Delete outside the retry layer (services/writes.py `run_plain`)."""
    return run_plain(ctx, principal.tenant, prepare_delete(ctx, principal, request))
