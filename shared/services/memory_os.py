"""Memory OS tools (seed 004): remember, search_memory, recall, recall_context.

They take identity only from the token: the stored memory's author, account and device are
the principal's, and reserved identity metadata inside the content is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from shared.auth.principal import ANY, Principal, Scope
from shared.domain import (
    BrainEntry,
    BrainWrite,
    CounterName,
    Memory,
    MemoryId,
    MemoryPosting,
    MemoryType,
    NewMemory,
    VkTyp,
)
from shared.scrubbing import ScrubPolicy
from shared.search.analyzer import document_terms, query_terms
from shared.search.ranking import rank, terms_of
from shared.services import responses
from shared.services.context import ServiceContext
from shared.services.memories import memory_terms, memory_view, storage_failure_message
from shared.services.secrets import clean_value, hinweis, rejection
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.parsed import ContextRequest, RememberRequest, SearchRequest

SCOPE_OF_NAMESPACE: Final = {"projects": "projekt", "teams": "team", "users": "nutzer"}
SUMMARY_MAX_LEN: Final = 120
EXCERPT_LEN: Final = 200
BRAIN_PER_REFERENCE: Final = 3  # recall_context: brain entries per entity of a memory
# Lines that claim an identity: the server sets author, account and device from the token.
RESERVED_IDENTITY: Final = re.compile(
    r"^\s*(?:author|autor|verfasser|nutzer|user|agent|tenant|mandant|account|konto|device"
    r"|ger(?:ä|ae)t|subject)\s*[:=]",
    re.IGNORECASE | re.MULTILINE,
)


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


def _author(principal: Principal, target: Target) -> tuple[str, str]:
    """The nutzer and agent a memory is stored under: the token's own, never an argument."""
    if target.namespace == "users":
        nutzer = target.name
    else:
        own = sorted(name for name in principal.nutzer if name != ANY)
        nutzer = own[0] if len(own) == 1 else principal.subject
    agents = sorted(name for name in principal.agents if name != ANY)
    agent = agents[0] if len(agents) == 1 else principal.subject
    return nutzer, agent


def _authorize(principal: Principal, target: Target) -> None:
    if target.namespace == "teams" and target.name not in principal.teams:
        raise RequestRejected(
            [FieldError("path", f"nicht berechtigt: kein Mitglied im Team '{target.name}'.")]
        )
    if target.namespace == "users" and not principal.may_act_as_nutzer(target.name):
        raise RequestRejected(
            [
                FieldError(
                    "path",
                    f"nicht berechtigt: users/{target.name} gehört nicht zu diesem Token; "
                    "nur der eigene Bereich ist erlaubt.",
                )
            ]
        )


def _ensure_project(
    ctx: ServiceContext, principal: Principal, target: Target, create: bool, now: datetime
) -> None:
    storage = ctx.storage
    if storage.find_brain_by_reference(principal.tenant, VkTyp.PROJEKT.value, target.name, 1):
        return
    if not create:
        raise RequestRejected(
            [
                FieldError(
                    "path",
                    f"Projekt '{target.name}' existiert nicht; mit create_project=true anlegen.",
                )
            ]
        )
    if not principal.has_scope(Scope.BRAIN_WRITE):
        raise RequestRejected(
            [FieldError("create_project", "nicht berechtigt: Projekt anlegen braucht brain:write.")]
        )
    nutzer, agent = _author(principal, target)
    titel, inhalt = f"Projekt {target.name}", f"Projekt {target.name}, angelegt durch remember."
    terms, doc_len = document_terms(titel, inhalt)
    (entry_id,) = storage.reserve_ids(principal.tenant, CounterName.BRAIN, 1)
    entry = BrainEntry(
        tenant=principal.tenant,
        id=entry_id,
        titel=titel,
        inhalt=inhalt,
        vk_typ=VkTyp.PROJEKT,
        vk_referenz_id=target.name,
        tags=[],
        stammdaten={},
        nutzer=nutzer,
        agent=agent,
        created_at=now,
        updated_at=now,
        terms=terms,
        doc_len=doc_len,
    )
    (failure,) = storage.put_brain_entries([BrainWrite(entry)])
    if failure is not None:
        raise RequestRejected([FieldError("create_project", storage_failure_message(failure))])


def _summary(content: str) -> str:
    first = next((line.strip() for line in content.splitlines() if line.strip()), "")
    return first if len(first) <= SUMMARY_MAX_LEN else first[: SUMMARY_MAX_LEN - 1] + "…"


