"""Bulk delete by a filter, after a preview (`GET /api/memory/loeschvorschau`, then
`POST /api/memory/loeschungen`).

Invariants:
- The preview is the listing (`memory_listing.list_memories`, the same filters and areas,
  newest first): how many memories match (counted up to `COUNT_MAX`) and the IDs of the
  first `rules.MAX_BATCH` — the tools' batch limit, also the most one deletion takes.
- The deletion takes those IDs, not the filter: it removes exactly what the person saw,
  never a memory written after the preview. It runs through `delete_memories` (the
  `delete_brain_memories` service: visibility, ratings, embedding, index entries) and is
  retry-safe like every write (tools/retry.py): a resend of the same IDs (or the
  same `Idempotency-Key`) within the window answers as the first send did.
- An ID the call may not see is reported `nicht_gefunden`, exactly like a missing one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from shared.auth.principal import Principal
from shared.domain import MemoryId, MemoryType
from shared.services.context import ServiceContext
from shared.services.memory_admin import prepare_delete
from shared.services.memory_api import acting_caller, run_rest_write
from shared.services.memory_listing import ListFilters, list_memories
from shared.services.outcomes import ApiRefused
from shared.tools.idempotency_fields import KEY_FIELD
from shared.validation import rules
from shared.validation.errors import Art, FieldError
from shared.validation.parsed import FetchRequest
from shared.validation.rules import Fields

COUNT_MAX: Final = 1000
ROUNDS_MAX: Final = 10  # listing requests per preview (each reads at most SCAN_BUDGET)
IDS_FIELD: Final = "ids"
DELETE_OPERATION: Final = "rest:POST /api/memory/loeschungen"
_PAGE: Final = 100


def _short(view: Mapping[str, Any]) -> dict[str, Any]:
    keys = ("ID", "kurzbeschreibung", "bereich", "pfad", "bucket", "erstellt")
    return {key: view.get(key) for key in keys}


def deletion_preview(
    ctx: ServiceContext, principal: Principal, nutzer: str | None, filters: ListFilters
) -> dict[str, Any]:
    """How many memories match the filters (exact up to COUNT_MAX memories and ROUNDS_MAX
    listing requests; otherwise a lower bound) and which come first."""
    shown: list[dict[str, Any]] = []
    counted = 0
    cursor: str | None = None
    for _ in range(ROUNDS_MAX):
        page = list_memories(ctx, principal, nutzer, filters, cursor, _PAGE)
        counted += page["anzahl"]
        room = rules.MAX_BATCH - len(shown)
        shown += [_short(view) for view in page["eintraege"][:room]]
        cursor = page["naechster_cursor"]
        if cursor is None or counted >= COUNT_MAX:
            break
    return {
        "anzahl": counted,
        "anzahl_genau": cursor is None,
        "ids": [item["ID"] for item in shown],
        "eintraege": shown,
        "hoechstens_je_loeschung": rules.MAX_BATCH,
    }


def _parse_ids(body: Any) -> list[str]:
    errors: list[FieldError] = []
    item = rules.obj(body, "", errors)
    ids: list[str] = []
    if item is not None:
        fields = Fields(item, "", errors)
        fields.reject_unknown((IDS_FIELD,))
        values = None
        if IDS_FIELD not in item:
            errors.append(FieldError(IDS_FIELD, "Pflichtfeld: die IDs aus der Vorschau."))
        else:
            values = rules.array(
                item[IDS_FIELD], IDS_FIELD, errors, min_items=1, max_items=rules.MAX_BATCH
            )
        for index, value in enumerate(values or []):
            if not isinstance(value, str) or MemoryId.parse(value) is None:
                message = "Muss eine Erinnerungs-ID sein, z. B. longterm_17 oder shortterm_3."
                errors.append(FieldError(rules.index_path(IDS_FIELD, index), message))
            else:
                ids.append(value)
    if errors:
        raise ApiRefused(Art.INVALID, errors)
    return list(dict.fromkeys(ids))


def delete_many(
    ctx: ServiceContext,
    principal: Principal,
    nutzer: str | None,
    body: Any,
    idempotency_key: str | None = None,
) -> dict[str, Any]:
    """Delete the listed memories; answers which were deleted and which were not found."""
    caller = acting_caller(principal, nutzer)
    ids = _parse_ids(body)
    parsed = {raw: MemoryId.parse(raw) for raw in ids}
    request = FetchRequest(
        caller=caller,
        referenzfelder={},
        shortterm=[raw for raw, mid in parsed.items() if mid and mid.typ is MemoryType.SHORTTERM],
        longterm=[raw for raw, mid in parsed.items() if mid and mid.typ is MemoryType.LONGTERM],
    )
    arguments: dict[str, Any] = {"nutzer": caller.nutzer, IDS_FIELD: ids}
    if idempotency_key:
        arguments["referenzfelder"] = {KEY_FIELD: idempotency_key}
    write = prepare_delete(ctx, principal, request)
    envelope = run_rest_write(ctx, principal, DELETE_OPERATION, arguments, write)
    daten: dict[str, Any] = envelope["daten"]
    return {
        "geloescht": daten["geloescht"],
        "nicht_gefunden": daten["nicht_gefunden"],
        "anzahl_geloescht": len(daten["geloescht"]),
    }


__all__ = ["COUNT_MAX", "delete_many", "deletion_preview"]
