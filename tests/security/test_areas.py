"""Areas and membership through the real HTTP app, on both adapters (contract §2, §7).

Two members of a team share the team's memories but not their private ones; an outsider
sees neither and cannot write; projects work alike with owner, claim and owner-added
members; a call acts as one nutzer, never as everything the token may act as.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.auth.principal import ALL_SCOPES
from shared.config import Settings
from shared.services.areas import add_project_members
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from tests.conftest import InProcessServer
from tests.e2e.helpers import call, insert_args, memory_entry
from tests.security.conftest import TENANT_A, stored_state

pytestmark = pytest.mark.anyio

SEARCH_TOOLS = ("search_memory", "recall", "recall_context")


def token(
    issuer: LocalTokenIssuer,
    nutzer: str | Iterable[str],
    *,
    teams: Iterable[str] = (),
    projects: Iterable[str] = (),
    scopes: Iterable[str] = ALL_SCOPES,
    profile: str = "",
) -> str:
    names = [nutzer] if isinstance(nutzer, str) else list(nutzer)
    return issuer.issue(
        tenant=TENANT_A,
        subject=f"{TENANT_A}:{'+'.join(names)}",
        nutzer=names,
        agents=["bot"],
        scopes=scopes,
        teams=teams,
        projects=projects,
        profile=profile,
        ttl_seconds=600,
    )


async def remember(server: InProcessServer, tok: str, path: str, content: str, **extra: Any) -> Any:
    async with server.client(tok) as client:
        return await call(client, "remember", {"content": content, "path": path, **extra})


async def found_ids(server: InProcessServer, tok: str, words: str, **extra: Any) -> list[set[str]]:
    """The IDs search_memory, recall and recall_context return for the same words."""
    async with server.client(tok) as client:
        searched = await call(client, "search_memory", {"query": words, **extra})
        recalled = await call(client, "recall", {"query": words, **extra})
        context = await call(client, "recall_context", {"task": words, **extra})
    return [
        {hit["ID"] for hit in searched["daten"]["treffer"]},
        {hit["ID"] for hit in recalled["daten"]["erinnerungen"]},
        {hit["ID"] for hit in context["daten"]["erinnerungen"]},
    ]


async def test_team_members_share_team_memories_and_keep_private_ones(
    secure_server: InProcessServer, backend: StoragePort, issuer: LocalTokenIssuer
) -> None:
    # Given alice and bob in team core, and eve in no team
    alice = token(issuer, "alice", teams=["core"])
    bob = token(issuer, "bob", teams=["core"])
    eve = token(issuer, "eve", teams=["sales"])
    shared = await remember(secure_server, alice, "teams/core/process", "Deploy window Tuesday")
    private = await remember(secure_server, alice, "users/alice/notes", "Deploy window secret")
    bobs = await remember(secure_server, bob, "users/bob/notes", "Deploy window for bob")
    assert shared["erfolg"] and private["erfolg"] and bobs["erfolg"]
    team_id, alice_id, bob_id = (r["daten"]["ID"] for r in (shared, private, bobs))
    # When each searches, recalls and recalls context for the same words
    # Then alice and bob see the team memory and their own, not each other's private ones
    assert await found_ids(secure_server, alice, "deploy window") == [{team_id, alice_id}] * 3
    assert await found_ids(secure_server, bob, "deploy window") == [{team_id, bob_id}] * 3
    # And eve sees none of them
    assert await found_ids(secure_server, eve, "deploy window") == [set()] * 3
    # And the hit names its path and area
    async with secure_server.client(bob) as client:
        hit = (await call(client, "search_memory", {"query": "Tuesday"}))["daten"]["treffer"][0]
    assert (hit["pfad"], hit["bereich"]) == ("teams/core/process", "teams/core")
    # And eve cannot write into the team; nothing is written
    before = stored_state(backend)
    refused = await remember(secure_server, eve, "teams/core/process", "Deploy never")
    assert refused["erfolg"] is False and refused["fehler"][0]["feld"] == "path"
    assert "nicht berechtigt" in refused["fehler"][0]["meldung"]
    assert stored_state(backend) == before


async def test_brain_tools_reach_team_memories_by_id_for_members_only(
    secure_server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    alice = token(issuer, "alice", teams=["core"])
    shared = await remember(secure_server, alice, "teams/core/process", "Release checklist")
    memory_id = shared["daten"]["ID"]
    identity = {"nutzer": "bob", "agent": "bot"}
    # When team member bob fetches, rates and updates it with the Brain tools
    async with secure_server.client(token(issuer, "bob", teams=["core"])) as client:
        fetched = await call(
            client,
            "fetch_brain_memories",
            {"inhalt": {"memories": {"longterm": [memory_id]}, **identity}},
        )
        rated = await call(
            client,
            "rate_brain_memories",
            {
                "inhalt": {
                    "memories": [
                        {
                            "typ": "longterm",
                            "parameter": {"memory_ID": memory_id, "agent": "bot", "score": 9},
                        }
                    ],
                    **identity,
                }
            },
        )
        updated = await call(
            client,
            "update_brain_memories",
            {"inhalt": {"memories": [{"ID": memory_id, "memory": "Release list v2"}], **identity}},
        )
    # Then he may (the team area is his to read)
    assert [m["ID"] for m in fetched["daten"]["longterm"]] == [memory_id]
    assert rated["erfolg"] is True and updated["erfolg"] is True
    # And outsider eve gets nicht_gefunden for it, exactly like for a missing ID
    eve_identity = {"nutzer": "eve", "agent": "bot"}
    async with secure_server.client(token(issuer, "eve")) as client:
        probe = await call(
            client,
            "fetch_brain_memories",
            {"inhalt": {"memories": {"longterm": [memory_id, "longterm_99"]}, **eve_identity}},
        )
        deleted = await call(
            client,
            "delete_brain_memories",
            {"inhalt": {"memories": {"longterm": [memory_id]}, **eve_identity}},
        )
    assert probe["daten"]["nicht_gefunden"] == [memory_id, "longterm_99"]
    assert deleted["daten"]["geloescht"] == []
    # And team member bob may delete it
    async with secure_server.client(token(issuer, "bob", teams=["core"])) as client:
        forgotten = await call(
            client,
            "delete_brain_memories",
            {"inhalt": {"memories": {"longterm": [memory_id]}, **identity}},
        )
    assert forgotten["daten"]["geloescht"] == [memory_id]


async def test_a_call_acts_as_its_envelope_nutzer_not_as_every_nutzer_of_the_token(
    secure_server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    # Given a token that may act as 7 and 42, and a memory of nutzer 7
    both = token(issuer, ["7", "42"])
    async with secure_server.client(both) as client:
        inserted = await call(
            client,
            "insert_brain_longterm_memory",
            insert_args(memory_entry(nutzer="7", agent="bot"), nutzer="7", agent="bot"),
        )
        memory_id = inserted["daten"][0]["ID"]
        # When the call acts as 42, then as 7
        as_42 = await call(
            client,
            "fetch_brain_memories",
            {"inhalt": {"memories": {"longterm": [memory_id]}, "nutzer": "42", "agent": "bot"}},
        )
        as_7 = await call(
            client,
            "fetch_brain_memories",
            {"inhalt": {"memories": {"longterm": [memory_id]}, "nutzer": "7", "agent": "bot"}},
        )
    # Then 42 does not see 7's memory; 7 does
    assert as_42["daten"]["nicht_gefunden"] == [memory_id]
    assert [m["ID"] for m in as_7["daten"]["longterm"]] == [memory_id]


async def test_project_membership_by_owner_claim_and_owner_added_member(
    secure_server: InProcessServer,
    backend: StoragePort,
    issuer: LocalTokenIssuer,
    settings: Settings,
) -> None:
    # Given alice creates project memory-os with a memory:write-only token
    writer = token(issuer, "alice", scopes=["memory:write"])
    created = await remember(
        secure_server,
        writer,
        "projects/memory-os/decisions",
        "Use OAuth for hosted ChatGPT connections.",
        create_project=True,
    )
    assert created["erfolg"] is True, created
    memory_id = created["daten"]["ID"]
    alice = token(issuer, "alice")
    bob = token(issuer, "bob")
    carla = token(issuer, "carla", projects=["memory-os"])
    words = "OAuth hosted ChatGPT"
    # Then the owner sees it, a member by token claim too, and bob (no member) does not
    assert await found_ids(secure_server, alice, words) == [{memory_id}] * 3
    assert await found_ids(secure_server, carla, words) == [{memory_id}] * 3
    assert await found_ids(secure_server, bob, words) == [set()] * 3
    # And bob cannot write into it — with the same answer as for a missing project
    before = stored_state(backend)
    closed = await remember(secure_server, bob, "projects/memory-os/x", "Bob war hier")
    missing = await remember(secure_server, bob, "projects/ghost-os/x", "Bob war hier")
    assert stored_state(backend) == before
    assert closed["fehler"][0]["meldung"].replace("memory-os", "P") == missing["fehler"][0][
        "meldung"
    ].replace("ghost-os", "P")
    # And nor can he take it over with create_project
    taken = await remember(
        secure_server, bob, "projects/memory-os/x", "Bob war hier", create_project=True
    )
    assert taken["fehler"][0]["meldung"] == closed["fehler"][0]["meldung"]
    # And the claim member writes into it
    claimed = await remember(secure_server, carla, "projects/memory-os/notes", "Carla notes")
    assert claimed["erfolg"] is True
    # When the owner adds bob
    context = ServiceContext(backend, settings)
    add_project_members(context, TENANT_A, "alice", "memory-os", ["bob"])
    # Then bob sees and writes
    assert await found_ids(secure_server, bob, words) == [{memory_id}] * 3
    joined = await remember(secure_server, bob, "projects/memory-os/x", "Bob ist dabei")
    assert joined["erfolg"] is True


async def test_only_the_owner_adds_members(
    secure_server: InProcessServer,
    backend: StoragePort,
    issuer: LocalTokenIssuer,
    settings: Settings,
) -> None:
    from shared.validation.errors import RequestRejected

    await remember(
        secure_server, token(issuer, "alice"), "projects/p1/x", "Start", create_project=True
    )
    context = ServiceContext(backend, settings)
    with pytest.raises(RequestRejected) as not_owner:
        add_project_members(context, TENANT_A, "bob", "p1", ["bob"])
    with pytest.raises(RequestRejected) as missing:
        add_project_members(context, TENANT_A, "bob", "p2", ["bob"])
    assert not_owner.value.errors[0].meldung.replace("p1", "P") == missing.value.errors[
        0
    ].meldung.replace("p2", "P")
    assert backend.projects_of(TENANT_A, "bob") == frozenset()


@pytest.mark.parametrize("profile", ["chatgpt", "claude", "ChatGPT"])
async def test_plugin_profiles_may_not_create_projects(
    secure_server: InProcessServer, backend: StoragePort, issuer: LocalTokenIssuer, profile: str
) -> None:
    before = stored_state(backend)
    refused = await remember(
        secure_server,
        token(issuer, "alice", profile=profile),
        "projects/new-one/x",
        "Neu",
        create_project=True,
    )
    assert refused["erfolg"] is False
    assert refused["fehler"][0]["feld"] == "create_project"
    assert "Profil" in refused["fehler"][0]["meldung"]
    assert stored_state(backend) == before
    assert backend.get_project(TENANT_A, "new-one") is None


async def test_path_bounds_the_search_to_areas_under_it(
    secure_server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    # Given memories of alice in her team, two projects and her own area
    alice = token(issuer, "alice", teams=["core"])
    ids = {}
    for number, path in enumerate(
        (
            "teams/core/process",
            "projects/alpha/decisions",
            "projects/alpha/notes",
            "projects/beta/decisions",
            "users/alice/notes",
        )
    ):
        # (a number of its own: two notes of one area are not near-duplicates)
        content = f"Kickoff notes {path}, meeting {number}"
        result = await remember(secure_server, alice, path, content, create_project=True)
        assert result["erfolg"], result
        ids[path] = result["daten"]["ID"]
    words = "kickoff notes"
    # Then each prefix returns exactly the memories under it, in every search tool
    expected = {
        "projects": {"projects/alpha/decisions", "projects/alpha/notes", "projects/beta/decisions"},
        "projects/alpha": {"projects/alpha/decisions", "projects/alpha/notes"},
        "projects/alpha/notes": {"projects/alpha/notes"},
        "teams/core": {"teams/core/process"},
        "users/alice": {"users/alice/notes"},
        "users/bob": set(),
    }
    for prefix, paths in expected.items():
        want = {ids[p] for p in paths}
        assert await found_ids(secure_server, alice, words, path=prefix) == [want] * 3, prefix
    # And without a path, everything alice may read
    assert await found_ids(secure_server, alice, words) == [set(ids.values())] * 3


async def test_select_brain_links_only_memories_of_the_acting_nutzers_areas(
    secure_server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    # Given a brain entry about K-1001 and anna's memory about it, and a token that may
    # act as anna and bob
    both = token(issuer, ["anna", "bob"])
    entry = {
        "titel": "Beispiel GmbH",
        "inhalt": "Kunde",
        "vk_typ": "kunde",
        "vk_referenz_id": "K-1001",
    }
    async with secure_server.client(both) as client:
        upserted = await call(
            client,
            "upsert_brain",
            {"inhalt": {"eintraege": [entry], "nutzer": "anna", "agent": "bot"}},
        )
        assert upserted["erfolg"], upserted
        await call(
            client,
            "insert_brain_longterm_memory",
            insert_args(memory_entry(nutzer="anna", agent="bot"), nutzer="anna", agent="bot"),
        )
        select = {
            "agent": "bot",
            "vk_typ": "kunde",
            "vk_referenz_id": "K-1001",
            "detailgrad": "stammdaten,erinnerungen",
        }
        as_bob = await call(client, "select_brain", {**select, "nutzer": "bob"})
        as_anna = await call(client, "select_brain", {**select, "nutzer": "anna"})
    # Then the memory is linked only when the call acts as anna
    assert as_bob["daten"]["treffer"][0]["erinnerungen"] == []
    assert len(as_anna["daten"]["treffer"][0]["erinnerungen"]) == 1
