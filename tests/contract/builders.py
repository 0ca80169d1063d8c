"""Small builders for domain objects used by the storage contract tests."""

from __future__ import annotations

import struct
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from shared.auth.principal import ALL_SCOPES, Principal
from shared.domain import (
    BrainEntry,
    Memory,
    MemoryId,
    MemoryType,
    NewMemory,
    Rating,
    VkTyp,
)

T0 = datetime(2025, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)
TENANT = "tenant-a"
OTHER_TENANT = "tenant-b"


def at(minutes: int = 0, *, days: int = 0) -> datetime:
    """A UTC time relative to T0."""
    return T0 + timedelta(days=days, minutes=minutes)


def lt(number: int) -> MemoryId:
    return MemoryId(MemoryType.LONGTERM, number)


def st(number: int) -> MemoryId:
    return MemoryId(MemoryType.SHORTTERM, number)


def embedding(*values: float) -> bytes:
    """Little-endian float32 bytes, as the services encode them."""
    return struct.pack(f"<{len(values)}f", *values)


def make_memory(memory_id: MemoryId, *, tenant: str = TENANT, **overrides: Any) -> Memory:
    fields: dict[str, Any] = {
        "tenant": tenant,
        "id": memory_id,
        "kurzbeschreibung": f"Kurz {memory_id}",
        "memory": f"Inhalt von {memory_id}",
        "tags": ["Alpha", "beta"],
        "scope": "kunde",
        "scope_vk": "K-1",
        "nutzer": "nutzer-1",
        "agent": "agent-1",
        "created_at": T0,
        "updated_at": T0,
    }
    fields.update(overrides)
    return Memory(**fields)


def new_memory(
    memory_id: MemoryId,
    *,
    tenant: str = TENANT,
    vector: bytes | None = None,
    **overrides: Any,
) -> NewMemory:
    return NewMemory(make_memory(memory_id, tenant=tenant, **overrides), vector)


def make_rating(
    insert_id: int,
    memory_id: MemoryId,
    score: Decimal | str | int,
    *,
    tenant: str = TENANT,
    datum: datetime = T0,
    **overrides: Any,
) -> Rating:
    fields: dict[str, Any] = {
        "tenant": tenant,
        "insert_id": insert_id,
        "memory_id": memory_id,
        "agent": "agent-r",
        "nutzer": "nutzer-r",
        "score": Decimal(score),
        "datum": datum,
    }
    fields.update(overrides)
    return Rating(**fields)


def make_entry(entry_id: int, *, tenant: str = TENANT, **overrides: Any) -> BrainEntry:
    fields: dict[str, Any] = {
        "tenant": tenant,
        "id": entry_id,
        "titel": f"Titel {entry_id}",
        "inhalt": f"Inhalt {entry_id}",
        "vk_typ": VkTyp.KUNDE,
        "vk_referenz_id": "K-1",
        "tags": ["Vertrag"],
        "stammdaten": {"name": "Muster GmbH", "plz": "12345"},
        "nutzer": "nutzer-1",
        "agent": "agent-1",
        "created_at": T0,
        "updated_at": T0,
        "terms": {"vertrag": 2, "muster": 1},
        "doc_len": 3,
    }
    fields.update(overrides)
    return BrainEntry(**fields)


def service_principal(nutzer: str, *projects: str, tenant: str = "acme") -> Principal:
    """A token of one nutzer (agent `bot`, all scopes), granted `projects` by claim."""
    return Principal(
        tenant=tenant,
        subject=f"sub-{nutzer}",
        nutzer=frozenset({nutzer}),
        agents=frozenset({"bot"}),
        scopes=ALL_SCOPES,
        projects=frozenset(projects),
    )
