"""GET /api/memory through the real app: filters, cursor paging under concurrent writes,
and the same visibility as the MCP tools."""

from __future__ import annotations

from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from tests.conftest import InProcessServer
from tests.e2e.test_rest_api import bearer, body, token

pytestmark = pytest.mark.anyio


async def list_all(http: Any, headers: dict[str, str], query: str) -> list[list[str]]:
    """Every page of a listing, following the cursor."""
    pages: list[list[str]] = []
    cursor = ""
    while True:
        answer = await http.get(f"/api/memory?{query}{cursor}", headers=headers)
        assert answer.status_code == 200, answer.text
        page = answer.json()
        assert page["anzahl"] == len(page["eintraege"])
        pages.append([memory["ID"] for memory in page["eintraege"]])
        if page["naechster_cursor"] is None:
            return pages
        cursor = f"&cursor={page['naechster_cursor']}"


async def test_pages_are_newest_first_and_stable_under_concurrent_writes(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    headers = bearer(token(issuer))
    async with server.http() as http:
        # Given seven memories
        for number in range(7):
            created = await http.post(
                "/api/memory", json=body(memory=f"Nr. {number}"), headers=headers
            )
            assert created.status_code == 201
        # When the listing is read three at a time while new memories arrive between pages
        first = (await http.get("/api/memory?limit=3", headers=headers)).json()
        await http.post("/api/memory", json=body(memory="neu 1"), headers=headers)
        cursor = first["naechster_cursor"]
        second = (await http.get(f"/api/memory?limit=3&cursor={cursor}", headers=headers)).json()
        await http.post("/api/memory", json=body(memory="neu 2"), headers=headers)
        await http.delete("/api/memory/longterm_1", headers=headers)
        cursor = second["naechster_cursor"]
        third = (await http.get(f"/api/memory?limit=3&cursor={cursor}", headers=headers)).json()
    # Then every memory that existed before comes exactly once, newest first, and the new
    # ones (and the deleted one) do not disturb the pages after the first
    seen = [m["ID"] for page in (first, second, third) for m in page["eintraege"]]
    assert seen == [f"longterm_{n}" for n in (7, 6, 5, 4, 3, 2)]
    assert third["naechster_cursor"] is None


async def test_filters_combine_and_each_narrows_the_listing(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    headers = bearer(token(issuer, teams=("support",)))
    async with server.http() as http:
        seeds = [
            body(memory="Rechnung an Kunde geschickt", tags=["rechnung"], quelle={"system": "crm"}),
            body(
                memory="Support-Handbuch aktualisiert",
                pfad="teams/support/handbuch",
                quelle={"system": "wiki", "art": "dokument"},
            ),
            body(memory="Kurz notiert: Rückruf morgen", bucket="kurzzeit", tags=["rückruf"]),
            body(memory="Team-Notiz zur Rechnung", pfad="teams/support", tags=["Rechnung"]),
        ]
        for seed in seeds:
            assert (await http.post("/api/memory", json=seed, headers=headers)).status_code == 201

        async def listed(query: str) -> list[str]:
            answer = await http.get(f"/api/memory?{query}", headers=headers)
            assert answer.status_code == 200, (query, answer.text)
            return [m["ID"] for m in answer.json()["eintraege"]]

        # Then each filter selects exactly its memories (newest first)
        assert await listed("") == ["longterm_3", "shortterm_1", "longterm_2", "longterm_1"]
        assert await listed("bucket=kurzzeit") == ["shortterm_1"]
        assert await listed("team=support") == ["longterm_3", "longterm_2"]
        assert await listed("pfad=teams/support/handbuch") == ["longterm_2"]
        assert await listed("pfad=users") == ["shortterm_1", "longterm_1"]
        assert await listed("quelle=crm") == ["longterm_1"]
        assert await listed("tag=rechnung") == ["longterm_3", "longterm_1"]
        assert await listed("tag=rechnung&team=support") == ["longterm_3"]
        assert await listed("q=Rechnungen") == ["longterm_3", "longterm_1"]
        assert await listed("q=Rechnung&quelle=crm") == ["longterm_1"]
        assert await listed("agent=support-agent&konto=acme-konto&geraet=laptop-7") == [
            "longterm_3",
            "shortterm_1",
            "longterm_2",
            "longterm_1",
        ]
        assert await listed("agent=someone-else") == []
        assert await listed("erstellt_ab=2999-01-01T00:00:00Z") == []
        assert await listed("erstellt_bis=2000-01-01T00:00:00Z") == []
        assert await listed("erstellt_ab=2000-01-01T00:00:00Z") != []
        assert await listed("projekt=unbekannt") == []


async def test_listing_sees_only_the_acting_nutzers_areas(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    anna = bearer(token(issuer))
    bert = bearer(token(issuer, nutzer=("43",)))
    async with server.http() as http:
        # Given a memory of each
        await http.post("/api/memory", json=body(memory="von Anna"), headers=anna)
        await http.post("/api/memory", json=body(memory="von Bert"), headers=bert)
        # When each lists
        annas = (await http.get("/api/memory", headers=anna)).json()["eintraege"]
        berts = (await http.get("/api/memory", headers=bert)).json()["eintraege"]
        # Then each sees only their own
        assert [m["memory"] for m in annas] == ["von Anna"]
        assert [m["memory"] for m in berts] == ["von Bert"]
        # And acting as a nutzer the token may not is refused
        refused = await http.get("/api/memory?nutzer=43", headers=anna)
        assert refused.status_code == 403


async def test_a_cursor_only_continues_its_own_listing(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    headers = bearer(token(issuer))
    async with server.http() as http:
        for number in range(3):
            await http.post("/api/memory", json=body(memory=f"Nr. {number}"), headers=headers)
        cursor = (await http.get("/api/memory?limit=1", headers=headers)).json()["naechster_cursor"]
        # When the cursor is reused with other filters, or forged
        for query in (f"limit=1&bucket=langzeit&cursor={cursor}", "cursor=abc", "cursor=e30"):
            answer = await http.get(f"/api/memory?{query}", headers=headers)
            # Then it is refused, naming the parameter
            assert answer.status_code == 422, (query, answer.text)
            assert answer.json()["fehler"][0]["feld"] == "cursor"
        # And bad filter values are German problems naming the parameter
        for query, field in (
            ("limit=101", "limit"),
            ("bucket=mittel", "bucket"),
            ("pfad=../x", "pfad"),
            ("erstellt_ab=gestern", "erstellt_ab"),
            ("team=Gro%C3%9F", "team"),
        ):
            answer = await http.get(f"/api/memory?{query}", headers=headers)
            assert answer.status_code == 422, (query, answer.text)
            assert answer.json()["fehler"][0]["feld"] == field, answer.json()
        # And a complete listing through the cursor has every memory once
        assert await list_all(http, headers, "limit=2") == [
            ["longterm_3", "longterm_2"],
            ["longterm_1"],
        ]
