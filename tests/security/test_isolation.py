"""Binding of nutzer/agent claims and isolation between tenants and between nutzer."""

from __future__ import annotations

from typing import Any

import pytest

from shared.storage.port import StoragePort
from tests.conftest import InProcessServer
from tests.e2e.helpers import call, insert_args, memory_entry
from tests.security.conftest import TENANT_A, TENANT_B, Tokens, stored_state

pytestmark = pytest.mark.anyio


def as_caller(arguments: dict[str, Any], nutzer: str, agent: str = "bot") -> dict[str, Any]:
    arguments["inhalt"].update(nutzer=nutzer, agent=agent)
    return arguments


def fetch_longterm(ids: list[str], nutzer: str) -> dict[str, Any]:
    return {"inhalt": {"memories": {"longterm": ids}, "nutzer": nutzer, "agent": "bot"}}


def rate_one(memory_id: str, nutzer: str) -> dict[str, Any]:
    rating = {"typ": "longterm", "parameter": {"memory_ID": memory_id, "agent": "bot", "score": 5}}
    return {"inhalt": {"memories": [rating], "nutzer": nutzer, "agent": "bot"}}


async def seed(server: InProcessServer, token: str, nutzer: str, count: int) -> list[str]:
    async with server.client(token) as client:
        entries = [
            memory_entry(nutzer=nutzer, agent="bot", memory=f"geheim {i}") for i in range(count)
        ]
        envelope = await call(
            client, "insert_brain_longterm_memory", as_caller(insert_args(*entries), nutzer)
        )
    assert envelope["erfolg"] is True
    return [entry["ID"] for entry in envelope["daten"]]


async def test_forged_nutzer_in_envelope_fails_whole_and_writes_nothing(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens
) -> None:
    # Given a token for nutzer anna
    token = tokens.make(nutzer=("anna",))
    before = stored_state(backend)
    async with secure_server.client(token) as client:
        # When it claims to be bruno in the envelope
        envelope = await call(
            client,
            "insert_brain_longterm_memory",
            as_caller(insert_args(memory_entry(nutzer="anna", agent="bot")), "bruno"),
        )
    # Then the call fails whole with "nicht berechtigt" naming the field
    assert envelope["erfolg"] is False
    assert envelope["fehler"][0]["feld"] == "inhalt.nutzer"
    assert "nicht berechtigt" in envelope["fehler"][0]["meldung"]
    assert stored_state(backend) == before


async def test_forged_nutzer_or_agent_in_an_entry_fails_that_entry_only(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens
) -> None:
    token = tokens.make(nutzer=("anna",), agents=("bot",))
    async with secure_server.client(token) as client:
        envelope = await call(
            client,
            "insert_brain_longterm_memory",
            as_caller(
                insert_args(
                    memory_entry(nutzer="anna", agent="bot", memory="erlaubt"),
                    memory_entry(nutzer="bruno", agent="bot", memory="gefälscht"),
                    memory_entry(nutzer="anna", agent="spion", memory="falscher agent"),
                ),
                "anna",
            ),
        )
    assert [entry["erfolg"] for entry in envelope["daten"]] == [True, False, False]
    assert envelope["daten"][1]["fehler"][0]["feld"] == "inhalt.memories[1].nutzer"
    assert envelope["daten"][2]["fehler"][0]["feld"] == "inhalt.memories[2].agent"
    state = stored_state(backend)[TENANT_A]["memories"]
    assert [text for text, _, _ in state.values()] == ["erlaubt"]


async def test_select_brain_checks_every_claimed_identity(
    secure_server: InProcessServer, tokens: Tokens
) -> None:
    token = tokens.make(nutzer=("anna",), agents=("bot",))
    async with secure_server.client(token) as client:
        envelope = await call(
            client, "select_brain", {"nutzer": ["anna", "bruno"], "agent": "bot", "query": "x"}
        )
    assert envelope["erfolg"] is False
    assert "nicht berechtigt" in envelope["fehler"][0]["meldung"]


async def test_two_tenants_with_the_same_nutzer_never_see_each_other(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens
) -> None:
    # Given tenant A's anna and tenant B's anna, each with memories
    anna_a = tokens.make(tenant=TENANT_A, nutzer=("anna",))
    anna_b = tokens.make(tenant=TENANT_B, nutzer=("anna",))
    ids_a = await seed(secure_server, anna_a, "anna", 2)
    ids_b = await seed(secure_server, anna_b, "anna", 1)
    # Then IDs are per tenant (both start at 1), and each sees only its own text
    assert ids_a == ["longterm_1", "longterm_2"] and ids_b == ["longterm_1"]
    async with secure_server.client(anna_b) as client:
        fetched = await call(client, "fetch_brain_memories", fetch_longterm(ids_a, "anna"))
        assert [m["memory"] for m in fetched["daten"]["longterm"]] == ["geheim 0"]
        assert fetched["daten"]["nicht_gefunden"] == ["longterm_2"]
        # And B's rating of "longterm_1" lands on B's memory, never on A's
        rated = await call(client, "rate_brain_memories", rate_one("longterm_1", "anna"))
        assert rated["erfolg"] is True
    state = stored_state(backend)
    assert state[TENANT_A]["ratings"] == {"longterm_1": 0, "longterm_2": 0}
    assert state[TENANT_B]["ratings"] == {"longterm_1": 1}


