"""Memory OS tools (seed 004): remember, search_memory, recall, recall_context.

They take identity only from the token: the stored memory's author, account and device are
the principal's, and reserved identity metadata inside the content is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from shared.auth.principal import Principal, Scope
from shared.domain import (
    SCOPE_OF_NAMESPACE,
    BrainEntry,
    CounterName,
    Memory,
    MemoryId,
    MemoryPosting,
    MemoryType,
    NewMemory,
    VkTyp,
)
from shared.ledger.classify import ledger_hinweis
from shared.scrubbing import ScrubPolicy
from shared.search.analyzer import query_terms
from shared.search.ranking import rank, terms_of
from shared.services import responses
from shared.services.areas import (
    Visibility,
    acting_agent,
    acting_nutzer,
    area_may_match,
    authorize_write,
    within,
)
from shared.services.context import ServiceContext
from shared.services.entry_ids import reserve_entry_ids
from shared.services.identity import reserved_identity_keys
from shared.services.memories import (
    memory_terms,
    memory_view,
    storage_failure_message,
    stored_before,
)
from shared.services.secrets import clean_value, hinweis, name_errors, rejection
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.parsed import ContextRequest, RememberRequest, SearchRequest

SUMMARY_MAX_LEN: Final = 120
EXCERPT_LEN: Final = 200
BRAIN_PER_REFERENCE: Final = 3  # recall_context: brain entries per entity of a memory
# Search candidates are loaded in rounds; when the posting alone cannot decide (a path
# prefix below the area level, postings from before areas), a round over-reads this much.
_OVERREAD: Final = 3


@dataclass(frozen=True)
class Target:
    """Where a `remember` path points: namespace, owner name and the rest of the path."""

    path: str
    namespace: str
    name: str
    rest: list[str]

    @classmethod
    def of(cls, path: str) -> Target:
        namespace, name, *rest = path.split("/")
        return cls(path, namespace, name, rest)

    @property
    def scope(self) -> str:
        return SCOPE_OF_NAMESPACE[self.namespace]

    @property
    def area(self) -> str:
        return f"{self.namespace}/{self.name}"


def _author(principal: Principal, target: Target) -> str:
    """The nutzer a remember acts as: the token's own; a `users/<n>` path names n when the
    token may act as n (tokens for several nutzer)."""
    if target.namespace == "users" and principal.may_act_as_nutzer(target.name):
        return target.name
    return acting_nutzer(principal)


def _summary(content: str) -> str:
    first = next((line.strip() for line in content.splitlines() if line.strip()), "")
    return first if len(first) <= SUMMARY_MAX_LEN else first[: SUMMARY_MAX_LEN - 1] + "…"


def remember(ctx: ServiceContext, principal: Principal, request: RememberRequest) -> dict[str, Any]:
    # The path becomes a tag, the pfad and scope_vk: it cannot hold a marker, so a secret in
    # any segment refuses the call.
    refused = name_errors([("path", request.path)])
    if refused:
        raise RequestRejected(refused)
    target = Target.of(request.path)
    nutzer, agent = _author(principal, target), acting_agent(principal)
    reserved = reserved_identity_keys(request.content)
    if reserved:
        named = ", ".join(f"'{key}'" for key in reserved)
        raise RequestRejected(
            [
                FieldError(
                    "content",
                    f"Sicherheitsablehnung: reservierte Identitätsmetadaten ({named}) im "
                    "Inhalt, als Front Matter oder Schlüssel-Wert-Angabe. Autor, Konto, Gerät, "
                    "Mandant und Subjekt kommen aus dem Token; den Inhalt ohne diese Angaben "
                    "senden.",
                )
            ]
        )
    cleaned = clean_value(request.content)
    if cleaned.kinds and ctx.settings.remember_scrub_policy is ScrubPolicy.REJECT:
        raise RequestRejected([rejection("content", cleaned.kinds)])
    content = cleaned.value
    now = ctx.clock()
    authorize_write(
        ctx, principal, nutzer, target.area, create_project=request.create_project, now=now
    )
    entry_id = reserve_entry_ids(
        ctx, principal.tenant, CounterName.LONGTERM, [(0, (target.path, content))]
    )
    number = entry_id[0].number
    memory = Memory(
        tenant=principal.tenant,
        id=MemoryId(MemoryType.LONGTERM, number),
        kurzbeschreibung=_summary(content),
        memory=content,
        tags=target.rest[-1:] if target.rest else [],
        scope=target.scope,
        scope_vk=target.name,
        nutzer=nutzer,
        agent=agent,
        created_at=now,
        updated_at=now,
        referenzfelder={"pfad": target.path, "quelle": "remember"},
        area=target.area,
    )
    if memory.tags:
        stored = ctx.storage.ensure_tags(principal.tenant, memory.tags)
        memory.tags = [stored[tag.casefold()] for tag in memory.tags]
    memory.terms, memory.doc_len = memory_terms(memory)
    # A resend of a remember a crash cut off: what it stored is not stored again.
    if not stored_before(ctx, principal.tenant, MemoryType.LONGTERM, entry_id, now):
        (failure,) = ctx.storage.put_memories([NewMemory(memory)])
        if failure is not None:
            raise RequestRejected([FieldError("content", storage_failure_message(failure))])
    daten = {
        "ID": str(memory.id),
        "pfad": target.path,
        "bereich": target.area,
        "autor": principal.subject,
        "nutzer": nutzer,
        "agent": agent,
        "konto": principal.account,
        "geraet": principal.device,
    }
    notes = [hinweis(cleaned.kinds) if cleaned.kinds else None, ledger_hinweis(request.content)]
    if any(notes):
        daten["hinweis"] = " ".join(note for note in notes if note)
    text = (
        f"Gespeichert als {memory.id} unter {target.path}. Autor: {principal.subject} "
        f"(nutzer {nutzer}), Konto: {principal.account or '-'}, "
        f"Gerät: {principal.device or '-'}."
    )
    return {**responses.success(daten, {}), "text": text}


def _search(
    ctx: ServiceContext,
    principal: Principal,
    request: SearchRequest | ContextRequest,
    visibility: Visibility,
    only: MemoryType | None = None,
) -> list[tuple[Memory, float]]:
    """Ranked memories the caller may read (under `request.path`), not expired, best first.

    Postings decide visibility, path and expiry before anything is loaded; only what they
    cannot decide (a path below area level, postings from before areas) is checked on the
    loaded memory, reading further candidates until `limit` are found."""
    text = request.query if isinstance(request, SearchRequest) else request.task
    groups = query_terms(text)
    if not groups:
        return []
    now = ctx.clock()
    prefix = request.path
    # Project memberships come with the postings (same round trip) unless the prefix
    # excludes every project area.
    needs_projects = prefix is None or within(prefix, "projects")
    member = visibility.nutzer if needs_projects else None
    lookup = ctx.storage.lookup_memory_terms(principal.tenant, terms_of(groups), member)
    visibility.know_projects(lookup.projects)
    by_id: dict[MemoryId, MemoryPosting] = {
        posting.entry_id: posting for term in lookup.postings.values() for posting in term
    }

    def eligible(memory_id: MemoryId) -> bool:
        posting = by_id[memory_id]
        if only is not None and memory_id.typ is not only:
            return False
        if posting.expires_at is not None and posting.expires_at <= now:
            return False
        area = posting.area
        return area is None or (area_may_match(area, prefix) and visibility.may_read(area))

    candidates = [
        (memory_id, score)
        for memory_id, score in rank(groups, lookup.postings, lookup.stats)
        if eligible(memory_id)
    ]
    exact = prefix is None or prefix.count("/") <= 1
    found: list[tuple[Memory, float]] = []
    start = 0
    while len(found) < request.limit and start < len(candidates):
        wanted = request.limit - len(found)
        batch = candidates[start : start + (wanted if exact else wanted * _OVERREAD)]
        start += len(batch)
        memories = ctx.storage.get_memories(principal.tenant, [mid for mid, _ in batch], now)
        for memory_id, score in batch:
            memory = memories.get(memory_id)
            if (
                memory is not None
                and visibility.may_read(memory.area)
                and within(memory_path(memory), prefix)
            ):
                found.append((memory, score))
    return found[: request.limit]


def _visibility(ctx: ServiceContext, principal: Principal) -> Visibility:
    """The Memory OS tools act as the token's own nutzer."""
    return Visibility(ctx, principal, acting_nutzer(principal))


