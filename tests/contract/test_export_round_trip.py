"""`brain export` → `brain import` on both adapters (issue 12): the memories of one tenant,
exported by `export_lines` and imported through `import_memories` (the insert tools'
validation and service) into another tenant, export again as the same lines — areas,
referenzfelder, embeddings and short-term lifetimes included."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.domain import MemoryType
from shared.services.context import ServiceContext
from shared.services.export import MEMORY_LINE, export_lines
from shared.services.imports import import_memories, operator_principal
from shared.services.memories import insert_memories
from shared.storage.port import StoragePort
from shared.validation.requests import parse_insert
from tests.contract.builders import T0

CALLER = {"nutzer": "anna", "agent": "bot"}
SCOPE = {"tags": ["kunde"], "scope": "kunde", "scope_vk": "K-1001"}
SOURCE = Principal(
    tenant="t-exp",
    subject="anna",
    nutzer=frozenset({"anna"}),
    agents=frozenset({"bot"}),
    scopes=ALL_SCOPES,
    teams=frozenset({"core"}),
)


def context(storage: StoragePort) -> ServiceContext:
    return ServiceContext(storage, Settings(), lambda: T0 + timedelta(minutes=1))


def insert(ctx: ServiceContext, typ: MemoryType, area: str, *entries: dict[str, Any]) -> None:
    batch = parse_insert(
        {
            "inhalt": {**CALLER, "memories": [{**CALLER, **SCOPE, **e} for e in entries]},
            "referenzfelder": {"quelle": "export-test"},
        },
        ctx.settings.parse_options(),
        shortterm=typ is MemoryType.SHORTTERM,
    )
    answer = insert_memories(ctx, SOURCE, batch, typ, area=area)
    assert answer["erfolg"], answer


def memory_lines(ctx: ServiceContext, tenant: str) -> list[dict[str, Any]]:
    return [line for line in export_lines(ctx, tenant) if line.get("art") == MEMORY_LINE]


def test_exported_memories_import_into_another_tenant_and_export_the_same(
    storage: StoragePort,
) -> None:
    # Given long-term memories (one with an embedding), one in a team area, and a
    # short-term memory
    ctx = context(storage)
    insert(
        ctx,
        MemoryType.LONGTERM,
        "users/anna",
        {"kurzbeschreibung": "Skonto", "memory": "Skonto 2 % für K-1001."},
        {
            "kurzbeschreibung": "Vektor",
            "memory": "Rechnungen gehen an die Buchhaltung.",
            "embedding": [0.25, -1.5, 3.0],
            "embedding_profil_hash": "p1",
        },
    )
    insert(
        ctx,
        MemoryType.LONGTERM,
        "teams/core",
        {"kurzbeschreibung": "Team", "memory": "Deployments nur dienstags."},
    )
    insert(
        ctx,
        MemoryType.SHORTTERM,
        "users/anna",
        {"kurzbeschreibung": "Kurz", "memory": "Heute Rückruf bei ACME.", "ttl_sekunden": 3600},
    )
    exported = memory_lines(ctx, SOURCE.tenant)
    assert len(exported) == 4

    # When every line is imported into another tenant, group by group as `brain import` does
    importer = operator_principal("t-imp", "admin")
    for line in exported:
        results = import_memories(
            ctx,
            importer,
            MemoryType(line["typ"]),
            line["bereich"],
            line["referenzfelder"],
            [line["eintrag"]],
            caller=("anna", "bot"),
            teams={"core": ["anna"]},
        )
        assert [r["erfolg"] for r in results] == [True], results

    # Then the other tenant exports the same lines (areas, embeddings, lifetimes)
    assert memory_lines(ctx, "t-imp") == exported
