"""Issue 20: a project granted only through the token's `projects` claim cannot be created,
owned or read by a non-member — through the tools (dispatcher), on every adapter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shared.auth.principal import Principal
from shared.config import Settings
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.tools.dispatch import call_tool
from tests.contract.builders import lt, new_memory, service_principal

TENANT = "acme"


principal = service_principal


@pytest.fixture
def ctx(storage: StoragePort, tmp_path: Path) -> ServiceContext:
    return ServiceContext(storage, Settings(data_dir=tmp_path))


ANNA = principal("anna", "apollo")  # a member by the token's claim
MALLORY = principal("mallory")  # nobody's member


def remember(
    ctx: ServiceContext, who: Principal, text: str, path: str, create: bool = False
) -> dict[str, Any]:
    arguments = {"content": text, "path": path, "create_project": create}
    return call_tool(ctx, who, "remember", arguments)


def search(ctx: ServiceContext, who: Principal, query: str) -> str:
    return str(call_tool(ctx, who, "search_memory", {"query": query, "path": "projects"}))


def test_a_non_member_cannot_create_a_claimed_project_after_its_members_wrote(
    ctx: ServiceContext,
) -> None:
    # Given a member by claim who wrote into projects/apollo (no create_project)
    assert remember(ctx, ANNA, "Startfenster Apollo ist Dienstag.", "projects/apollo")["erfolg"]
    # When a non-member calls remember with create_project=true there
    attack = remember(ctx, MALLORY, "Ich übernehme.", "projects/apollo", create=True)
    # Then it is refused like any project he is no member of, and he reads nothing of it
    assert attack["erfolg"] is False
    assert attack["fehler"][0]["meldung"].startswith("nicht berechtigt")
    project = ctx.storage.get_project(TENANT, "apollo")
    assert project is not None and project.owner == "anna"
    assert "mallory" not in project.members
    assert "Startfenster" not in search(ctx, MALLORY, "Startfenster")
    # And the member by claim still writes and reads it
    assert remember(ctx, ANNA, "Startfenster verschoben.", "projects/apollo")["erfolg"]
    assert "Startfenster" in search(ctx, ANNA, "Startfenster")


def test_a_claimed_project_area_with_content_but_no_record_counts_as_existing(
    ctx: ServiceContext,
) -> None:
    # Given a memory in projects/apollo and no project record (written before records)
    legacy = new_memory(lt(1), tenant=TENANT, area="projects/apollo", memory="Budget: 40k.")
    assert ctx.storage.put_memories([legacy]) == [None]
    assert ctx.storage.get_project(TENANT, "apollo") is None
    # When a non-member tries to create it, Then refused (the area is in use), no record
    attack = remember(ctx, MALLORY, "Meins.", "projects/apollo", create=True)
    assert attack["erfolg"] is False
    assert ctx.storage.get_project(TENANT, "apollo") is None


def test_the_ledger_cannot_create_a_claimed_project_for_a_non_member(ctx: ServiceContext) -> None:
    assert remember(ctx, ANNA, "Apollo-Kasse eröffnet.", "projects/apollo")["erfolg"]
    booking = {
        "art": "ausgabe",
        "betrag": "12.50",
        "waehrung": "EUR",
        "datum": "2026-11-02",
        "gegenpartei": "Kiosk",
        "kategorie": "Material",
        "path": "projects/apollo",
        "create_project": True,
    }
    answer = call_tool(
        ctx, MALLORY, "ledger", {"inhalt": {"aktion": "buchen", "eintraege": [booking]}}
    )
    assert answer["erfolg"] is False
    assert ctx.storage.find_ledger(TENANT, ["projects/apollo"], None, None, None) == {
        "projects/apollo": []
    }


def test_an_unused_project_is_still_created_by_whoever_asks_first(ctx: ServiceContext) -> None:
    # Given a project name no claim and no content knows
    answer = remember(ctx, MALLORY, "Mein neues Projekt.", "projects/hermes", create=True)
    # Then create_project works as before: the caller owns it
    assert answer["erfolg"], answer
    project = ctx.storage.get_project(TENANT, "hermes")
    assert project is not None and project.owner == "mallory"