def memory_path(memory: Memory) -> str:
    """Where a memory lives: its `remember` path, else its area."""
    path = memory.referenzfelder.get("pfad")
    if isinstance(path, str) and within(path, memory.area):
        return path
    return memory.area


def search_memory(
    ctx: ServiceContext, principal: Principal, request: SearchRequest
) -> dict[str, Any]:
    hits = [
        {
            **memory_view(memory, ctx),
            "pfad": memory_path(memory),
            "bereich": memory.area,
            "relevanz": round(score, 4),
        }
        for memory, score in _search(ctx, principal, request, _visibility(ctx, principal))
    ]
    return responses.success({"treffer": hits, "anzahl": len(hits)}, {})


def _short(memory: Memory, score: float | None = None) -> dict[str, Any]:
    excerpt = (
        memory.memory if len(memory.memory) <= EXCERPT_LEN else memory.memory[:EXCERPT_LEN] + "…"
    )
    item: dict[str, Any] = {
        "ID": str(memory.id),
        "kurzbeschreibung": memory.kurzbeschreibung,
        "auszug": excerpt,
        "scope": memory.scope,
        "scope_vk": memory.scope_vk,
        "pfad": memory_path(memory),
        "bereich": memory.area,
    }
    if score is not None:
        item["relevanz"] = round(score, 4)
    return item