def remember(ctx: ServiceContext, principal: Principal, request: RememberRequest) -> dict[str, Any]:
    target = Target.of(request.path)
    _authorize(principal, target)
    if RESERVED_IDENTITY.search(request.content):
        raise RequestRejected(
            [
                FieldError(
                    "content",
                    "Sicherheitsablehnung: reservierte Identitätsmetadaten (z. B. 'author:', "
                    "'account:', 'device:') im Inhalt. Autor, Konto und Gerät kommen aus dem "
                    "Token.",
                )
            ]
        )
    cleaned = clean_value(request.content)
    if cleaned.kinds and ctx.settings.remember_scrub_policy is ScrubPolicy.REJECT:
        raise RequestRejected([rejection("content", cleaned.kinds)])
    content = cleaned.value
    now = ctx.clock()
    if target.namespace == "projects":
        _ensure_project(ctx, principal, target, request.create_project, now)
    nutzer, agent = _author(principal, target)
    (number,) = ctx.storage.reserve_ids(principal.tenant, CounterName.LONGTERM, 1)
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
    )
    if memory.tags:
        stored = ctx.storage.ensure_tags(principal.tenant, memory.tags)
        memory.tags = [stored[tag.casefold()] for tag in memory.tags]
    memory.terms, memory.doc_len = memory_terms(memory)
    (failure,) = ctx.storage.put_memories([NewMemory(memory)])
    if failure is not None:
        raise RequestRejected([FieldError("content", storage_failure_message(failure))])
    daten = {
        "ID": str(memory.id),
        "pfad": target.path,
        "autor": principal.subject,
        "nutzer": nutzer,
        "agent": agent,
        "konto": principal.account,
        "geraet": principal.device,
    }
    if cleaned.kinds:
        daten["hinweis"] = hinweis(cleaned.kinds)
    text = (
        f"Gespeichert als {memory.id} unter {target.path}. Autor: {principal.subject} "
        f"(nutzer {nutzer}), Konto: {principal.account or '-'}, "
        f"Gerät: {principal.device or '-'}."
    )
    return {**responses.success(daten, {}), "text": text}


def _search(
    ctx: ServiceContext,
    principal: Principal,
    query: str,
    limit: int,
    only: MemoryType | None = None,
) -> list[tuple[Memory, float]]:
    """Ranked memories visible to the principal, not expired, best first."""
    groups = query_terms(query)
    if not groups:
        return []
    now = ctx.clock()
    lookup = ctx.storage.lookup_memory_terms(principal.tenant, terms_of(groups))
    by_id: dict[MemoryId, MemoryPosting] = {
        posting.entry_id: posting for term in lookup.postings.values() for posting in term
    }

    def eligible(memory_id: MemoryId) -> bool:
        posting = by_id[memory_id]
        return (
            (only is None or memory_id.typ is only)
            and principal.may_act_as_nutzer(posting.nutzer)
            and (posting.expires_at is None or posting.expires_at > now)
        )

    ranked = [
        (memory_id, score)
        for memory_id, score in rank(groups, lookup.postings, lookup.stats)
        if eligible(memory_id)
    ][:limit]
    memories = ctx.storage.get_memories(principal.tenant, [mid for mid, _ in ranked], now)
    return [(memories[mid], score) for mid, score in ranked if mid in memories]


def _path_of(memory: Memory) -> str | None:
    path = memory.referenzfelder.get("pfad")
    return path if isinstance(path, str) else None


def search_memory(
    ctx: ServiceContext, principal: Principal, request: SearchRequest
) -> dict[str, Any]:
    hits = [
        {**memory_view(memory, ctx), "pfad": _path_of(memory), "relevanz": round(score, 4)}
        for memory, score in _search(ctx, principal, request.query, request.limit)
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
    }
    if score is not None:
        item["relevanz"] = round(score, 4)
    return item


def recall(ctx: ServiceContext, principal: Principal, request: SearchRequest) -> dict[str, Any]:
    hits = [_short(m, s) for m, s in _search(ctx, principal, request.query, request.limit)]
    return responses.success({"erinnerungen": hits, "anzahl": len(hits)}, {})


def recall_context(
    ctx: ServiceContext, principal: Principal, request: ContextRequest
) -> dict[str, Any]:
    """Relevant long-term memories, recent short-term memories, and the brain entries they
    are about — a package to read before a complex task."""
    now = ctx.clock()
    relevant = _search(ctx, principal, request.task, request.limit, only=MemoryType.LONGTERM)
    # Over-read: some recent memories may belong to other nutzer and are filtered out.
    recent = [
        memory
        for memory in ctx.storage.recent_memories(
            principal.tenant, MemoryType.SHORTTERM, now, request.limit * 4
        )
        if principal.may_act_as_nutzer(memory.nutzer)
    ][: request.limit]
    vk_types = {typ.value for typ in VkTyp}
    references = list(
        dict.fromkeys(
            (memory.scope, memory.scope_vk)
            for memory in [*(m for m, _ in relevant), *recent]
            if memory.scope in vk_types and memory.scope_vk
        )
    )[: request.limit]
    # One batched lookup for all entities (one round trip on DynamoDB), in memory order.
    found = ctx.storage.find_brain_by_references(principal.tenant, references, BRAIN_PER_REFERENCE)
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
