"""End to end through a real MCP client (fastmcp Client) against the in-process HTTP app."""

from __future__ import annotations

from decimal import Decimal

import pytest
from mcp import MCPError

from shared.schemas import load_schema
from shared.tools.catalog import TOOLS
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


async def test_tools_publish_their_seed_schemas_verbatim(
    server: InProcessServer, dev_token: str
) -> None:
    # Given the running app
    async with server.client(dev_token) as client:
        # When the client lists the tools
        tools = {tool.name: tool for tool in await client.list_tools()}
    # Then every contract tool is there with its schema exactly as in the seeds
    assert set(tools) == set(TOOLS)
    for name, tool in tools.items():
        assert tool.input_schema == load_schema(name)
    assert tools["fetch_brain_memories"].annotations.read_only_hint is True
    assert tools["insert_brain_longterm_memory"].annotations.read_only_hint is False


async def test_unknown_tool_is_a_json_rpc_invalid_params_error(
    server: InProcessServer, dev_token: str
) -> None:
    async with server.client(dev_token) as client:
        # When the client calls a tool name the server does not publish
        with pytest.raises(MCPError) as raised:
            await client.call_tool("no_such_tool", {"inhalt": {}})
        # Then the server answers JSON-RPC error -32602 naming the tool, not a tool result
        assert raised.value.code == -32602
        assert raised.value.data == {"name": "no_such_tool"}
        assert "Unbekanntes Tool 'no_such_tool'" in raised.value.message
        # And the session stays usable
        assert {tool.name for tool in await client.list_tools()} == set(TOOLS)


@pytest.mark.parametrize("tool", sorted(TOOLS))
async def test_help_returns_action_definitions_and_does_nothing_else(
    server: InProcessServer, dev_token: str, tool: str
) -> None:
    async with server.client(dev_token) as client:
        # When the seeds' example call is made
        envelope = await call(client, tool, {"inhalt": {}, "help": 1, "referenzfelder": {"a": 1}})
        # Then it answers with description, schema and an example, echoing referenzfelder
        assert envelope["erfolg"] is True
        assert envelope["daten"]["tool"] == tool
        assert envelope["daten"]["input_schema"] == load_schema(tool)
        assert envelope["daten"]["beispiel"]["tool"] == tool
        assert envelope["referenzfelder"] == {"a": 1}
        # And nothing was written: the first insert still gets ID 1
        inserted = await call(client, "insert_brain_longterm_memory", insert_args(memory_entry()))
        assert inserted["daten"][0]["ID"] == "longterm_1"


async def test_insert_fetch_rate_fetch_shows_the_exact_average(
    server: InProcessServer, dev_token: str
) -> None:
    async with server.client(dev_token) as client:
        # Given one long-term and one short-term memory
        long_insert = await call(
            client,
            "insert_brain_longterm_memory",
            {**insert_args(memory_entry()), "referenzfelder": {"lauf": "e2e", "n": 1}},
        )
        short_insert = await call(
            client, "insert_brain_shortterm_memory", insert_args(memory_entry(ttl_sekunden=600))
        )
        hinweis = long_insert.pop("hinweis")  # the development token acts as 'dev'
        assert "users/42" in hinweis and "'dev'" in hinweis
        assert long_insert == {
            "erfolg": True,
            "daten": [
                {
                    "index": 0,
                    "typ": "longterm",
                    "erfolg": True,
                    "ID": "longterm_1",
                    "bereich": "users/42",
                }
            ],
            "anzahl_erfolgreich": 1,
            "anzahl_fehlgeschlagen": 0,
            "referenzfelder": {"lauf": "e2e", "n": 1},
        }
        assert short_insert["daten"][0]["ID"] == "shortterm_1"

        # When it is fetched before any rating
        fetched = await call(client, "fetch_brain_memories", fetch_args(longterm=["longterm_1"]))
        memory = fetched["daten"]["longterm"][0]
        assert memory["kurzbeschreibung"] == "Rückruf am Vormittag"
        assert memory["tags"] == ["kunde", "Kommunikation"]
        assert (memory["scope"], memory["scope_vk"]) == ("kunde", "K-1001")
        assert (memory["score_avg"], memory["score_count"], memory["last_call"]) == (None, 0, None)

        # And rated three times, mixing both types in one call
        rated = await call(
            client,
            "rate_brain_memories",
            rate_args(
                ("longterm_1", 8), ("longterm_1", 7.5), ("shortterm_1", 3), ("longterm_1", 2)
            ),
        )
        assert rated["erfolg"] is True
        assert [entry["insert_ID"] for entry in rated["daten"]] == [1, 2, 3, 4]

        # Then fetch shows the exact average and count
        fetched = await call(
            client,
            "fetch_brain_memories",
            fetch_args(shortterm=["shortterm_1"], longterm=["longterm_1"]),
        )
        long_term = fetched["daten"]["longterm"][0]
        assert long_term["score_count"] == 3
        # the exact decimal average, as the nearest JSON number
        assert long_term["score_avg"] == float((Decimal(8) + Decimal("7.5") + 2) / 3)
        assert long_term["last_call"] is not None
        assert fetched["daten"]["shortterm"][0]["score_avg"] == 3
        assert fetched["daten"]["nicht_gefunden"] == []


