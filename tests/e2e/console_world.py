"""The data the console browser tests work on (test_console_browser.py): one tenant with
two people, their memories, a project, bookings — stored through the running server."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from shared.auth.local_tokens import LocalTokenIssuer, load_or_create_key
from tests.e2e.test_local_server import RunningServer

SCOPES = ("memory:read", "memory:write", "brain:read", "brain:write")


@dataclass
class World:
    server: RunningServer
    base: str  # http://127.0.0.1:<port>
    alice: str  # tokens
    bob: str
    ids: dict[str, str]

    def console(self, path: str = "/") -> str:
        return f"{self.base}/console{path}"


def rest(world_base: str, token: str, method: str, path: str, body: Any = None) -> Any:
    request = urllib.request.Request(
        world_base + path,
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read()
    return json.loads(text) if text else None


async def tools(url: str, token: str, calls: list[tuple[str, dict[str, Any]]]) -> None:
    async with Client(StreamableHttpTransport(url, auth=token)) as client:
        for name, arguments in calls:
            result = await client.call_tool(name, arguments)
            assert result.structured_content["erfolg"], result.structured_content


def seed(server: RunningServer, data_dir: Path) -> World:
    issuer = LocalTokenIssuer(load_or_create_key(data_dir))

    def mint(nutzer: str, teams: tuple[str, ...]) -> str:
        return issuer.issue(
            tenant="local",
            subject=f"local:{nutzer}",
            nutzer=[nutzer],
            agents=["support-bot"],
            scopes=SCOPES,
            teams=teams,
            account="acme",
            device="laptop-7",
            ttl_seconds=3600,
        )

    alice, bob = mint("alice", ("support",)), mint("bob", ("vertrieb",))
    base = server.url.removesuffix("/mcp")

    def memory(token: str, text: str, **extra: Any) -> str:
        body = {"kurzbeschreibung": text.split(".")[0], "memory": text, **extra}
        created: dict[str, Any] = rest(base, token, "POST", "/api/memory", body)
        return str(created["ID"])

    ids = {
        "rueckruf": memory(
            alice,
            "Rückruf nur vormittags. Kundin K-1001 möchte zwischen 9 und 12 Uhr angerufen werden.",
            tags=["kunde", "telefon"],
            scope="kunde",
            scope_vk="K-1001",
            quelle={"system": "crm", "art": "konversation", "referenz": "ticket-4711"},
        ),
        "hotline": memory(
            alice,
            "Rückruf über die Hotline. Eskalationen gehen an die Rufbereitschaft.",
            pfad="teams/support/prozesse",
            tags=["prozess"],
        ),
        "loeschen": memory(alice, "Veraltete Notiz zum Rückruf. Bitte entfernen.", tags=["alt"]),
        # three notes alike on purpose (near-duplicates by words): stored as copies
        **{
            f"alt{n}": memory(
                alice,
                f"Alte Testnotiz {word}. Aufräumen.",
                tags=["testlauf"],
                duplikat_erlaubt=True,
            )
            for n, word in ((1, "eins"), (2, "zwei"), (3, "drei"))
        },
        "bobs": memory(bob, "Rückruf bei Bobs Kunden. Nur für Bob.", tags=["kunde"]),
    }
    rating = {
        "inhalt": {
            "nutzer": "alice",
            "agent": "support-bot",
            "memories": [
                {
                    "typ": "longterm",
                    "parameter": {
                        "memory_ID": ids["rueckruf"],
                        "agent": "support-bot",
                        "score": score,
                    },
                }
                for score in (9, 7)
            ],
        }
    }
    brain = {
        "inhalt": {
            "nutzer": "alice",
            "agent": "support-bot",
            "eintraege": [
                {
                    "titel": "Beispiel GmbH",
                    "inhalt": "Maschinenbauer aus Stuttgart; Ansprechpartnerin Frau Roth.",
                    "vk_typ": "kunde",
                    "vk_referenz_id": "K-1001",
                }
            ],
        }
    }
    project = {
        "content": "Projektstart: OAuth für Verbindungen.",
        "path": "projects/memory-os/start",
        "create_project": True,
    }
    bobs_project = {**project, "path": "projects/bobs-projekt/start"}
    calls = [("rate_brain_memories", rating), ("upsert_brain", brain), ("remember", project)]
    asyncio.run(tools(server.url, alice, calls))
    asyncio.run(tools(server.url, bob, [("remember", bobs_project)]))
    bookings = {
        "eintraege": [
            {
                "art": "ausgabe",
                "betrag": "49.90",
                "waehrung": "EUR",
                "datum": "2026-11-28",
                "gegenpartei": "Hetzner Online GmbH",
                "kategorie": "infrastruktur",
                "beschreibung": "Server November",
                "path": "teams/support/kosten",
            },
            {
                "art": "ausgabe",
                "betrag": "1200.00",
                "waehrung": "EUR",
                "datum": "2026-11-30",
                "gegenpartei": "Vermieter",
                "kategorie": "miete",
                "beschreibung": "Miete Dezember",
                "path": "users/alice",
                "faellig_am": "2026-12-03",
            },
        ]
    }
    rest(base, alice, "POST", "/api/ledger/buchungen", bookings)
    return World(server, base, alice, bob, ids)
