"""What belongs to one memory besides its fields: its ratings (the rating log) and the brain
entries it is linked to (`GET /api/memory/{id}/bewertungen`, `/api/memory/{id}/brain`).

Invariants:
- Both answer only for a memory the call may read (`memory_api.get_memory`'s rule); any
  other ID gets the same 404 a missing memory gets.
- The rating log is the ratings storage keeps for the memory (`StoragePort.get_ratings`),
  newest first, beside the running average and last call the memory itself carries — the
  numbers `rate_brain_memories` answers with.
- A memory is linked to the brain entries about its entity: its `scope` is a brain entry
  type (kunde, produkt, mitarbeiter, projekt) and its `scope_vk` their reference ID, the link
  `select_brain` follows the other way (`detailgrad: erinnerungen`). Brain entries are read
  with the scope `brain:read`, as `select_brain` reads them.
"""

from __future__ import annotations

from typing import Any, Final

from shared.auth.principal import Principal
from shared.domain import BrainEntry, Rating, VkTyp
from shared.services import responses
from shared.services.context import ServiceContext
from shared.services.memory_api import _visible_one, acting_caller

LINKED_MAX: Final = 20


def _rating_view(ctx: ServiceContext, rating: Rating) -> dict[str, Any]:
    return {
        "score": responses.number(rating.score),
        "agent": rating.agent,
        "nutzer": rating.nutzer,
        "datum": responses.format_local(rating.datum, ctx.settings.zone),
    }


def ratings(
    ctx: ServiceContext, principal: Principal, nutzer: str | None, raw_id: str
) -> dict[str, Any]:
    caller = acting_caller(principal, nutzer)
    memory = _visible_one(ctx, principal, caller, raw_id)
    log = sorted(
        ctx.storage.get_ratings(principal.tenant, memory.id),
        key=lambda rating: (rating.datum, rating.insert_id),
        reverse=True,
    )
    return {
        "ID": str(memory.id),
        "score_avg": responses.number(memory.score_avg),
        "score_count": memory.score_count,
        "last_call": responses.format_local(memory.last_call, ctx.settings.zone),
        "bewertungen": [_rating_view(ctx, rating) for rating in log],
    }


def _entry_view(ctx: ServiceContext, entry: BrainEntry) -> dict[str, Any]:
    zone = ctx.settings.zone
    return {
        "ID": entry.id,
        "titel": entry.titel,
        "inhalt": entry.inhalt,
        "vk_typ": entry.vk_typ.value,
        "vk_referenz_id": entry.vk_referenz_id,
        "tags": entry.tags,
        "erstellt": responses.format_local(entry.created_at, zone),
        "geaendert": responses.format_local(entry.updated_at, zone),
    }


def linked_brain_entries(
    ctx: ServiceContext, principal: Principal, nutzer: str | None, raw_id: str
) -> dict[str, Any]:
    caller = acting_caller(principal, nutzer)
    memory = _visible_one(ctx, principal, caller, raw_id)
    kinds = {kind.value for kind in VkTyp}
    entries: list[BrainEntry] = []
    if memory.scope in kinds and memory.scope_vk:
        entries = ctx.storage.find_brain_by_reference(
            principal.tenant, memory.scope, memory.scope_vk, LINKED_MAX
        )
    return {
        "ID": str(memory.id),
        "scope": memory.scope,
        "scope_vk": memory.scope_vk,
        "eintraege": [_entry_view(ctx, entry) for entry in entries],
        "anzahl": len(entries),
    }
