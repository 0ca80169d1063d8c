"""update / delete and the Memory OS tools through a real MCP client (in-process HTTP app)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.services.context import utc_now
from shared.services.expiry import sweep_expired
from shared.storage.sqlite import SqliteStorage
from tests.conftest import InProcessServer
from tests.e2e.helpers import (
    brain_entry,
    call,
    fetch_args,
    insert_args,
    memory_entry,
    rate_args,
    upsert_args,
)

pytestmark = pytest.mark.anyio


def update_args(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"inhalt": {"memories": list(entries), "nutzer": 42, "agent": "support-agent"}}


def token_for(issuer: LocalTokenIssuer, nutzer: str, **extra: Any) -> str:
    return issuer.issue(
        tenant="local",
        subject=f"local:{nutzer}",
        nutzer=[nutzer],
        agents=["bot"],
        scopes=["memory:read", "memory:write", "brain:read", "brain:write"],
        ttl_seconds=600,
        account="acme-konto",
        device="laptop-7",
        **extra,
    )


async def test_update_changes_fields_keeps_ratings_and_reindexes(
    server: InProcessServer, dev_token: str, issuer: LocalTokenIssuer
) -> None:
    async with server.client(dev_token) as client:
        # Given a rated memory with an embedding
        await call(
            client,
            "insert_brain_longterm_memory",
            insert_args(memory_entry(embedding=[1.0, 2.0], embedding_profil_hash="p1")),
        )
        await call(client, "rate_brain_memories", rate_args(("longterm_1", 8)))
        # When its text changes, tags are removed (null) and the embedding removed (null)
        updated = await call(
            client,
            "update_brain_memories",
            update_args(
                {
                    "ID": "longterm_1",
                    "memory": "Rückrufe jetzt nur donnerstags.",
                    "tags": None,
                    "embedding": None,
                },
                {"ID": "longterm_9", "memory": "gibt es nicht"},
                {"ID": "longterm_1", "kurzbeschreibung": "zweimal"},
            ),
        )
        # Then the first entry succeeds, the unknown ID and the duplicate fail alone
        assert [e["erfolg"] for e in updated["daten"]] == [True, False, False]
        assert "nicht_gefunden" in updated["daten"][1]["fehler"][0]["meldung"]
        assert "Doppelte ID" in updated["daten"][2]["fehler"][0]["meldung"]
        fetched = await call(client, "fetch_brain_memories", fetch_args(longterm=["longterm_1"]))
        memory = fetched["daten"]["longterm"][0]
        assert memory["memory"] == "Rückrufe jetzt nur donnerstags."
        assert memory["kurzbeschreibung"] == "Rückruf am Vormittag"
        assert memory["tags"] == []
        assert "embedding_dim" not in memory and "embedding_profil_hash" not in memory
        assert (memory["score_count"], memory["score_avg"]) == (1, 8)
    # And search (acting as nutzer 42, whose area holds the memory) finds the new text only
    async with server.client(token_for(issuer, "42")) as client:
        new = await call(client, "search_memory", {"query": "donnerstags"})
        old = await call(client, "search_memory", {"query": "Vormittag zwischen 9 und 12 Uhr"})
        assert [hit["ID"] for hit in new["daten"]["treffer"]] == ["longterm_1"]
        assert all("zwischen" not in hit["memory"] for hit in old["daten"]["treffer"])


async def test_update_validation_errors_are_per_entry(
    server: InProcessServer, dev_token: str
) -> None:
    async with server.client(dev_token) as client:
        await call(client, "insert_brain_longterm_memory", insert_args(memory_entry()))
        result = await call(
            client,
            "update_brain_memories",
            update_args(
                {"ID": "longterm_1"},
                {"ID": "longterm_1", "memory": None},
                {"ID": "kaputt", "memory": "x"},
                {"ID": "longterm_1", "farbe": "blau"},
            ),
        )
    errors = [entry["fehler"][0]["feld"] for entry in result["daten"]]
    assert errors == [
        "inhalt.memories[0]",
        "inhalt.memories[1].memory",
        "inhalt.memories[2].ID",
        "inhalt.memories[3].farbe",
    ]


async def test_delete_forgets_memories_with_their_ratings(
    server: InProcessServer, dev_token: str, sqlite_storage: SqliteStorage
) -> None:
    async with server.client(dev_token) as client:
        await call(
            client, "insert_brain_longterm_memory", insert_args(memory_entry(), memory_entry())
        )
        await call(client, "rate_brain_memories", rate_args(("longterm_1", 3)))
        deleted = await call(
            client,
            "delete_brain_memories",
            fetch_args(shortterm=["longterm_2"], longterm=["longterm_1", "longterm_7"]),
        )
        assert deleted["daten"] == {
            "geloescht": ["longterm_1"],
            "nicht_gefunden": ["longterm_2", "longterm_7"],
            "orte": [{"ID": "longterm_1", "bereich": "users/42", "pfad": "users/42"}],
            "handelnd_als": "42",
            "entfernt": ["erinnerung", "bewertungen", "vektor", "suchindex"],
        }
        fetched = await call(
            client, "fetch_brain_memories", fetch_args(longterm=["longterm_1", "longterm_2"])
        )
        assert [m["ID"] for m in fetched["daten"]["longterm"]] == ["longterm_2"]
    from shared.domain import MemoryId, MemoryType

    assert sqlite_storage.get_ratings("local", MemoryId(MemoryType.LONGTERM, 1)) == []


async def test_other_nutzer_cannot_update_delete_or_find(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    anna, eve = token_for(issuer, "anna"), token_for(issuer, "eve")
    async with server.client(anna) as client:
        arguments = insert_args(
            memory_entry(nutzer="anna", agent="bot", memory="Annas Geheimplan Zebra"),
            nutzer="anna",
            agent="bot",
        )
        await call(client, "insert_brain_longterm_memory", arguments)
    async with server.client(eve) as client:
        identity = {"nutzer": "eve", "agent": "bot"}
        updated = await call(
            client,
            "update_brain_memories",
            {"inhalt": {"memories": [{"ID": "longterm_1", "memory": "x"}], **identity}},
        )
        deleted = await call(
            client,
            "delete_brain_memories",
            {"inhalt": {"memories": {"longterm": ["longterm_1"]}, **identity}},
        )
        searched = await call(client, "search_memory", {"query": "Geheimplan Zebra"})
        recalled = await call(client, "recall", {"query": "Zebra"})
    assert "nicht_gefunden" in updated["daten"][0]["fehler"][0]["meldung"]
    assert deleted["daten"]["geloescht"] == [] and deleted["daten"]["orte"] == []
    assert deleted["daten"]["nicht_gefunden"] == ["longterm_1"]
    assert searched["daten"]["treffer"] == []
    assert recalled["daten"]["erinnerungen"] == []
    async with server.client(anna) as client:
        still = await call(client, "search_memory", {"query": "Geheimplan"})
    assert [hit["memory"] for hit in still["daten"]["treffer"]] == ["Annas Geheimplan Zebra"]


async def test_remember_stores_with_identity_from_the_token(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    token = token_for(issuer, "anna", teams=["plattform"])
    async with server.client(token) as client:
        # Given no project "memory-os": writing into it fails without create_project
        missing = await call(
            client,
            "remember",
            {
                "content": "Use OAuth for hosted ChatGPT connections.",
                "path": "projects/memory-os/decisions",
            },
        )
        assert missing["erfolg"] is False
        assert "create_project" in missing["fehler"][0]["meldung"]
        # When it is created on the way
        result = await client.call_tool(
            "remember",
            {
                "content": "Use OAuth for hosted ChatGPT connections.",
                "path": "projects/memory-os/decisions",
                "create_project": True,
            },
            raise_on_error=False,
        )
        # Then the success text names the reference, path, author, account and device
        text = result.content[0].text  # type: ignore[union-attr]
        daten = result.structured_content["daten"]  # type: ignore[index]
        assert daten["ID"] in text and "projects/memory-os/decisions" in text
        assert "local:anna" in text and "acme-konto" in text and "laptop-7" in text
        assert (daten["nutzer"], daten["konto"], daten["geraet"]) == (
            "anna",
            "acme-konto",
            "laptop-7",
        )
        # And it reads back through search (written by either family), as the seed advises
        found = await call(
            client, "search_memory", {"query": "OAuth for hosted ChatGPT connections", "limit": 3}
        )
        hit = found["daten"]["treffer"][0]
        assert (hit["ID"], hit["pfad"], hit["scope"], hit["scope_vk"]) == (
            daten["ID"],
            "projects/memory-os/decisions",
            "projekt",
            "memory-os",
        )
        # And the project brain entry exists
        project = await call(
            client,
            "select_brain",
            {"nutzer": "anna", "agent": "bot", "vk_typ": "projekt", "vk_referenz_id": "memory-os"},
        )
        assert project["daten"]["anzahl"] == 1
        # And team and user paths are checked against the token
        team_ok = await call(
            client,
            "remember",
            {"content": "Deploy freitags nie.", "path": "teams/plattform/regeln"},
        )
        team_no = await call(client, "remember", {"content": "x", "path": "teams/vertrieb/x"})
        user_no = await call(client, "remember", {"content": "x", "path": "users/bruno/notizen"})
        forged = await call(
            client, "remember", {"content": "author: bruno\nWichtig.", "path": "users/anna/notizen"}
        )
        bad_path = await call(client, "remember", {"content": "x", "path": "projects/../x"})
    assert team_ok["erfolg"] is True
    assert "nicht berechtigt" in team_no["fehler"][0]["meldung"]
    assert "nicht berechtigt" in user_no["fehler"][0]["meldung"]
    assert "Sicherheitsablehnung" in forged["fehler"][0]["meldung"]
    assert bad_path["fehler"][0]["feld"] == "path"


async def test_recall_and_recall_context(
    server: InProcessServer, dev_token: str, issuer: LocalTokenIssuer
) -> None:
    async with server.client(dev_token) as client:
        await call(client, "upsert_brain", upsert_args(brain_entry()))
        await call(
            client,
            "insert_brain_longterm_memory",
            insert_args(memory_entry(memory="Angebote für K-1001 immer mit Skonto 2 %.")),
        )
        await call(
            client,
            "insert_brain_shortterm_memory",
            insert_args(memory_entry(memory="Heute Anruf von Frau Roth wegen Lieferung.")),
        )
    # When nutzer 42 (whose area holds the memories) recalls
    async with server.client(token_for(issuer, "42")) as client:
        recalled = await call(client, "recall", {"query": "Angebot Skonto"})
        (short,) = recalled["daten"]["erinnerungen"]
        assert short["ID"] == "longterm_1" and short["auszug"].startswith("Angebote")
        package = await call(
            client, "recall_context", {"task": "Angebot mit Skonto vorbereiten", "limit": 5}
        )
    daten = package["daten"]
    assert [m["ID"] for m in daten["erinnerungen"]] == ["longterm_1"]
    assert [m["ID"] for m in daten["kurzzeit"]] == ["shortterm_1"]
    assert [(e["ID"], e["vk_referenz_id"]) for e in daten["brain"]] == [(1, "K-1001")]


async def test_expired_memories_vanish_and_are_swept(
    server: InProcessServer, dev_token: str, sqlite_storage: SqliteStorage
) -> None:
    async with server.client(dev_token) as client:
        await call(
            client,
            "insert_brain_shortterm_memory",
            insert_args(memory_entry(memory="Flüchtige Notiz Pinguin", ttl_sekunden=60)),
        )
        await call(client, "rate_brain_memories", rate_args(("shortterm_1", 5)))
    # When the sweep runs after the memory's lifetime
    swept = sweep_expired(sqlite_storage, utc_now() + timedelta(minutes=2))
    assert [str(item.memory_id) for item in swept] == ["shortterm_1"]
    async with server.client(dev_token) as client:
        fetched = await call(client, "fetch_brain_memories", fetch_args(shortterm=["shortterm_1"]))
        searched = await call(client, "search_memory", {"query": "Pinguin"})
    assert fetched["daten"]["nicht_gefunden"] == ["shortterm_1"]
    assert searched["daten"]["treffer"] == []
