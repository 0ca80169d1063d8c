"""`brain export` / `brain import`: a tenant as JSON Lines that the tools take back.

One line per brain entry — exactly an `upsert_brain` entry (`titel`, `inhalt`, `vk_typ`,
`vk_referenz_id`, `tags`, `stammdaten`; no `ID`: the importing tenant numbers anew) — one
line per live memory:

    {"art": "memory", "typ": "longterm"|"shortterm", "ID": "<its ID here>",
     "bereich": "<area>", "referenzfelder": {...}, "eintrag": <an insert_brain_*_memory entry>,
     ["ersetzt_durch": "<the ID here of the memory that replaced it>"]}

then one line per ledger record (services/ledger_transfer.py, by ID: a booking before its
storno and zahlung) and, last, one line per project record that a brain entry (vk_typ
projekt), a memory's or a ledger record's area names:
`{"art": "projekt", "name", "owner", "mitglieder"}` (owner included).

`eintrag` holds `kurzbeschreibung`, `memory`, `tags`, `scope`, `scope_vk`, `nutzer`,
`agent`, the embedding with its `embedding_profil_hash` when the memory has one, and for a
short-term memory its remaining lifetime as `ttl_sekunden`. Invariants: export reads by
ID (no scan: brain entries and memories of each type up to the highest ID handed out, 100
IDs per read), oldest first, so an import stores them in the same order; the import
(services/imports.py) is a write of its operator with the insert tools' validation,
author and membership rules, scrubbing and storage. Ratings and timestamps are not part of
the export (no tool accepts them); `ID` only links a replaced memory to its successor
(services/import_history.py restores the link), the import numbers anew. A replaced memory
is exported like a current one (it is stored, readable by ID and in `verlauf`).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterator
from datetime import datetime
from typing import Any, Final

from shared.domain import BrainEntry, CounterName, Memory, MemoryId, MemoryType, Project, VkTyp
from shared.services.context import ServiceContext
from shared.services.ledger_transfer import ledger_line, ledger_records

PAGE: Final = 100
MEMORY_LINE: Final = "memory"
PROJECT_LINE: Final = "projekt"
ID_FIELD: Final = "ID"  # a memory line's ID in the exporting tenant
SUCCESSOR_FIELD: Final = "ersetzt_durch"  # a replaced memory line: its successor's ID there


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
    line = {
        "art": MEMORY_LINE,
        "typ": memory.id.typ.value,
        ID_FIELD: str(memory.id),
        "bereich": memory.area,
        "referenzfelder": dict(memory.referenzfelder),
        "eintrag": eintrag,
    }
    if memory.ersetzt_durch is not None:
        line[SUCCESSOR_FIELD] = str(memory.ersetzt_durch)
    return line


def _project_line(project: Project) -> dict[str, Any]:
    return {
        "art": PROJECT_LINE,
        "name": project.name,
        "owner": project.owner,
        "mitglieder": sorted(project.members | {project.owner}),
    }


def export_lines(ctx: ServiceContext, tenant: str) -> Iterator[dict[str, Any]]:
    """The tenant's brain entries, its long-term and short-term memories and its ledger (by
    ID), then the records of the projects they name (`brain import` reads those first)."""
    storage = ctx.storage
    projects: set[str] = set()
    highest = storage.highest_id(tenant, CounterName.BRAIN)
    for start in range(1, highest + 1, PAGE):
        ids = list(range(start, min(start + PAGE, highest + 1)))
        found = storage.get_brain_entries(tenant, ids)
        for i in ids:
            if i in found:
                if found[i].vk_typ is VkTyp.PROJEKT:
                    projects.add(found[i].vk_referenz_id)
                yield _brain_line(found[i])
    for line in _memory_lines(ctx, tenant):
        namespace, _, name = line["bereich"].partition("/")
        if namespace == "projects":
            projects.add(name)
        yield line
    for record in ledger_records(ctx, tenant):
        namespace, _, name = record.area.partition("/")
        if namespace == "projects":
            projects.add(name)
        yield ledger_line(record)
    for name in sorted(projects):
        project = storage.get_project(tenant, name)
        if project is not None:
            yield _project_line(project)


def _memory_lines(ctx: ServiceContext, tenant: str) -> Iterator[dict[str, Any]]:
    storage = ctx.storage
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
