"""The brain: context knowledge entries about customers, products, employees and projects."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from shared.auth.principal import Principal
from shared.calls import CallRecord, CallState
from shared.domain import (
    BrainEntry,
    BrainWrite,
    CounterName,
    EntryFailureCode,
    Memory,
    Posting,
    VkTyp,
)
from shared.search.analyzer import document_terms, query_terms
from shared.search.ranking import rank, terms_of
from shared.services import responses
from shared.services.areas import Visibility
from shared.services.authorization import identity_errors, require_caller
from shared.services.context import ServiceContext
from shared.services.memories import memory_view, storage_failure, stored_referenzfelder
from shared.services.secrets import screen
from shared.services.tags import ensure_tags, scrubbed_tags
from shared.services.writes import Stored, run_plain
from shared.validation.errors import Art, FieldError, RequestRejected
from shared.validation.parsed import Batch, BrainEntryInput, Detail, SelectRequest

# The texts of a brain entry that are scrubbed for secrets before anything is stored, and the
# identifiers and keys that cannot hold a marker (a secret in one refuses the entry).
SCRUBBED_FIELDS = ("titel", "inhalt", "tags", "stammdaten")
IDENTIFIER_FIELDS = ("vk_referenz_id", "stammdaten")
# How many linked long-term memories `detailgrad=erinnerungen` returns per hit.
MEMORIES_PER_HIT = 20


@dataclass
class UpsertWrite:
    """upsert_brain between the retry layer's phases (services/writes.py): every entry
    without an ID gets one reserved with the call record; texts are scrubbed in `store`."""

    ctx: ServiceContext
    principal: Principal
    batch: Batch[BrainEntryInput]
    results: list[dict[str, Any]]
    valid: list[tuple[int, BrainEntryInput]]
    # Read and written by `ahead`, side by side with the claim: the tag records (names
    # scrubbed first) and the stored entries the call replaces.
    tags: dict[str, str] = field(default_factory=dict)
    existing: dict[int, BrainEntry] = field(default_factory=dict)

    def wants(self) -> dict[CounterName, list[int]]:
        return {CounterName.BRAIN: [index for index, entry in self.valid if entry.id is None]}

    def ahead(self) -> None:
        storage, tenant = self.ctx.storage, self.principal.tenant
        names = scrubbed_tags(self.ctx.settings.scrub_policy, (e.tags for _, e in self.valid))
        ids = list(dict.fromkeys(entry.id for _, entry in self.valid if entry.id is not None))
        tags, existing = storage.side_by_side(
            [
                lambda: ensure_tags(storage, tenant, names),
                lambda: storage.get_brain_entries(tenant, ids) if ids else {},
            ]
        )
        self.tags, self.existing = cast(dict[str, str], tags), cast(dict[int, BrainEntry], existing)

    def only(self, indexes: set[int]) -> UpsertWrite:
        return self

    def store(self, ctx: ServiceContext, call: CallRecord) -> Stored:
        batch = self.batch
        results = list(self.results)
        valid: list[tuple[int, BrainEntryInput]] = []
        hinweise: dict[int, str] = {}
        for index, entry in self.valid:
            path = f"inhalt.eintraege[{index}]"
            screened = screen(
                entry, SCRUBBED_FIELDS, ctx.settings.scrub_policy, path, IDENTIFIER_FIELDS
            )
            if screened.value is None:
                results.append(responses.entry_failure(index, screened.errors))
                continue
            valid.append((index, screened.value))
            if screened.hinweis:
                hinweise[index] = screened.hinweis
        existing = self.existing
        accepted: list[tuple[int, BrainEntryInput]] = []
        for index, entry in valid:
            if entry.id is not None and entry.id not in existing:
                results.append(responses.entry_failure(index, [_entry_not_found(index, entry.id)]))
            else:
                accepted.append((index, entry))
        if accepted:
            results += _write_entries(
                ctx, self.principal, batch, accepted, existing, call, self.tags
            )
        envelope = responses.batch(responses.with_hinweise(results, hinweise), batch.referenzfelder)
        return Stored(envelope)


def prepare_upsert(
    ctx: ServiceContext, principal: Principal, batch: Batch[BrainEntryInput]
) -> UpsertWrite:
    """The token's checks of an upsert (no storage read)."""
    require_caller(principal, batch.caller)
    results: list[dict[str, Any]] = []
    valid: list[tuple[int, BrainEntryInput]] = []
    for index, entry in enumerate(batch.entries):
        if isinstance(entry, list):
            results.append(responses.entry_failure(index, entry))
        else:
            valid.append((index, entry))
    return UpsertWrite(ctx, principal, batch, results, valid)


def upsert_brain(
    ctx: ServiceContext, principal: Principal, batch: Batch[BrainEntryInput]
) -> dict[str, Any]:
    """upsert_brain outside the retry layer (services/writes.py `run_plain`)."""
    return run_plain(ctx, principal.tenant, prepare_upsert(ctx, principal, batch))


