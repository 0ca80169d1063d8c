"""`brain export` / `brain import`: a tenant as JSON Lines that the tools take back.

One line per brain entry — exactly an `upsert_brain` entry (`titel`, `inhalt`, `vk_typ`,
`vk_referenz_id`, `tags`, `stammdaten`; no `ID`: the importing tenant numbers anew) — and one
line per live memory:

    {"art": "memory", "typ": "longterm"|"shortterm", "bereich": "<area>",
     "referenzfelder": {...}, "eintrag": <an insert_brain_*_memory entry>}

`eintrag` holds `kurzbeschreibung`, `memory`, `tags`, `scope`, `scope_vk`, `nutzer`,
`agent`, the embedding with its `embedding_profil_hash` when the memory has one, and for a
short-term memory its remaining lifetime as `ttl_sekunden`. Invariants: export reads by
ID (no scan: brain entries and memories of each type up to the highest ID handed out, 100
IDs per read), oldest first, so an import stores them in the same order; import sends
memories through the same validation and service code as the insert tools (into the
exported area), brain entries through `upsert_brain`. Ratings, IDs and timestamps are
not part of the export (no tool accepts them).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any, Final

from shared.auth.principal import ANY, Principal, Scope
from shared.domain import BrainEntry, CounterName, Memory, MemoryId, MemoryType, Project
from shared.services.context import ServiceContext
from shared.services.memories import insert_memories
from shared.validation.requests import parse_insert

PAGE: Final = 100
MEMORY_LINE: Final = "memory"


def _brain_line(entry: BrainEntry) -> dict[str, Any]:
    return {
        "titel": entry.titel,
        "inhalt": entry.inhalt,
        "vk_typ": entry.vk_typ.value,
        "vk_referenz_id": entry.vk_referenz_id,
        "tags": list(entry.tags),
        "stammdaten": dict(entry.stammdaten),
    }


def _memory_line(memory: Memory, embedding: bytes | None, now: datetime) -> dict[str, Any]:
    eintrag: dict[str, Any] = {
        "kurzbeschreibung": memory.kurzbeschreibung,
        "memory": memory.memory,
        "tags": list(memory.tags),
        "scope": memory.scope,
        "scope_vk": memory.scope_vk,
        "nutzer": memory.nutzer,
        "agent": memory.agent,
    }
    if embedding is not None and memory.embedding_profil_hash is not None:
        eintrag["embedding"] = list(struct.unpack(f"<{len(embedding) // 4}f", embedding))
        eintrag["embedding_profil_hash"] = memory.embedding_profil_hash
    if memory.id.typ is MemoryType.SHORTTERM and memory.expires_at is not None:
        eintrag["ttl_sekunden"] = max(1, math.ceil((memory.expires_at - now).total_seconds()))
    return {
        "art": MEMORY_LINE,
        "typ": memory.id.typ.value,
        "bereich": memory.area,
        "referenzfelder": dict(memory.referenzfelder),
        "eintrag": eintrag,
    }


def export_lines(ctx: ServiceContext, tenant: str) -> Iterator[dict[str, Any]]:
    """The tenant's brain entries, then its long-term and short-term memories, by ID."""
    storage = ctx.storage
    highest = storage.highest_id(tenant, CounterName.BRAIN)
    for start in range(1, highest + 1, PAGE):
        ids = list(range(start, min(start + PAGE, highest + 1)))
        found = storage.get_brain_entries(tenant, ids)
        yield from (_brain_line(found[i]) for i in ids if i in found)
    for typ in (MemoryType.LONGTERM, MemoryType.SHORTTERM):
        highest = storage.highest_id(tenant, CounterName(typ.value))
        for start in range(1, highest + 1, PAGE):
            now = ctx.clock()
            memory_ids = [MemoryId(typ, n) for n in range(start, min(start + PAGE, highest + 1))]
            memories = storage.get_memories(tenant, memory_ids, now)
            for memory_id in memory_ids:
                memory = memories.get(memory_id)
                if memory is None:
                    continue
                embedding = (
                    storage.get_embedding(tenant, memory_id)
                    if memory.embedding_profil_hash is not None
                    else None
                )
                yield _memory_line(memory, embedding, now)


def importer_principal(tenant: str, subject: str) -> Principal:
    """Who an import acts as: any nutzer and agent of the tenant, write scopes only."""
    return Principal(
        tenant=tenant,
        subject=subject,
        nutzer=frozenset({ANY}),
        agents=frozenset({ANY}),
        scopes=frozenset({Scope.BRAIN_WRITE.value, Scope.MEMORY_WRITE.value}),
    )


def ensure_project(ctx: ServiceContext, tenant: str, area: str, nutzer: str) -> None:
    """A memory imported into `projects/<p>` keeps its readers: a missing project is
    created with the memory's nutzer as owner, and every importing nutzer is a member (the
    rule of the SQLite areas backfill). Project records are not part of the export."""
    namespace, _, name = area.partition("/")
    if namespace != "projects":
        return
    project = ctx.storage.get_project(tenant, name)
    if project is None:
        created = Project(tenant=tenant, name=name, owner=nutzer, created_at=ctx.clock())
        if ctx.storage.create_project(created):
            return
        project = ctx.storage.get_project(tenant, name)
    if project is not None and nutzer not in project.members and nutzer != project.owner:
        ctx.storage.add_project_members(tenant, name, [nutzer])


def import_memories(
    ctx: ServiceContext,
    principal: Principal,
    typ: MemoryType,
    area: str,
    referenzfelder: dict[str, Any],
    entries: Sequence[dict[str, Any]],
    *,
    caller: tuple[str, str],
) -> list[dict[str, Any]]:
    """Store one group of exported memory entries (same type, area and referenzfelder)
    through the insert tools' validation and service; one result per entry."""
    for nutzer in dict.fromkeys(str(entry.get("nutzer", "")) for entry in entries):
        if nutzer:
            ensure_project(ctx, principal.tenant, area, nutzer)
    arguments = {
        "inhalt": {"memories": list(entries), "nutzer": caller[0], "agent": caller[1]},
        "referenzfelder": referenzfelder,
    }
    options = ctx.settings.parse_options()
    batch = parse_insert(arguments, options, shortterm=typ is MemoryType.SHORTTERM)
    envelope = insert_memories(ctx, principal, batch, typ, area=area)
    results: list[dict[str, Any]] = envelope.get("daten") or []
    if not results and not envelope.get("erfolg"):
        return [{"erfolg": False, "fehler": envelope.get("fehler", [])} for _ in entries]
    return results
