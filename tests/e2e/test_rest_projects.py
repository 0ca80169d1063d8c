"""Project members through the REST API of the real app (issue 9): the owner adds members,
members read the list and may then write into the project; nobody else learns the project
exists. The project itself is created by `remember` through a real MCP client."""

from __future__ import annotations

from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.auth.principal import ALL_SCOPES, Scope
from shared.storage.sqlite import SqliteStorage
from tests.conftest import InProcessServer
from tests.e2e.helpers import call

pytestmark = pytest.mark.anyio

PROBLEM = "application/problem+json"
MEMBERS = "/api/projects/memory-os/mitglieder"
GITHUB_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def token(
    issuer: LocalTokenIssuer,
    nutzer: str,
    *,
    scopes: frozenset[str] = ALL_SCOPES,
    projects: tuple[str, ...] = (),
) -> dict[str, str]:
    value = issuer.issue(
        tenant="acme",
        subject=f"acme:{nutzer}",
        nutzer=(nutzer,),
        agents=("bot",),
        scopes=scopes,
        projects=projects,
        ttl_seconds=600,
    )
    return {"Authorization": f"Bearer {value}"}


def note(text: str) -> dict[str, Any]:
    return {"kurzbeschreibung": text, "memory": text, "pfad": "projects/memory-os/notizen"}


async def create_project(server: InProcessServer, issuer: LocalTokenIssuer) -> None:
    raw = token(issuer, "alice")["Authorization"].removeprefix("Bearer ")
    async with server.client(raw) as client:
        created = await call(
            client,
            "remember",
            {
                "content": "Use OAuth for hosted ChatGPT connections.",
                "path": "projects/memory-os/decisions",
                "create_project": True,
            },
        )
    assert created["erfolg"] is True, created