async def test_other_nutzer_of_the_same_tenant_is_reported_like_missing(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens
) -> None:
    # Given anna's memory longterm_1 and a token for bruno of the same tenant
    anna = tokens.make(nutzer=("anna",))
    bruno = tokens.make(nutzer=("bruno",))
    await seed(secure_server, anna, "anna", 1)
    before = stored_state(backend)
    async with secure_server.client(bruno) as client:
        # When bruno fetches it and a truly missing ID
        fetched = await call(
            client, "fetch_brain_memories", fetch_longterm(["longterm_1", "longterm_99"], "bruno")
        )
        # Then both are nicht_gefunden, indistinguishably
        assert fetched["daten"]["longterm"] == []
        assert fetched["daten"]["nicht_gefunden"] == ["longterm_1", "longterm_99"]
        # And rating either gives the same error text apart from the ID
        hidden = await call(client, "rate_brain_memories", rate_one("longterm_1", "bruno"))
        missing = await call(client, "rate_brain_memories", rate_one("longterm_99", "bruno"))
    hidden_error = hidden["daten"][0]["fehler"][0]["meldung"].replace("longterm_1", "ID")
    missing_error = missing["daten"][0]["fehler"][0]["meldung"].replace("longterm_99", "ID")
    assert hidden_error == missing_error
    assert "nicht_gefunden" in hidden_error
    # And nothing was written (no rating, no ID consumed visibly)
    assert stored_state(backend) == before


async def test_enumerating_ids_as_an_outsider_reveals_nothing(
    secure_server: InProcessServer, tokens: Tokens
) -> None:
    # Given five memories of anna
    await seed(secure_server, tokens.make(nutzer=("anna",)), "anna", 5)
    outsider = tokens.make(nutzer=("eve",))
    probe = [f"longterm_{n}" for n in range(1, 11)]
    async with secure_server.client(outsider) as client:
        # When eve enumerates longterm_1 .. longterm_10
        fetched = await call(client, "fetch_brain_memories", fetch_longterm(probe, "eve"))
        responses = [
            await call(client, "rate_brain_memories", rate_one(memory_id, "eve"))
            for memory_id in probe
        ]
    # Then existing and non-existing IDs look exactly alike
    assert fetched["daten"]["longterm"] == []
    assert fetched["daten"]["nicht_gefunden"] == probe
    normalised = {
        str(response["daten"][0]).replace(memory_id, "ID")
        for response, memory_id in zip(responses, probe, strict=True)
    }
    assert len(normalised) == 1


async def test_brain_entries_are_per_tenant(secure_server: InProcessServer, tokens: Tokens) -> None:
    token_a = tokens.make(tenant=TENANT_A)
    token_b = tokens.make(tenant=TENANT_B)
    upsert = {
        "inhalt": {
            "eintraege": [
                {
                    "titel": "Vertraulich",
                    "inhalt": "Übernahmepläne",
                    "vk_typ": "projekt",
                    "vk_referenz_id": "P-1",
                }
            ],
            "nutzer": "anna",
            "agent": "bot",
        }
    }
    async with secure_server.client(token_a) as client:
        assert (await call(client, "upsert_brain", upsert))["erfolg"] is True
    async with secure_server.client(token_b) as client:
        by_query = await call(
            client, "select_brain", {"nutzer": "anna", "agent": "bot", "query": "Übernahmepläne"}
        )
        by_id = await call(client, "select_brain", {"nutzer": "anna", "agent": "bot", "ID": [1]})
        listed = await call(client, "select_brain", {"nutzer": "anna", "agent": "bot"})
    assert by_query["daten"]["treffer"] == []
    assert by_id["daten"]["treffer"] == []
    assert listed["daten"]["treffer"] == []


async def test_update_delete_and_search_of_another_nutzers_memory_reveal_and_change_nothing(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens
) -> None:
    # Given anna's memory and eve of the same tenant
    await seed(secure_server, tokens.make(nutzer=("anna",)), "anna", 1)
    before = stored_state(backend)
    eve = tokens.make(nutzer=("eve",))
    identity = {"nutzer": "eve", "agent": "bot"}
    async with secure_server.client(eve) as client:
        # When eve updates, deletes and searches for it
        updated = await call(
            client,
            "update_brain_memories",
            {"inhalt": {"memories": [{"ID": "longterm_1", "memory": "übernommen"}], **identity}},
        )
        deleted = await call(
            client,
            "delete_brain_memories",
            {"inhalt": {"memories": {"longterm": ["longterm_1", "longterm_2"]}, **identity}},
        )
        found = await call(client, "search_memory", {"query": "geheim"})
        context = await call(client, "recall_context", {"task": "geheim"})
    # Then each answer is the one for a missing memory, and nothing changed
    assert "nicht_gefunden" in updated["daten"][0]["fehler"][0]["meldung"]
    assert deleted["daten"]["geloescht"] == [] and deleted["daten"]["orte"] == []
    assert deleted["daten"]["nicht_gefunden"] == ["longterm_1", "longterm_2"]
    assert found["daten"]["treffer"] == []
    assert context["daten"]["erinnerungen"] == []
    assert stored_state(backend) == before