def _write_entries(
    ctx: ServiceContext,
    principal: Principal,
    batch: Batch[BrainEntryInput],
    accepted: list[tuple[int, BrainEntryInput]],
    existing: dict[int, BrainEntry],
    call: CallRecord,
    tags: dict[str, str],
) -> list[dict[str, Any]]:
    storage, tenant, now = ctx.storage, principal.tenant, ctx.clock()
    new_ids = {
        index: call.id_of(CounterName.BRAIN, index) for index, entry in accepted if entry.id is None
    }
    # A resend of a write a crash cut off: entries it already created are not created again.
    created_before = (
        set(storage.get_brain_entries(tenant, list(new_ids.values())))
        if call.state is CallState.RESUMED and new_ids
        else set()
    )
    results: list[dict[str, Any]] = [
        {"index": index, "erfolg": True, "ID": number}
        for index, number in new_ids.items()
        if number in created_before
    ]
    accepted = [
        (index, entry)
        for index, entry in accepted
        if index not in new_ids or new_ids[index] not in created_before
    ]
    if not accepted:
        return results
    # `ahead` stored the tags (as insert does); a scrubbed name it did not see is added here
    missing = [tag for _, entry in accepted for tag in entry.tags if tag.casefold() not in tags]
    stored_tags = {**tags, **ensure_tags(storage, tenant, [missing])}

    writes = []
    for index, entry in accepted:
        previous = existing.get(entry.id) if entry.id is not None else None
        terms, doc_len = document_terms(entry.titel, entry.inhalt)
        brain_entry = BrainEntry(
            tenant=tenant,
            id=entry.id if entry.id is not None else new_ids[index],
            titel=entry.titel,
            inhalt=entry.inhalt,
            vk_typ=entry.vk_typ,
            vk_referenz_id=entry.vk_referenz_id,
            tags=[stored_tags[tag.casefold()] for tag in entry.tags],
            stammdaten=entry.stammdaten,
            nutzer=batch.caller.nutzer,
            agent=batch.caller.agent,
            created_at=previous.created_at if previous else now,
            updated_at=now,
            referenzfelder=stored_referenzfelder(batch.referenzfelder),
            terms=terms,
            doc_len=doc_len,
        )
        writes.append(BrainWrite(brain_entry, previous))

    outcomes = storage.put_brain_entries(writes)
    for (index, _), write, outcome in zip(accepted, writes, outcomes, strict=True):
        if outcome is None:
            results.append({"index": index, "erfolg": True, "ID": write.entry.id})
        elif outcome.code is EntryFailureCode.NOT_FOUND:
            results.append(
                responses.entry_failure(index, [_entry_not_found(index, write.entry.id)])
            )
        else:
            error = storage_failure(f"inhalt.eintraege[{index}]", outcome)
            results.append(responses.entry_failure(index, [error]))
    return results


def _entry_not_found(index: int, entry_id: int) -> FieldError:
    return FieldError(
        f"inhalt.eintraege[{index}].ID",
        f"nicht_gefunden: Der Brain-Eintrag {entry_id} existiert nicht; "
        "für einen neuen Eintrag ID weglassen.",
        Art.NOT_FOUND,
    )


def select_brain(
    ctx: ServiceContext, principal: Principal, request: SelectRequest
) -> dict[str, Any]:
    errors = identity_errors(
        principal,
        nutzer=[("nutzer", value) for value in request.nutzer],
        agents=[("agent", value) for value in request.agent],
    )
    if errors:
        raise RequestRejected(errors)

    views = [Visibility(ctx, principal, name) for name in request.nutzer]
    hits, scores = _find_entries(
        ctx, principal.tenant, request, _EntryVisibility(ctx, principal.tenant, views)
    )
    linked = (
        _linked_memories(ctx, principal, views, hits)
        if Detail.ERINNERUNGEN in request.detailgrad
        else {}
    )
    treffer = [
        _hit_view(ctx, principal, entry, request, scores.get(entry.id), linked) for entry in hits
    ]
    return responses.success({"treffer": treffer, "anzahl": len(treffer)}, request.referenzfelder)


def _linked_memories(
    ctx: ServiceContext, principal: Principal, views: list[Visibility], hits: list[BrainEntry]
) -> dict[tuple[str, str], list[Memory]]:
    """The long-term memories about every hit's entity in the areas the call's nutzer may
    read: one batched lookup for all hits (one round trip on DynamoDB), at most
    MEMORIES_PER_HIT each - the areas filter comes before that limit, so other nutzer's
    private memories never push the caller's own out; superseded ones are left out after
    it (a hit may then show fewer)."""
    if not hits:
        return {}
    pairs = list(dict.fromkeys(_reference(entry) for entry in hits))
    areas = sorted({area for view in views for area in view.readable()})
    found = ctx.storage.find_memories_by_scopes(
        principal.tenant, pairs, ctx.clock(), MEMORIES_PER_HIT, areas
    )
    # Superseded memories (issue 25) are history: not among an entity's current memories.
    return {pair: [m for m in memories if not m.superseded] for pair, memories in found.items()}


