"""The errors of memory entries (not found, storage outcomes) and the visibility read every
memory write and fetch starts from: one wording, one kind per storage outcome.

Invariant: missing, expired and not visible memories read alike (`nicht_gefunden`), so
sequential IDs reveal nothing; messages never include storage details or values.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Final

from shared.auth.principal import Principal
from shared.domain import EntryFailure, EntryFailureCode, Memory, MemoryId
from shared.services.areas import Visibility
from shared.services.context import ServiceContext
from shared.validation.errors import Art, FieldError


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


STORAGE_ART: Final = {
    EntryFailureCode.NOT_FOUND: Art.NOT_FOUND,
    EntryFailureCode.CONFLICT: Art.CONFLICT,
}


def storage_failure(path: str, failure: EntryFailure) -> FieldError:
    """The error of a storage outcome, its kind from the storage's typed code."""
    art = STORAGE_ART.get(failure.code, Art.STORAGE)
    return FieldError(path, storage_failure_message(failure), art)


def not_found(path: str, memory_id: object) -> FieldError:
    return FieldError(path, not_found_message(memory_id), Art.NOT_FOUND)


def visible_memories(
    ctx: ServiceContext,
    principal: Principal,
    nutzer: str,
    ids: list[MemoryId],
    now: datetime,
    found: Mapping[MemoryId, Memory] | None = None,
) -> dict[MemoryId, Memory]:
    """The memories that exist, are not expired and lie in an area the call acting as
    `nutzer` may read; all others are reported alike (nicht_gefunden), so sequential IDs
    reveal nothing. `found`: those memories as the caller already read them."""
    if found is None:
        found = ctx.storage.get_memories(principal.tenant, ids, now) if ids else {}
    visibility = Visibility(ctx, principal, nutzer)
    return {mid: m for mid, m in found.items() if visibility.may_read(m.area)}


__all__ = [
    "STORAGE_ART",
    "not_found",
    "not_found_message",
    "storage_failure",
    "storage_failure_message",
    "visible_memories",
]