async def test_batch_with_one_bad_entry_stores_the_others(
    server: InProcessServer, dev_token: str
) -> None:
    async with server.client(dev_token) as client:
        # Given three entries of which the middle one has a NaN embedding
        envelope = await call(
            client,
            "insert_brain_longterm_memory",
            insert_args(
                memory_entry(kurzbeschreibung="eins"),
                memory_entry(
                    kurzbeschreibung="zwei",
                    embedding=[0.1, float("nan")],
                    embedding_profil_hash="e2e-2d",
                ),
                memory_entry(
                    kurzbeschreibung="drei", embedding=[0.5, -1.25], embedding_profil_hash="e2e-2d"
                ),
            ),
        )
        # Then the call reports partial failure, index by index
        assert envelope["erfolg"] is False
        assert (envelope["anzahl_erfolgreich"], envelope["anzahl_fehlgeschlagen"]) == (2, 1)
        assert [entry["erfolg"] for entry in envelope["daten"]] == [True, False, True]
        bad = envelope["daten"][1]
        assert bad["index"] == 1 and "ID" not in bad
        assert bad["fehler"][0]["feld"] == "inhalt.memories[1].embedding[1]"
        ids = [entry["ID"] for entry in envelope["daten"] if entry["erfolg"]]
        assert ids == ["longterm_1", "longterm_2"]
        # And the good ones are stored
        fetched = await call(client, "fetch_brain_memories", fetch_args(longterm=ids))
        assert [m["kurzbeschreibung"] for m in fetched["daten"]["longterm"]] == ["eins", "drei"]
        assert fetched["daten"]["longterm"][1]["embedding_dim"] == 2


async def test_envelope_error_writes_nothing(server: InProcessServer, dev_token: str) -> None:
    async with server.client(dev_token) as client:
        # Given a request without inhalt.nutzer
        arguments = insert_args(memory_entry())
        del arguments["inhalt"]["nutzer"]
        envelope = await call(client, "insert_brain_longterm_memory", arguments)
        # Then it fails whole, in German, naming the field
        assert envelope["erfolg"] is False
        assert envelope["fehler"][0]["feld"] == "inhalt.nutzer"
        # And nothing was written
        fetched = await call(client, "fetch_brain_memories", fetch_args(longterm=["longterm_1"]))
        assert fetched["daten"]["nicht_gefunden"] == ["longterm_1"]


async def test_fetch_reports_unknown_wrong_type_and_duplicate_ids(
    server: InProcessServer, dev_token: str
) -> None:
    async with server.client(dev_token) as client:
        await call(client, "insert_brain_longterm_memory", insert_args(memory_entry()))
        # When IDs are duplicated, of the wrong type, or unknown
        fetched = await call(
            client,
            "fetch_brain_memories",
            fetch_args(
                shortterm=["longterm_1", "shortterm_9"],
                longterm=["longterm_1", "longterm_1", "longterm_77"],
            ),
        )
        # Then found ones come once in request order, the rest under nicht_gefunden
        assert [m["ID"] for m in fetched["daten"]["longterm"]] == ["longterm_1"]
        assert fetched["daten"]["shortterm"] == []
        assert fetched["daten"]["nicht_gefunden"] == ["longterm_1", "shortterm_9", "longterm_77"]


async def test_rate_of_missing_memory_fails_alone(server: InProcessServer, dev_token: str) -> None:
    async with server.client(dev_token) as client:
        await call(client, "insert_brain_longterm_memory", insert_args(memory_entry()))
        rated = await call(
            client, "rate_brain_memories", rate_args(("longterm_5", 4), ("longterm_1", 6))
        )
        assert rated["erfolg"] is False
        assert rated["daten"][0]["erfolg"] is False
        assert "nicht_gefunden" in rated["daten"][0]["fehler"][0]["meldung"]
        assert rated["daten"][1] == {
            **rated["daten"][1],
            "erfolg": True,
            "insert_ID": 1,
            "score_avg": 6,
        }