class _EntryVisibility:
    """Which brain entries a call may see: all, except the entry about a project (vk_typ
    projekt) that has a record and none of the call's nutzer may read (its name would leak,
    as `remember` with create_project writes "Projekt <name>"). One project read per
    distinct project name at most."""

    def __init__(self, ctx: ServiceContext, tenant: str, views: list[Visibility]) -> None:
        self._ctx = ctx
        self._tenant = tenant
        self._views = views
        self._known: dict[str, bool] = {}

    def __call__(self, vk_typ: str, vk_referenz_id: str) -> bool:
        if vk_typ != VkTyp.PROJEKT.value:
            return True
        shown = self._known.get(vk_referenz_id)
        if shown is None:
            area = f"projects/{vk_referenz_id}"
            shown = any(view.may_read(area) for view in self._views) or (
                self._ctx.storage.get_project(self._tenant, vk_referenz_id) is None
            )
            self._known[vk_referenz_id] = shown
        return shown

    def of(self, entries: list[BrainEntry]) -> list[BrainEntry]:
        return [e for e in entries if self(e.vk_typ.value, e.vk_referenz_id)]


def _visible_first(
    fetch: Callable[[int], list[BrainEntry]], visible: _EntryVisibility, limit: int
) -> list[BrainEntry]:
    """The first `limit` visible entries of an ordered read: read more while hidden ones
    took places (the filter comes before the limit)."""
    size = limit
    while True:
        found = fetch(size)
        shown = visible.of(found)
        if len(shown) >= limit or len(found) < size:
            return shown[:limit]
        size *= 4


def _reference(entry: BrainEntry) -> tuple[str, str]:
    """The (scope, scope_vk) of the long-term memories about an entry's entity."""
    return entry.vk_typ.value, entry.vk_referenz_id


def _find_entries(
    ctx: ServiceContext, tenant: str, request: SelectRequest, visible: _EntryVisibility
) -> tuple[list[BrainEntry], dict[int, float]]:
    storage = ctx.storage
    if request.query is not None:
        groups = query_terms(request.query)
        if not groups:
            return [], {}
        lookup = storage.lookup_terms(tenant, terms_of(groups))
        # Rank against the whole corpus (filters must not change IDF), then filter.
        by_entry = {p.entry_id: p for term in lookup.postings.values() for p in term}
        wanted_ids = set(request.ids) if request.ids is not None else None
        ranked = [
            (entry_id, score)
            for entry_id, score in rank(groups, lookup.postings, lookup.stats)
            if (wanted_ids is None or entry_id in wanted_ids)
            and _posting_matches_reference(by_entry[entry_id], request)
            and visible(by_entry[entry_id].vk_typ, by_entry[entry_id].vk_referenz_id)
        ][: request.limit]
        entries = storage.get_brain_entries(tenant, [entry_id for entry_id, _ in ranked])
        found = [entries[entry_id] for entry_id, _ in ranked if entry_id in entries]
        return found, dict(ranked)

    if request.ids is not None:
        by_id = storage.get_brain_entries(tenant, request.ids)
        found = [by_id[entry_id] for entry_id in request.ids if entry_id in by_id]
        found = visible.of([entry for entry in found if _matches_reference(entry, request)])
    elif request.vk_typ is not None:
        vk_typ, ref = request.vk_typ.value, request.vk_referenz_id
        if ref is not None and not visible(vk_typ, ref):
            return [], {}
        found = _visible_first(
            lambda size: storage.find_brain_by_reference(tenant, vk_typ, ref, size),
            visible,
            request.limit,
        )
    else:
        found = _visible_first(
            lambda size: storage.list_brain_entries(tenant, size), visible, request.limit
        )
    return found[: request.limit], {}


def _posting_matches_reference(posting: Posting, request: SelectRequest) -> bool:
    if request.vk_typ is not None and posting.vk_typ != request.vk_typ.value:
        return False
    return request.vk_referenz_id is None or posting.vk_referenz_id == request.vk_referenz_id


def _matches_reference(entry: BrainEntry, request: SelectRequest) -> bool:
    if request.vk_typ is not None and entry.vk_typ != request.vk_typ:
        return False
    return request.vk_referenz_id is None or entry.vk_referenz_id == request.vk_referenz_id


def _hit_view(
    ctx: ServiceContext,
    principal: Principal,
    entry: BrainEntry,
    request: SelectRequest,
    score: float | None,
    linked: dict[tuple[str, str], list[Memory]],
) -> dict[str, Any]:
    zone = ctx.settings.zone
    hit: dict[str, Any] = {"ID": entry.id}
    if score is not None:
        hit["relevanz"] = round(score, 4)
    if Detail.STAMMDATEN in request.detailgrad:
        hit.update(
            titel=entry.titel,
            vk_typ=entry.vk_typ.value,
            vk_referenz_id=entry.vk_referenz_id,
            tags=entry.tags,
            stammdaten=entry.stammdaten,
            erstellt=responses.format_local(entry.created_at, zone),
            geaendert=responses.format_local(entry.updated_at, zone),
        )
    if Detail.TEXTE in request.detailgrad:
        hit.update(titel=entry.titel, inhalt=entry.inhalt)
    if Detail.ERINNERUNGEN in request.detailgrad:
        hit["erinnerungen"] = [
            memory_view(memory, ctx) for memory in linked.get(_reference(entry), [])
        ]
    return hit
