"""The ledger through the REST API of the real app (issue 14): the README's worked example as
REST calls, the same ledger as the MCP tool, retries that book nothing twice, the tool's
scopes per action, areas and project membership, German problems with REST field paths."""

from __future__ import annotations

from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.auth.principal import Scope
from tests.conftest import InProcessServer
from tests.contract.ledger_builders import ledger_args
from tests.e2e.helpers import call

pytestmark = pytest.mark.anyio

PROBLEM = "application/problem+json"
RW = frozenset({Scope.MEMORY_READ.value, Scope.MEMORY_WRITE.value})


def token(
    issuer: LocalTokenIssuer, nutzer: str = "anna", scopes: frozenset[str] = RW
) -> dict[str, str]:
    value = issuer.issue(
        tenant="local",
        subject=f"local:{nutzer}",
        nutzer=[nutzer],
        agents=["buchhaltung-bot"],
        scopes=scopes,
        teams=["finanzen"],
        ttl_seconds=600,
        account="acme-konto",
        device="laptop-7",
    )
    return {"Authorization": f"Bearer {value}"}


def booking(**overrides: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "art": "ausgabe",
        "betrag": "49.90",
        "waehrung": "EUR",
        "datum": "2026-11-28",
        "gegenpartei": "Hetzner Online GmbH",
        "kategorie": "infrastruktur",
        "beschreibung": "Server November",
        "path": "teams/finanzen/kosten",
    }
    entry.update(overrides)
    return entry


RENT = booking(
    betrag="1200.00",
    datum="2026-11-30",
    gegenpartei="Vermieter",
    kategorie="miete",
    path="teams/finanzen",
    faellig_am="2026-12-03",
    iban="DE89 3704 0044 0532 0130 00",
)
QUERY = "/api/ledger?path=teams/finanzen&von=2026-11-01&bis=2026-11-30&faellig_bis=2026-12-31"


