"""Issue 20: `select_brain` filters by visibility before any limit — project entries of
projects the caller is no member of stay hidden, and the memories linked to an entity are
the caller's visible ones even when others wrote newer ones. Through the dispatcher, on
every adapter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shared.auth.principal import Principal
from shared.config import Settings
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.tools.dispatch import call_tool
from tests.contract.builders import service_principal

TENANT = "acme"


principal = service_principal


ANNA, BOB, MALLORY = principal("anna"), principal("bob"), principal("mallory")


@pytest.fixture
def ctx(storage: StoragePort, tmp_path: Path) -> ServiceContext:
    return ServiceContext(storage, Settings(data_dir=tmp_path))


def select(ctx: ServiceContext, who: Principal, **arguments: Any) -> list[dict[str, Any]]:
    nutzer = next(iter(who.nutzer))
    answer = call_tool(ctx, who, "select_brain", {"nutzer": nutzer, "agent": "bot", **arguments})
    assert answer["erfolg"], answer
    treffer: list[dict[str, Any]] = answer["daten"]["treffer"]
    return treffer


def upsert(ctx: ServiceContext, who: Principal, *entries: dict[str, Any]) -> None:
    nutzer = next(iter(who.nutzer))
    inhalt = {"eintraege": list(entries), "nutzer": nutzer, "agent": "bot"}
    assert call_tool(ctx, who, "upsert_brain", {"inhalt": inhalt})["erfolg"]


def entity(titel: str, vk_typ: str, ref: str) -> dict[str, Any]:
    return {
        "titel": titel,
        "inhalt": f"{titel}: Stammdaten.",
        "vk_typ": vk_typ,
        "vk_referenz_id": ref,
    }


def create_project(ctx: ServiceContext, who: Principal, name: str) -> None:
    arguments = {"content": "Start.", "path": f"projects/{name}", "create_project": True}
    assert call_tool(ctx, who, "remember", arguments)["erfolg"]


def test_non_members_do_not_see_the_names_of_projects(ctx: ServiceContext) -> None:
    # Given a project anna created (its brain entry "Projekt geheimprojekt") and an
    # ordinary brain entity of vk_typ projekt that is no project area
    create_project(ctx, ANNA, "geheimprojekt")
    upsert(ctx, BOB, entity("Kundenprojekt Nord", "projekt", "kundenprojekt-nord"))
    for arguments in (
        {"query": "Projekt geheimprojekt"},
        {"vk_typ": "projekt"},
        {"vk_typ": "projekt", "vk_referenz_id": "geheimprojekt"},
        {},
    ):
        # When a non-member searches, Then the project's entry is not among the hits
        titles = [hit.get("titel") for hit in select(ctx, MALLORY, **arguments)]
        assert "Projekt geheimprojekt" not in titles, arguments
        # While its member finds it
        if arguments.get("vk_referenz_id") != "kundenprojekt-nord":
            assert "Projekt geheimprojekt" in [
                hit.get("titel") for hit in select(ctx, ANNA, **arguments)
            ], arguments
    # And the ordinary entity stays visible to everyone
    assert [hit["titel"] for hit in select(ctx, MALLORY, vk_typ="projekt")] == [
        "Kundenprojekt Nord"
    ]


def test_hidden_entries_do_not_take_the_places_of_visible_ones(ctx: ServiceContext) -> None:
    # Given two visible entries, then three newer project entries mallory may not see
    upsert(ctx, BOB, entity("Alpha GmbH", "kunde", "K-1"), entity("Beta AG", "kunde", "K-2"))
    for name in ("p-eins", "p-zwei", "p-drei"):
        create_project(ctx, ANNA, name)
    # When mallory lists two entries, Then she gets the two she may see
    titles = [hit["titel"] for hit in select(ctx, MALLORY, limit=2)]
    assert sorted(titles) == ["Alpha GmbH", "Beta AG"]


def test_linked_memories_are_filtered_before_the_limit(ctx: ServiceContext) -> None:
    # Given a customer, anna's own memory about it, then 25 newer private memories of bob's
    upsert(ctx, ANNA, entity("Gamma KG", "kunde", "K-7"))

    def insert(who: Principal, text: str, count: int = 1) -> None:
        nutzer = next(iter(who.nutzer))
        entries = [
            {"kurzbeschreibung": f"{text} {i}", "memory": f"{text} {i}", "tags": [],
             "scope": "kunde", "scope_vk": "K-7", "nutzer": nutzer, "agent": "bot"}
            for i in range(count)
        ]  # fmt: skip
        inhalt = {"memories": entries, "nutzer": nutzer, "agent": "bot"}
        answer = call_tool(ctx, who, "insert_brain_longterm_memory", {"inhalt": inhalt})
        assert answer["erfolg"], answer

    insert(ANNA, "Annas Notiz")
    insert(BOB, "Bobs private Notiz", 25)
    # When anna asks for the entity with its memories
    (hit,) = select(ctx, ANNA, vk_typ="kunde", vk_referenz_id="K-7", detailgrad="erinnerungen")
    # Then her memory is there, and none of bob's (was: the 20 newest, all bob's, then filtered)
    memories = [m["kurzbeschreibung"] for m in hit["erinnerungen"]]
    assert memories == ["Annas Notiz 0"]
