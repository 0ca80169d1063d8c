"""The ledger through a real MCP client (fastmcp Client, in-process HTTP app): the README's
worked example, call by call, plus the 403 of a token without the tool's scope."""

from __future__ import annotations

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from tests.conftest import InProcessServer
from tests.contract.ledger_builders import ledger_args
from tests.e2e.helpers import call

pytestmark = pytest.mark.anyio


def token(issuer: LocalTokenIssuer, scopes: list[str]) -> str:
    return issuer.issue(
        tenant="local",
        subject="local:anna",
        nutzer=["anna"],
        agents=["buchhaltung-bot"],
        scopes=scopes,
        teams=["finanzen"],
        ttl_seconds=600,
        account="acme-konto",
        device="laptop-7",
    )


ledger = ledger_args


async def test_the_readme_worked_example(server: InProcessServer, issuer: LocalTokenIssuer) -> None:
    async with server.client(token(issuer, ["memory:read", "memory:write"])) as client:
        # Given the tool is listed with its schema
        tools = {tool.name: tool for tool in await client.list_tools()}
        assert "aktion" in tools["ledger"].inputSchema["properties"]["inhalt"]["properties"]
        # When two bookings are made, one of them a reminder with an IBAN
        booked = await call(
            client,
            "ledger",
            ledger(
                "buchen",
                eintraege=[
                    {
                        "art": "ausgabe",
                        "betrag": "49.90",
                        "waehrung": "EUR",
                        "datum": "2026-11-28",
                        "gegenpartei": "Hetzner Online GmbH",
                        "kategorie": "infrastruktur",
                        "beschreibung": "Server November",
                        "path": "teams/finanzen/kosten",
                    },
                    {
                        "art": "ausgabe",
                        "betrag": "1200.00",
                        "waehrung": "EUR",
                        "datum": "2026-11-30",
                        "gegenpartei": "Vermieter",
                        "kategorie": "miete",
                        "path": "teams/finanzen",
                        "faellig_am": "2026-12-03",
                        "iban": "DE89 3704 0044 0532 0130 00",
                    },
                ],
            ),
        )
        assert [(r["ID"], r["wirkung"], r["monat"]) for r in booked["daten"]] == [
            (1, "-49.90", "2026-11"),
            (2, "-1200.00", "2026-11"),
        ]
        # And the first is reversed and the reminder paid
        storno = await call(
            client, "ledger", ledger("storno", eintraege=[{"ID": 1, "grund": "doppelt gebucht"}])
        )
        assert (
            storno["daten"][0] | {"ID": 3, "storno_von": 1, "wirkung": "49.90"}
            == storno["daten"][0]
        )
        paid = await call(
            client, "ledger", ledger("bezahlen", eintraege=[{"ID": 2, "bezahlt_am": "2026-12-02"}])
        )
        assert (paid["daten"][0]["ID"], paid["daten"][0]["bezahlt"]) == (4, 2)
        assert paid["daten"][0]["bezahlt_von"] == "anna"
        # Then November sums to the rent alone, from the running totals
        daten = (
            await call(
                client,
                "ledger",
                ledger(
                    "abfragen",
                    path="teams/finanzen",
                    von="2026-11-01",
                    bis="2026-11-30",
                    faellig_bis="2026-12-31",
                ),
            )
        )["daten"]
        (summe,) = daten["summen"]
        assert (summe["saldo"], summe["ausgaben"], summe["anzahl"]) == ("-1200.00", "-1200.00", 1)
        assert daten["summen_quelle"] == "laufende_summen"
        by_id = {e["ID"]: e for e in daten["eintraege"]}
        assert [e["ID"] for e in daten["eintraege"]] == [4, 2, 3, 1]
        assert by_id[1]["storniert_durch"] == 3
        assert (by_id[2]["status"], by_id[2]["bezahlt_durch"]) == ("bezahlt", 4)
        assert by_id[2]["iban"] == "******************3000"
        assert (by_id[2]["konto"], by_id[2]["geraet"]) == ("acme-konto", "laptop-7")
        assert daten["offene_erinnerungen"] == []


async def test_a_read_only_token_queries_but_booking_is_403(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    read_only = token(issuer, ["memory:read"])
    async with server.client(read_only) as client:
        queried = await call(client, "ledger", ledger("abfragen"))
        assert queried["erfolg"] is True
    # A writing action needs memory:write: the HTTP layer answers 403 before any tool runs
    async with server.http() as http:
        response = await http.post(
            "/mcp",
            json={
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "ledger", "arguments": ledger("storno", eintraege=[{"ID": 1}])},
            },
            headers={
                "Authorization": f"Bearer {read_only}",
                "Accept": "application/json, text/event-stream",
            },
        )
    assert response.status_code == 403
    assert response.json()["scope"] == "memory:write"