async def test_the_owner_adds_members_who_then_read_and_write_the_project(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    alice, bob = token(issuer, "alice"), token(issuer, "bob")
    # Given alice's project, created through MCP
    await create_project(server, issuer)
    async with server.http() as http:
        # Then bob, not a member, can neither write into it nor read its members
        refused = await http.post("/api/memory", json=note("von bob"), headers=bob)
        assert refused.status_code == 403, refused.text
        hidden = await http.get(MEMBERS, headers=bob)
        assert hidden.status_code == 404
        assert hidden.headers["content-type"] == PROBLEM
        # When alice, the owner, reads the members
        listed = await http.get(MEMBERS, headers=alice)
        assert listed.status_code == 200, listed.text
        assert listed.json()["eigentuemer"] == "alice"
        assert listed.json()["mitglieder"] == ["alice"]
        # When she adds bob and carla (and sends it twice: nothing changes)
        for _ in range(2):
            added = await http.post(MEMBERS, json={"mitglieder": ["bob", "carla"]}, headers=alice)
            assert added.status_code == 200, added.text
            assert added.json() == {
                **listed.json(),
                "mitglieder": ["alice", "bob", "carla"],
            }
        assert added.json()["bereich"] == "projects/memory-os"
        # Then bob reads the members and writes into the project
        assert (await http.get(MEMBERS, headers=bob)).json()["mitglieder"] == [
            "alice",
            "bob",
            "carla",
        ]
        stored = await http.post("/api/memory", json=note("von bob"), headers=bob)
        assert stored.status_code == 201, stored.text
        # And alice sees bob's memory in the project
        seen = await http.get("/api/memory?projekt=memory-os", headers=alice)
        assert seen.json()["eintraege"][0]["kurzbeschreibung"] == "von bob"
        # And bob, a member but not the owner, may not add members
        not_owner = await http.post(MEMBERS, json={"mitglieder": ["dora"]}, headers=bob)
        assert not_owner.status_code == 403


async def test_the_owner_removes_a_member_who_then_loses_access(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    alice, bob = token(issuer, "alice"), token(issuer, "bob")
    await create_project(server, issuer)
    async with server.http() as http:
        # Given bob and carla are members, and bob wrote into the project
        await http.post(MEMBERS, json={"mitglieder": ["bob", "carla"]}, headers=alice)
        assert (await http.post("/api/memory", json=note("von bob"), headers=bob)).is_success
        # When bob, not the owner, removes carla, and alice removes herself
        not_owner = await http.delete(f"{MEMBERS}/carla", headers=bob)
        herself = await http.delete(f"{MEMBERS}/alice", headers=alice)
        # Then both are refused and nothing changed
        assert (not_owner.status_code, herself.status_code) == (403, 422)
        assert herself.json()["fehler"][0]["feld"] == "mitglied"
        assert "Eigentümer" in herself.json()["detail"]
        # When alice removes bob (twice: nothing more happens)
        for _ in range(2):
            removed = await http.delete(f"{MEMBERS}/bob", headers=alice)
            assert removed.status_code == 200, removed.text
            assert removed.json()["mitglieder"] == ["alice", "carla"]
        # Then bob no longer reads the members nor writes into the project
        assert (await http.get(MEMBERS, headers=bob)).status_code == 404
        refused = await http.post("/api/memory", json=note("wieder bob"), headers=bob)
        assert refused.status_code == 403
        # And a member name that is no identity is refused with the field named
        broken = await http.delete(f"{MEMBERS}/{GITHUB_TOKEN}", headers=alice)
        assert broken.status_code == 422
        assert broken.json()["fehler"][0]["feld"] == "mitglied"


async def test_unknown_and_foreign_projects_get_the_same_answer(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    await create_project(server, issuer)
    bob = token(issuer, "bob")
    async with server.http() as http:
        # When bob adds members to alice's project and to one that does not exist
        foreign = await http.post(MEMBERS, json={"mitglieder": ["bob"]}, headers=bob)
        ghost = await http.post(
            "/api/projects/ghost/mitglieder", json={"mitglieder": ["bob"]}, headers=bob
        )
        # Then both are 403 with the same message (up to the name): no project name leaks
        assert (foreign.status_code, ghost.status_code) == (403, 403)
        assert foreign.json()["fehler"][0]["feld"] == "projekt"
        assert foreign.json()["detail"].replace("memory-os", "X") == ghost.json()["detail"].replace(
            "ghost", "X"
        )
        # And reading either is the same 404
        assert (await http.get(MEMBERS, headers=bob)).json()["detail"].replace(
            "memory-os", "X"
        ) == (await http.get("/api/projects/ghost/mitglieder", headers=bob)).json()[
            "detail"
        ].replace("ghost", "X")
        # And a member by token claim reads the list
        claimed = token(issuer, "erik", projects=("memory-os",))
        assert (await http.get(MEMBERS, headers=claimed)).status_code == 200


async def test_bad_member_requests_get_german_problems_and_change_nothing(
    server: InProcessServer, issuer: LocalTokenIssuer, sqlite_storage: SqliteStorage
) -> None:
    await create_project(server, issuer)
    alice = token(issuer, "alice")
    cases: list[tuple[Any, int, str, str]] = [
        ({"mitglieder": []}, 422, "mitglieder", "Mindestens 1"),
        ({"mitglieder": ["ok", "x\u0000y"]}, 422, "mitglieder[1]", "Steuerzeichen"),
        ({"mitglieder": [GITHUB_TOKEN]}, 422, "mitglieder[0]", "Geheimnis"),
        ({"mitglieder": ["x" * 201]}, 422, "mitglieder[0]", "Höchstens 200"),
        ({"mitglieder": [True]}, 422, "mitglieder[0]", "Zeichenkette oder Ganzzahl"),
        ({"mitglieder": ["b"] * 101}, 422, "mitglieder", "100"),
        ({}, 422, "mitglieder", "Pflichtfeld fehlt."),
        ({"mitglieder": ["b"], "rolle": "admin"}, 422, "rolle", "Unbekanntes Feld"),
        (["bob"], 422, "", "Objekt"),
    ]
    async with server.http() as http:
        for payload, status, field, text in cases:
            # When alice sends a bad request
            answer = await http.post(MEMBERS, json=payload, headers=alice)
            # Then it is refused with a German problem naming the field and the rule
            assert answer.status_code == status, (payload, answer.text)
            assert answer.headers["content-type"] == PROBLEM
            problem = answer.json()
            assert problem["fehler"][0]["feld"].startswith(field), (payload, problem)
            assert text in problem["fehler"][0]["meldung"], (payload, problem)
        # And not JSON, the wrong media type and a bad project name
        broken = await http.post(
            MEMBERS, content=b"{", headers={**alice, "Content-Type": "application/json"}
        )
        assert broken.status_code == 400
        form = await http.post(MEMBERS, data={"mitglieder": "bob"}, headers=alice)
        assert form.status_code == 415
        named = await http.post(
            "/api/projects/Memory OS/mitglieder", json={"mitglieder": ["bob"]}, headers=alice
        )
        assert named.status_code == 422
        assert named.json()["fehler"][0]["feld"] == "projekt"
        # And a read-only token may list but not add (403 with the scope challenge)
        reader = token(issuer, "alice", scopes=frozenset({Scope.MEMORY_READ.value}))
        assert (await http.get(MEMBERS, headers=reader)).status_code == 200
        scoped = await http.post(MEMBERS, json={"mitglieder": ["bob"]}, headers=reader)
        assert scoped.status_code == 403
        assert 'scope="memory:write"' in scoped.headers["www-authenticate"]
    # And the project still has alice alone
    project = sqlite_storage.get_project("acme", "memory-os")
    assert project is not None and project.members == frozenset({"alice"})