async def test_the_readme_worked_example_over_rest_matches_the_tool(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    anna = token(issuer)
    async with server.http() as http:
        # When two bookings are made, one a reminder with an IBAN
        booked = await http.post(
            "/api/ledger/buchungen",
            json={"eintraege": [booking(), RENT], "referenzfelder": {"beleg": "RE-1"}},
            headers=anna,
        )
        # Then both are booked with exact signed amounts
        assert booked.status_code == 201, booked.text
        answer = booked.json()
        assert [(r["ID"], r["wirkung"], r["monat"]) for r in answer["ergebnisse"]] == [
            (1, "-49.90", "2026-11"),
            (2, "-1200.00", "2026-11"),
        ]
        assert answer["referenzfelder"] == {"beleg": "RE-1"}
        # When the first is reversed and the reminder paid
        storno = await http.post(
            "/api/ledger/stornos", json={"eintraege": [{"ID": 1, "grund": "doppelt"}]}, headers=anna
        )
        paid = await http.post(
            "/api/ledger/zahlungen",
            json={"eintraege": [{"ID": 2, "bezahlt_am": "2026-12-02"}]},
            headers=anna,
        )
        assert (storno.status_code, paid.status_code) == (201, 201), paid.text
        assert (
            storno.json()["ergebnisse"][0] | {"ID": 3, "storno_von": 1}
            == storno.json()["ergebnisse"][0]
        )
        assert paid.json()["ergebnisse"][0]["bezahlt_von"] == "anna"
        # Then the query answers exact sums from the running totals, the records newest first
        queried = await http.get(QUERY, headers=anna)
        assert queried.status_code == 200, queried.text
        daten = queried.json()
        assert daten["summen"][0]["saldo"] == "-1200.00"
        assert daten["summen_quelle"] == "laufende_summen"
        assert [e["ID"] for e in daten["eintraege"]] == [4, 2, 3, 1]  # by date, then ID
        rent = daten["eintraege"][1]
        assert (rent["ID"], rent["status"], rent["bezahlt_durch"]) == (2, "bezahlt", 4)
        assert rent["iban"].endswith("3000") and "3704" not in rent["iban"]
        assert daten["offene_erinnerungen"] == []
    # And the MCP tool answers exactly the same query with the same data
    raw = anna["Authorization"].removeprefix("Bearer ")
    async with server.client(raw) as client:
        tool = await call(
            client,
            "ledger",
            ledger_args(
                "abfragen",
                path="teams/finanzen",
                von="2026-11-01",
                bis="2026-11-30",
                faellig_bis="2026-12-31",
            ),
        )
    assert tool["daten"] == daten


async def test_a_resend_books_nothing_twice(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    anna = token(issuer)
    async with server.http() as http:
        # When the same body is sent twice, and another one twice with an Idempotency-Key
        plain = [
            await http.post("/api/ledger/buchungen", json={"eintraege": [booking()]}, headers=anna)
            for _ in range(2)
        ]
        keyed = [
            await http.post(
                "/api/ledger/buchungen",
                json={"eintraege": [booking(betrag="10.00")]},
                headers={**anna, "Idempotency-Key": "zahlung-4711"},
            )
            for _ in range(2)
        ]
        # Then each pair got the first answer
        assert plain[0].json() == plain[1].json()
        assert keyed[0].json() == keyed[1].json()
        assert [r.status_code for r in plain + keyed] == [201] * 4
        # And two entries were booked, not four
        listed = (await http.get("/api/ledger?path=teams/finanzen", headers=anna)).json()
        assert sorted(e["betrag"] for e in listed["eintraege"]) == ["10.00", "49.90"]


async def test_scopes_are_the_tools_per_action(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    reader = token(issuer, scopes=frozenset({Scope.MEMORY_READ.value}))
    writer = token(issuer, scopes=frozenset({Scope.MEMORY_WRITE.value}))
    async with server.http() as http:
        # A read-only token queries but may not book, reverse or pay
        assert (await http.get("/api/ledger", headers=reader)).status_code == 200
        for resource in ("buchungen", "stornos", "zahlungen"):
            refused = await http.post(
                f"/api/ledger/{resource}", json={"eintraege": [booking()]}, headers=reader
            )
            assert refused.status_code == 403, resource
            assert 'scope="memory:write"' in refused.headers["www-authenticate"]
        # A write-only token books but may not query
        queried = await http.get("/api/ledger", headers=writer)
        assert queried.status_code == 403
        assert 'scope="memory:read"' in queried.headers["www-authenticate"]
        # And without a token: 401
        assert (await http.get("/api/ledger")).status_code == 401


async def test_areas_and_project_membership_apply(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    anna, bob = token(issuer), token(issuer, "bob")
    project = booking(path="projects/kasse/belege")
    async with server.http() as http:
        # When anna books into a new project with create_project, she owns it
        created = await http.post(
            "/api/ledger/buchungen",
            json={"eintraege": [{**project, "create_project": True}]},
            headers=anna,
        )
        assert created.status_code == 201, created.text
        # Then bob, no member, is refused: nothing booked, the field named
        refused = await http.post(
            "/api/ledger/buchungen", json={"eintraege": [project]}, headers=bob
        )
        assert refused.status_code == 403
        assert refused.headers["content-type"] == PROBLEM
        assert refused.json()["fehler"][0]["feld"] == "eintraege[0].path"
        # And bob does not see anna's booking, nor can he reverse it
        hidden = (await http.get("/api/ledger?path=projects/kasse", headers=bob)).json()
        assert hidden["eintraege"] == []
        storno = await http.post(
            "/api/ledger/stornos", json={"eintraege": [{"ID": 1}]}, headers=bob
        )
        assert storno.status_code == 404
        assert storno.json()["fehler"][0]["feld"] == "eintraege[0].ID"
        # When anna adds bob to the project over REST, he books there and sees both
        added = await http.post(
            "/api/projects/kasse/mitglieder", json={"mitglieder": ["bob"]}, headers=anna
        )
        assert added.status_code == 200, added.text
        again = await http.post("/api/ledger/buchungen", json={"eintraege": [project]}, headers=bob)
        assert again.status_code == 201, again.text
        seen = (await http.get("/api/ledger?path=projects/kasse", headers=bob)).json()
        assert [e["nutzer"] for e in seen["eintraege"]] == ["bob", "anna"]


async def test_bad_requests_get_german_problems_with_rest_field_paths(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    anna = token(issuer)
    writes: list[tuple[str, Any, int, str, str]] = [
        ("buchungen", [booking()], 422, "", "Objekt"),
        ("buchungen", {}, 422, "eintraege", "Pflichtfeld fehlt."),
        ("buchungen", {"eintraege": [booking()], "aktion": "x"}, 422, "aktion", "Unbekannt"),
        ("buchungen", {"eintraege": []}, 422, "eintraege", "Mindestens 1"),
        ("buchungen", {"eintraege": [booking()] * 101}, 422, "eintraege", "100"),
        ("buchungen", {"eintraege": [booking(betrag=49.9)]}, 422, "eintraege[0].betrag", ""),
        ("buchungen", {"eintraege": [booking(waehrung="EUX")]}, 422, "eintraege[0].waehrung", ""),
        ("buchungen", {"eintraege": [booking(path="users/../x")]}, 422, "eintraege[0].path", ""),
        ("buchungen", {"eintraege": [booking(path="users/x")]}, 403, "eintraege[0].path", ""),
        ("stornos", {"eintraege": [{"ID": 99}]}, 404, "eintraege[0].ID", "nicht_gefunden"),
        ("zahlungen", {"eintraege": [{"ID": "1"}]}, 422, "eintraege[0].ID", "Ganzzahl"),
    ]
    async with server.http() as http:
        for resource, payload, status, field, text in writes:
            answer = await http.post(f"/api/ledger/{resource}", json=payload, headers=anna)
            assert answer.status_code == status, (payload, answer.text)
            assert answer.headers["content-type"] == PROBLEM
            error = answer.json()["fehler"][0]
            assert error["feld"] == field, (payload, error)
            assert text in error["meldung"], (payload, error)
        # Text that is no Unicode (a JSON-escaped lone surrogate) is not JSON: 400, for every
        # REST resource (it used to reach the idempotency digest and answer 500)
        for resource in ("/api/ledger/buchungen", "/api/memory", "/api/projects/x/mitglieder"):
            broken = await http.post(
                resource,
                content=b'{"eintraege": [{"\\ud800": 1}]}',
                headers={**anna, "Content-Type": "application/json"},
            )
            assert broken.status_code == 400, (resource, broken.text)
            assert broken.json()["detail"] == "Der Rumpf ist kein gültiges JSON (UTF-8)."
        # A partly valid batch books the valid entry: 200 with per-entry results
        partial = await http.post(
            "/api/ledger/buchungen",
            json={"eintraege": [booking(), booking(betrag="1,50")]},
            headers=anna,
        )
        assert partial.status_code == 200, partial.text
        result = partial.json()
        assert (result["erfolg"], result["anzahl_erfolgreich"]) == (False, 1)
        assert result["ergebnisse"][1]["fehler"][0]["feld"] == "eintraege[1].betrag"
        # Query parameters are checked by the tool's rules, named by parameter
        for query, field in (
            ("von=30.11.2026", "von"),
            ("von=2026-12-01&bis=2026-11-01", "bis"),
            ("status=egal", "status"),
            ("limit=0", "limit"),
            ("path=elsewhere/x", "path"),
        ):
            answer = await http.get(f"/api/ledger?{query}", headers=anna)
            assert answer.status_code == 422, (query, answer.text)
            assert answer.json()["fehler"][0]["feld"] == field, (query, answer.text)
        # And nothing but the one valid entry was booked
        listed = (await http.get("/api/ledger", headers=anna)).json()
        assert [e["ID"] for e in listed["eintraege"]] == [1]


async def test_rest_runs_the_ledger_service_not_the_tool(
    server: InProcessServer, issuer: LocalTokenIssuer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """REST calls the ledger service itself: with no MCP tool to dispatch to, the REST
    ledger still books, refuses, replays and queries as before (same order of checks)."""
    monkeypatch.setattr("shared.tools.dispatch.TOOLS", {})
    anna = token(issuer)
    async with server.http() as http:
        # When a booking is sent twice under one key
        sent = [
            await http.post(
                "/api/ledger/buchungen",
                json={"eintraege": [booking()]},
                headers={**anna, "Idempotency-Key": "beleg-7"},
            )
            for _ in range(2)
        ]
        # Then it is booked once, the resend answers the same
        assert [s.status_code for s in sent] == [201, 201], sent[0].text
        assert sent[0].json() == sent[1].json()
        # And a refusal keeps its kind: an entry nobody may see is not found (404)
        missing = await http.post(
            "/api/ledger/stornos", json={"eintraege": [{"ID": 999, "grund": "x"}]}, headers=anna
        )
        assert missing.status_code == 404, missing.text
        assert missing.json()["fehler"][0]["art"] == "nicht_gefunden"
        # And the query reads the one booking
        queried = await http.get("/api/ledger?path=teams/finanzen", headers=anna)
        assert queried.status_code == 200, queried.text
        assert [e["ID"] for e in queried.json()["eintraege"]] == [1]
