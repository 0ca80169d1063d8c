"""Superseded facts through a real MCP client over Streamable HTTP (issue 25): the tool list
offers `ersetzt` and `verlauf`, a replacing `remember` hides the old fact from default
`search_memory`, `recall` and `recall_context`, and the history and fetch still show it."""

from __future__ import annotations

from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from tests.conftest import InProcessServer
from tests.e2e.helpers import call
from tests.e2e.test_memory_tools import token_for

pytestmark = pytest.mark.anyio

PATH = "projects/kantine/oeffnungszeiten"


def hit_ids(envelope: dict[str, Any], key: str) -> list[str]:
    return [hit["ID"] for hit in envelope["daten"][key]]


async def test_a_replaced_fact_leaves_default_search_and_stays_in_the_history(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    token = token_for(issuer, "anna", projects=["kantine"])
    async with server.client(token) as client:
        # The tool list documents both options
        tools = {tool.name: tool for tool in await client.list_tools()}
        assert "ersetzt" in tools["remember"].inputSchema["properties"]
        assert "verlauf" in tools["search_memory"].inputSchema["properties"]
        assert "verlauf" in tools["recall"].inputSchema["properties"]
        # Given a fact and its successor
        old = await call(client, "remember", {"content": "Kantine öffnet 11:30.", "path": PATH})
        assert old["erfolg"] is True, old
        old_id = old["daten"]["ID"]
        new = await call(
            client,
            "remember",
            {"content": "Kantine öffnet ab Januar 11:00.", "path": PATH, "ersetzt": old_id},
        )
        assert new["erfolg"] is True, new
        new_id = new["daten"]["ID"]
        assert new["daten"]["ersetzt"] == [old_id]
        # Default reads: only the successor
        query = {"query": "Kantine öffnet"}
        assert hit_ids(await call(client, "search_memory", query), "treffer") == [new_id]
        assert hit_ids(await call(client, "recall", query), "erinnerungen") == [new_id]
        context = await call(client, "recall_context", {"task": "Kantine öffnet"})
        assert hit_ids(context, "erinnerungen") == [new_id]
        # The history: both, the old one with when and by what it was replaced
        history = await call(client, "search_memory", {**query, "verlauf": True})
        by_id = {hit["ID"]: hit for hit in history["daten"]["treffer"]}
        assert set(by_id) == {old_id, new_id}
        assert by_id[old_id]["ersetzt_durch"] == new_id
        # By ID: readable
        inhalt = {"memories": {"longterm": [old_id]}, "nutzer": "anna", "agent": "bot"}
        fetched = await call(client, "fetch_brain_memories", {"inhalt": inhalt})
        (memory,) = fetched["daten"]["longterm"]
        assert (memory["ersetzt_durch"], "gueltig_bis" in memory) == (new_id, True)
        # Replacing it again says so
        again = await call(
            client, "remember", {"content": "Kantine zu.", "path": PATH, "ersetzt": old_id}
        )
        assert again["erfolg"] is False
        assert (again["fehler"][0]["feld"], again["fehler"][0]["art"]) == ("ersetzt", "konflikt")