def recall(ctx: ServiceContext, principal: Principal, request: SearchRequest) -> dict[str, Any]:
    visibility = _visibility(ctx, principal)
    hits = [_short(m, s) for m, s in _search(ctx, principal, request, visibility)]
    return responses.success({"erinnerungen": hits, "anzahl": len(hits)}, {})


def recall_context(
    ctx: ServiceContext, principal: Principal, request: ContextRequest
) -> dict[str, Any]:
    """Relevant long-term memories, recent short-term memories, and the brain entries they
    are about — a package to read before a complex task."""
    now = ctx.clock()
    visibility = _visibility(ctx, principal)
    relevant = _search(ctx, principal, request, visibility, only=MemoryType.LONGTERM)
    # Over-read: some recent memories may lie in other areas and are filtered out.
    recent = [
        memory
        for memory in ctx.storage.recent_memories(
            principal.tenant, MemoryType.SHORTTERM, now, request.limit * 4
        )
        if visibility.may_read(memory.area) and within(memory_path(memory), request.path)
    ][: request.limit]
    vk_types = {typ.value for typ in VkTyp}
    references = list(
        dict.fromkeys(
            (memory.scope, memory.scope_vk)
            for memory in [*(m for m, _ in relevant), *recent]
            if memory.scope in vk_types and memory.scope_vk
        )
    )[: request.limit]
    # Brain entries only for tokens that may read the brain (contract §2). One batched lookup
    # for all entities (one round trip on DynamoDB), in memory order.
    if not principal.has_scope(Scope.BRAIN_READ):
        references = []
    found = (
        ctx.storage.find_brain_by_references(principal.tenant, references, BRAIN_PER_REFERENCE)
        if references
        else {}
    )
    brain: dict[int, BrainEntry] = {}
    for reference in references:
        for entry in found.get(reference, []):
            brain.setdefault(entry.id, entry)
    daten = {
        "aufgabe": request.task,
        "erinnerungen": [_short(memory, score) for memory, score in relevant],
        "kurzzeit": [_short(memory) for memory in recent],
        "brain": [
            {
                "ID": entry.id,
                "titel": entry.titel,
                "vk_typ": entry.vk_typ.value,
                "vk_referenz_id": entry.vk_referenz_id,
                "auszug": entry.inhalt[:EXCERPT_LEN],
            }
            for entry in brain.values()
        ],
    }
    return responses.success(daten, {})
