"""The REST additions the console is built on, through the real app: who is calling, teams,
one's projects, the ranked search with filters, a memory's rating log and linked brain
entries, and bulk delete after a preview — each with the visibility rule of the tools
(what a call may not read answers exactly like what does not exist)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.config import Settings
from shared.embedding.hashed import HashedEmbedder
from shared.storage.sqlite import SqliteStorage
from tests.conftest import InProcessServer, running_app
from tests.e2e.helpers import brain_entry, call, rate_args, upsert_args
from tests.e2e.test_rest_api import bearer, body, token

pytestmark = pytest.mark.anyio


def other(issuer: LocalTokenIssuer) -> dict[str, str]:
    return bearer(token(issuer, nutzer=("43",), teams=("vertrieb",)))


async def create(http: Any, headers: dict[str, str], **fields: Any) -> str:
    fields.setdefault("kurzbeschreibung", fields.get("memory", "Notiz"))
    created = await http.post("/api/memory", json=body(**fields), headers=headers)
    assert created.status_code == 201, created.text
    identifier: str = created.json()["ID"]
    return identifier


async def test_identity_and_teams_come_from_the_token_and_other_teams_are_not_found(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    headers = bearer(token(issuer, teams=("support", "core")))
    async with server.http() as http:
        # When the caller asks who it is
        me = await http.get("/api/identitaet", headers=headers)
        assert me.status_code == 200, me.text
        # Then it acts as its one nutzer, with the token's teams and readable areas
        assert me.json()["nutzer"] == "42"
        assert me.json()["teams"] == ["core", "support"]
        assert me.json()["bereiche"] == ["teams/core", "teams/support", "users/42"]
        # And its teams are listed; a team it is not in answers like one that does not exist
        teams = (await http.get("/api/teams", headers=headers)).json()
        assert [t["team"] for t in teams["teams"]] == ["core", "support"]
        assert (await http.get("/api/teams/support", headers=headers)).status_code == 200
        foreign = await http.get("/api/teams/vertrieb", headers=headers)
        missing = await http.get("/api/teams/gibtsnicht", headers=headers)
        assert foreign.status_code == missing.status_code == 404
        assert foreign.json()["fehler"][0]["meldung"].replace("vertrieb", "X") == missing.json()[
            "fehler"
        ][0]["meldung"].replace("gibtsnicht", "X")


async def test_projects_list_only_the_callers_projects_with_owner_and_members(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    alice = bearer(token(issuer, nutzer=("alice",)))
    bob = bearer(token(issuer, nutzer=("bob",)))
    async with server.http() as http:
        # Given alice's project (created by her first write into it), with bob added
        async with server.client(alice["Authorization"].removeprefix("Bearer ")) as client:
            made = await call(
                client,
                "remember",
                {"content": "Projektstart.", "path": "projects/os/x", "create_project": True},
            )
            assert made["erfolg"], made
        assert (await http.get("/api/projects", headers=bob)).json()["projekte"] == []
        added = await http.post(
            "/api/projects/os/mitglieder", json={"mitglieder": ["bob"]}, headers=alice
        )
        assert added.status_code == 200, added.text
        # When both list their projects
        mine = (await http.get("/api/projects", headers=alice)).json()
        bobs = (await http.get("/api/projects", headers=bob)).json()
    # Then both see the project with its owner and members
    assert [(p["projekt"], p["eigentuemer"], p["mitglieder"]) for p in mine["projekte"]] == [
        ("os", "alice", ["alice", "bob"])
    ]
    assert bobs["projekte"] == mine["projekte"]


async def test_search_ranks_filters_pages_and_names_what_found_each_hit(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    headers = bearer(token(issuer, teams=("support",)))
    async with server.http() as http:
        # Given memories about callbacks in the own and the team area, and one of another
        own = await create(http, headers, memory="Rückruf am Vormittag bei K-1.", tags=["a"])
        team = await create(
            http, headers, memory="Rückruf über die Hotline.", pfad="teams/support/prozesse"
        )
        await create(http, headers, memory="Lieferung am Montag.")
        hidden = await create(http, other(issuer), memory="Rückruf von nutzer 43.")
        # When the caller searches without filters
        found = await http.get("/api/memory/suche", params={"q": "Rückruf"}, headers=headers)
        assert found.status_code == 200, found.text
        hits = found.json()["treffer"]
        # Then both readable callbacks are found by their words, the other's is not
        assert {h["ID"] for h in hits} == {own, team}
        assert {tuple(h["treffer_durch"]) for h in hits} == {("woerter",)}
        assert {h["bereich"] for h in hits} == {"users/42", "teams/support"}
        assert hidden not in {h["ID"] for h in hits}
        # And each filter narrows the ranking
        by_team = await http.get(
            "/api/memory/suche", params={"q": "Rückruf", "team": "support"}, headers=headers
        )
        assert [h["ID"] for h in by_team.json()["treffer"]] == [team]
        by_tag = await http.get(
            "/api/memory/suche", params={"q": "Rückruf", "tag": "a"}, headers=headers
        )
        assert [h["ID"] for h in by_tag.json()["treffer"]] == [own]
        # And pages follow the cursor without repeats
        first = (
            await http.get(
                "/api/memory/suche", params={"q": "Rückruf", "limit": 1}, headers=headers
            )
        ).json()
        cursor = first["naechster_cursor"]
        second = (
            await http.get(
                "/api/memory/suche",
                params={"q": "Rückruf", "limit": 1, "cursor": cursor},
                headers=headers,
            )
        ).json()
        assert {first["treffer"][0]["ID"], second["treffer"][0]["ID"]} == {own, team}
        assert second["naechster_cursor"] is None
        # And a cursor of another query, or no query at all, is refused with a German reason
        other_query = await http.get(
            "/api/memory/suche", params={"q": "Lieferung", "cursor": cursor}, headers=headers
        )
        assert other_query.status_code == 422
        assert other_query.json()["fehler"][0]["feld"] == "cursor"
        no_query = await http.get("/api/memory/suche", headers=headers)
        assert no_query.status_code == 422
        assert no_query.json()["fehler"][0]["feld"] == "q"


@pytest.fixture
async def embedding_server(
    settings: Settings, sqlite_storage: SqliteStorage, issuer: LocalTokenIssuer
) -> AsyncIterator[InProcessServer]:
    async with running_app(sqlite_storage, settings, issuer, HashedEmbedder()) as running:
        yield running


async def test_with_an_embedder_the_search_finds_by_vectors_too(
    embedding_server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    headers = bearer(token(issuer))
    async with embedding_server.http() as http:
        # Given a memory embedded by the server
        stored = await create(http, headers, memory="Rückruf am Vormittag.")
        # When it is searched by its words
        found = await http.get("/api/memory/suche", params={"q": "Rückruf"}, headers=headers)
    # Then the words and the server's vector found it
    (hit,) = found.json()["treffer"]
    assert hit["ID"] == stored
    assert hit["treffer_durch"] == ["woerter", "vektor"]


async def test_the_rating_log_and_linked_brain_entries_of_a_memory(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    value = token(issuer)
    headers = bearer(value)
    async with server.http() as http:
        # Given a memory about customer K-1001, rated twice, and a brain entry about K-1001
        memory_id = await create(http, headers)
        async with server.client(value) as client:
            rated = await call(client, "rate_brain_memories", rate_args((memory_id, 9)))
            assert rated["erfolg"], rated
            rated = await call(client, "rate_brain_memories", rate_args((memory_id, 4)))
            assert rated["erfolg"], rated
            upserted = await call(client, "upsert_brain", upsert_args(brain_entry()))
            assert upserted["erfolg"], upserted
        # When the memory's ratings and links are read
        log = await http.get(f"/api/memory/{memory_id}/bewertungen", headers=headers)
        linked = await http.get(f"/api/memory/{memory_id}/brain", headers=headers)
        # Then the log lists both ratings, newest first, beside the running average
        assert log.status_code == 200, log.text
        assert [r["score"] for r in log.json()["bewertungen"]] == [4, 9]
        assert (log.json()["score_avg"], log.json()["score_count"]) == (6.5, 2)
        assert log.json()["last_call"] is not None
        # And the brain entry about the same customer is linked
        assert linked.status_code == 200, linked.text
        assert [e["titel"] for e in linked.json()["eintraege"]] == ["Beispiel GmbH"]
        # And for another nutzer both answer like a memory that does not exist
        for path in (f"/api/memory/{memory_id}/bewertungen", f"/api/memory/{memory_id}/brain"):
            refused = await http.get(path, headers=other(issuer))
            missing = await http.get(path.replace(memory_id, "longterm_999"), headers=headers)
            assert refused.status_code == missing.status_code == 404
        # And the links need the brain:read scope
        narrow = bearer(token(issuer, scopes=frozenset({"memory:read"})))
        assert (await http.get(f"/api/memory/{memory_id}/brain", headers=narrow)).status_code == 403


async def test_bulk_delete_removes_exactly_the_previewed_memories_once(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    headers = bearer(token(issuer))
    async with server.http() as http:
        # Given three memories tagged "alt" and one that is not
        old = [await create(http, headers, memory=f"Alt {n}", tags=["alt"]) for n in range(3)]
        kept = await create(http, headers, memory="Bleibt", tags=["neu"])
        foreign = await create(http, other(issuer), memory="Fremd", tags=["alt"])
        # When the deletion of everything tagged "alt" is previewed
        preview = await http.get("/api/memory/loeschvorschau?tag=alt", headers=headers)
        assert preview.status_code == 200, preview.text
        # Then it names how many and which: the caller's three, newest first
        assert (preview.json()["anzahl"], preview.json()["anzahl_genau"]) == (3, True)
        assert preview.json()["ids"] == old[::-1]
        # When a new "alt" memory arrives after the preview and the previewed IDs are deleted
        late = await create(http, headers, memory="Alt spät", tags=["alt"])
        ids = [*preview.json()["ids"], foreign]
        deleted = await http.post("/api/memory/loeschungen", json={"ids": ids}, headers=headers)
        assert deleted.status_code == 200, deleted.text
        # Then exactly the previewed ones are gone; the other's memory is "not found"
        assert sorted(deleted.json()["geloescht"]) == sorted(old)
        assert deleted.json()["nicht_gefunden"] == [foreign]
        # And a resend answers the same without deleting anything else
        again = await http.post("/api/memory/loeschungen", json={"ids": ids}, headers=headers)
        assert again.json() == deleted.json()
        # And the listing and the search no longer find them; the late one and the rest stay
        left = (await http.get("/api/memory?tag=alt", headers=headers)).json()
        assert [m["ID"] for m in left["eintraege"]] == [late]
        found = await http.get("/api/memory/suche", params={"q": "Alt"}, headers=headers)
        assert [h["ID"] for h in found.json()["treffer"]] == [late]
        assert (await http.get(f"/api/memory/{kept}", headers=headers)).status_code == 200
        assert (await http.get(f"/api/memory/{foreign}", headers=other(issuer))).status_code == 200
        # And bad bodies get German field errors
        empty = await http.post("/api/memory/loeschungen", json={"ids": []}, headers=headers)
        bad = await http.post("/api/memory/loeschungen", json={"ids": ["x"]}, headers=headers)
        assert empty.status_code == bad.status_code == 422
        assert bad.json()["fehler"][0]["feld"] == "ids[0]"