async def test_select_brain_query_filters_and_every_detailgrad(
    server: InProcessServer, dev_token: str
) -> None:
    async with server.client(dev_token) as client:
        # Given three brain entries and a memory about one customer
        upserted = await call(
            client,
            "upsert_brain",
            upsert_args(
                brain_entry(tags=["Kunde"], stammdaten={"ort": "Stuttgart"}),
                brain_entry(
                    titel="Müller AG",
                    inhalt="Großhändler für Ersatzteile; Verträge laufen jährlich.",
                    vk_referenz_id="K-2002",
                ),
                brain_entry(
                    titel="Pumpe P-300",
                    inhalt="Produkt für Kunden im Maschinenbau, customers love it.",
                    vk_typ="produkt",
                    vk_referenz_id="P-300",
                ),
            ),
        )
        assert [entry["ID"] for entry in upserted["daten"]] == [1, 2, 3]
        await call(client, "insert_brain_longterm_memory", insert_args(memory_entry()))

        # When searching with German word forms and umlaut folding
        found = await call(
            client, "select_brain", {"nutzer": 42, "agent": "a", "query": "mueller vertrag"}
        )
        assert [hit["ID"] for hit in found["daten"]["treffer"]] == [2]
        assert found["daten"]["treffer"][0]["titel"] == "Müller AG"
        assert "inhalt" not in found["daten"]["treffer"][0]

        # And a query matching several entries, narrowed by vk_typ
        maschinenbau = await call(
            client, "select_brain", {"nutzer": [42], "agent": ["a"], "query": "Maschinenbau"}
        )
        assert {hit["ID"] for hit in maschinenbau["daten"]["treffer"]} == {1, 3}
        narrowed = await call(
            client,
            "select_brain",
            {"nutzer": 42, "agent": "a", "query": "Maschinenbau", "vk_typ": "produkt"},
        )
        assert [hit["ID"] for hit in narrowed["daten"]["treffer"]] == [3]

        # And by reference with every detailgrad
        detailed = await call(
            client,
            "select_brain",
            {
                "nutzer": 42,
                "agent": "a",
                "vk_typ": "kunde",
                "vk_referenz_id": "K-1001",
                "detailgrad": "stammdaten,texte,erinnerungen",
            },
        )
        (hit,) = detailed["daten"]["treffer"]
        assert hit["stammdaten"] == {"ort": "Stuttgart"}
        assert hit["tags"] == ["Kunde"]
        assert hit["inhalt"].startswith("Mittelständischer")
        assert [m["ID"] for m in hit["erinnerungen"]] == ["longterm_1"]

        # And by ID with only texte
        by_id = await call(
            client,
            "select_brain",
            {"nutzer": 42, "agent": "a", "ID": [3, 1], "detailgrad": "texte"},
        )
        assert [hit["ID"] for hit in by_id["daten"]["treffer"]] == [3, 1]
        assert "vk_typ" not in by_id["daten"]["treffer"][0]

        # And an unknown detailgrad names the allowed ones
        wrong = await call(
            client, "select_brain", {"nutzer": 42, "agent": "a", "detailgrad": "alles"}
        )
        assert wrong["erfolg"] is False
        assert "stammdaten" in wrong["fehler"][0]["meldung"]


async def test_upsert_updates_and_reindexes(server: InProcessServer, dev_token: str) -> None:
    async with server.client(dev_token) as client:
        await call(client, "upsert_brain", upsert_args(brain_entry()))
        # When entry 1 is updated with a new text, and a missing ID is updated
        updated = await call(
            client,
            "upsert_brain",
            upsert_args(
                brain_entry(ID=1, inhalt="Jetzt Lieferant für Solaranlagen."),
                brain_entry(ID=99),
            ),
        )
        assert [entry["erfolg"] for entry in updated["daten"]] == [True, False]
        assert "nicht_gefunden" in updated["daten"][1]["fehler"][0]["meldung"]
        # Then the old text no longer finds it, the new one does
        old = await call(client, "select_brain", {"nutzer": 1, "agent": 1, "query": "Stuttgart"})
        new = await call(client, "select_brain", {"nutzer": 1, "agent": 1, "query": "Solaranlage"})
        assert old["daten"]["treffer"] == []
        assert [hit["ID"] for hit in new["daten"]["treffer"]] == [1]


async def test_many_warm_calls_in_one_app(server: InProcessServer, dev_token: str) -> None:
    # The stateless session manager must serve call after call in the same process.
    async with server.client(dev_token) as client:
        for number in range(1, 31):
            envelope = await call(
                client,
                "insert_brain_longterm_memory",
                # no resend, and stored as copies (not merged as near-duplicates)
                {
                    **insert_args(memory_entry()),
                    "referenzfelder": {"n": number, "duplikat_erlaubt": True},
                },
            )
            assert envelope["daten"][0]["ID"] == f"longterm_{number}"


async def test_concurrent_clients_rating_one_memory_lose_nothing(
    server: InProcessServer, dev_token: str
) -> None:
    import anyio

    # Given one memory and 8 MCP clients rating it at the same time, 10 times each
    async with server.client(dev_token) as client:
        await call(client, "insert_brain_longterm_memory", insert_args(memory_entry()))
    scores = [Decimal(n % 10) + Decimal("0.5") * (n % 2) for n in range(80)]

    async def rater(worker: int) -> None:
        async with server.client(dev_token) as client:
            for n in range(worker * 10, worker * 10 + 10):
                arguments = rate_args(("longterm_1", float(scores[n])))
                arguments["referenzfelder"] = {"n": n}  # equal scores, yet distinct ratings
                rated = await call(client, "rate_brain_memories", arguments)
                assert rated["erfolg"] is True, rated["fehler"]

    async with anyio.create_task_group() as group:
        for worker in range(8):
            group.start_soon(rater, worker)
    # Then every rating counted and the average is exact
    async with server.client(dev_token) as client:
        fetched = await call(client, "fetch_brain_memories", fetch_args(longterm=["longterm_1"]))
    memory = fetched["daten"]["longterm"][0]
    assert memory["score_count"] == 80
    assert memory["score_avg"] == float(sum(scores) / 80)
