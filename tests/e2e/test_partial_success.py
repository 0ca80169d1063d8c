"""Partial success is not an error (CONTRACT §3): `isError` only when nothing was stored.

Checked with the clients agents use: fastmcp's `Client` (which raises on `isError` by
default) against the in-process app, and the official TypeScript SDK client (Node) against
`brain serve` over loopback HTTP.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastmcp.exceptions import ToolError

from tests.conftest import InProcessServer
from tests.e2e.helpers import fetch_args, insert_args, memory_entry, rate_args
from tests.e2e.test_local_server import serve

pytestmark = pytest.mark.anyio

TS_CLIENT = Path(__file__).parent / "ts_client"


async def test_partly_stored_batch_is_no_tool_error_for_fastmcp(
    server: InProcessServer, dev_token: str
) -> None:
    async with server.client(dev_token) as client:
        # Given a batch of three memories, the second invalid (nutzer must be a string/number)
        arguments = insert_args(memory_entry(), memory_entry(nutzer=True), memory_entry())
        # When fastmcp's client calls it with its default raise_on_error=True
        result = await client.call_tool("insert_brain_longterm_memory", arguments)
        # Then it did not raise: the result says what was stored and what was not
        assert result.is_error is False
        envelope = result.structured_content
        assert envelope is not None
        assert envelope["erfolg"] is False
        assert (envelope["anzahl_erfolgreich"], envelope["anzahl_fehlgeschlagen"]) == (2, 1)
        assert [e["erfolg"] for e in envelope["daten"]] == [True, False, True]
        assert envelope["daten"][1]["fehler"][0]["feld"].startswith("inhalt.memories[1]")

        # And a rating batch with one missing memory is partly stored alike
        rated = await client.call_tool(
            "rate_brain_memories", rate_args(("longterm_1", 8), ("longterm_99", 3))
        )
        assert rated.is_error is False
        assert rated.structured_content is not None
        assert rated.structured_content["anzahl_erfolgreich"] == 1

        # When every entry fails, or the envelope is refused whole, nothing was stored
        for tool, refused in (
            ("insert_brain_longterm_memory", insert_args(memory_entry(nutzer=True))),
            ("insert_brain_longterm_memory", {"inhalt": {"memories": "keine Liste"}}),
            ("rate_brain_memories", rate_args(("longterm_99", 3))),
        ):
            # Then that is a tool error, which fastmcp raises with the German message
            with pytest.raises(ToolError):
                await client.call_tool(tool, refused)

        # And exactly the two good memories exist
        fetched = await client.call_tool(
            "fetch_brain_memories", fetch_args(longterm=["longterm_1", "longterm_2"])
        )
        assert fetched.structured_content is not None
        assert len(fetched.structured_content["daten"]["longterm"]) == 2


def _ts_client_ready() -> bool:
    return shutil.which("node") is not None and (TS_CLIENT / "node_modules").is_dir()


@pytest.mark.skipif(not _ts_client_ready(), reason="`make install` sets up the TS SDK client")
def test_typescript_sdk_reads_a_partly_stored_batch_as_a_result(tmp_path: Path) -> None:
    # Given `brain serve` and the official TypeScript SDK client
    calls: list[dict[str, Any]] = [
        {
            "name": "insert_brain_longterm_memory",
            "arguments": insert_args(memory_entry(), memory_entry(nutzer=True)),
        },
        {
            "name": "insert_brain_longterm_memory",
            "arguments": insert_args(memory_entry(nutzer=True)),
        },
    ]
    with serve(tmp_path / "data") as running:
        # When it sends a partly valid batch and a wholly invalid one
        completed = subprocess.run(
            [
                "node",
                str(TS_CLIENT / "call_tools.mjs"),
                running.url,
                running.token,
                json.dumps(calls),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    partly, nothing = json.loads(completed.stdout)
    # Then the partly stored batch is a normal result with its per-entry results
    assert partly["isError"] is False
    assert partly["structuredContent"]["erfolg"] is False
    assert partly["structuredContent"]["anzahl_erfolgreich"] == 1
    assert partly["structuredContent"]["daten"][0]["ID"] == "longterm_1"
    # And the call that stored nothing is a tool error the SDK reports as such
    assert nothing["isError"] is True
    assert nothing["structuredContent"]["anzahl_erfolgreich"] == 0
