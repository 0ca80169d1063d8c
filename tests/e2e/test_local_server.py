"""`brain serve` as a real subprocess, driven by a real MCP client over loopback HTTP."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from mcp.shared.exceptions import MCPError

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
STARTUP_LINES = 3


@dataclass
class RunningServer:
    process: subprocess.Popen[str]
    url: str
    token: str


def brain(*args: str) -> list[str]:
    return [sys.executable, "-m", "shared.cli", *args]


@contextmanager
def serve(data_dir: Path, env: dict[str, str] | None = None) -> Iterator[RunningServer]:
    """`brain serve` on a free port; `env`: further environment (BRAIN_* settings)."""
    process = subprocess.Popen(
        brain("serve", "--port", "0", "--data-dir", str(data_dir)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline().strip() for _ in range(STARTUP_LINES)]
        url = next(line.split(": ", 1)[1] for line in lines if line.startswith("MCP endpoint: "))
        token = next(line.split(": ", 1)[1] for line in lines if line.startswith("Token: "))
        yield RunningServer(process, url, token)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=20)


def stop(server: RunningServer, signum: int = signal.SIGTERM) -> str:
    server.process.send_signal(signum)
    out, _ = server.process.communicate(timeout=20)
    assert server.process.returncode == 0
    return out


async def test_serve_persists_across_restart_and_stops_cleanly(tmp_path: Path) -> None:
    data_dir = tmp_path / "brain-data"
    # Given a started server
    with serve(data_dir) as server:
        assert server.url.startswith("http://127.0.0.1:") and server.url.endswith("/mcp")
        async with Client(StreamableHttpTransport(server.url, auth=server.token)) as client:
            # When memories are inserted, rated and brain entries upserted
            inserted = await call(
                client,
                "insert_brain_longterm_memory",
                insert_args(memory_entry(), memory_entry(tags=[]), memory_entry(nutzer=True)),
            )
            assert [e["erfolg"] for e in inserted["daten"]] == [True, True, False]
            rated = await call(
                client, "rate_brain_memories", rate_args(("longterm_1", 9), ("longterm_1", 4))
            )
            assert rated["daten"][1]["score_avg"] == 6.5
            await call(client, "upsert_brain", upsert_args(brain_entry()))
        # Then SIGTERM shuts it down cleanly
        assert "Brain gestoppt." in stop(server)

    # When the server starts again on the same data directory
    with serve(data_dir) as server:
        async with Client(StreamableHttpTransport(server.url, auth=server.token)) as client:
            # Then everything is still there and counters continue
            fetched = await call(
                client, "fetch_brain_memories", fetch_args(longterm=["longterm_1", "longterm_2"])
            )
            assert [m["ID"] for m in fetched["daten"]["longterm"]] == ["longterm_1", "longterm_2"]
            assert fetched["daten"]["longterm"][0]["score_avg"] == 6.5
            assert fetched["daten"]["longterm"][0]["score_count"] == 2
            found = await call(
                client, "select_brain", {"nutzer": 1, "agent": 1, "query": "Maschinenbauer"}
            )
            assert [hit["ID"] for hit in found["daten"]["treffer"]] == [1]
            # (the same memory again: stored as a copy, not merged as a near-duplicate)
            copy = {**insert_args(memory_entry()), "referenzfelder": {"duplikat_erlaubt": True}}
            again = await call(client, "insert_brain_longterm_memory", copy)
            assert again["daten"][0]["ID"] == "longterm_3"
        # And Ctrl-C (SIGINT) stops it as cleanly as SIGTERM
        assert "Brain gestoppt." in stop(server, signal.SIGINT)


async def test_token_command_issues_restricted_tokens(tmp_path: Path) -> None:
    data_dir = tmp_path / "brain-data"
    with serve(data_dir) as server:
        # Given a read-only token for nutzer 7 from `brain token`
        printed = subprocess.run(
            brain(
                "token",
                "--data-dir",
                str(data_dir),
                "--tenant",
                "local",
                "--nutzer",
                "7",
                "--agent",
                "bot",
                "--scopes",
                "memory:read",
            ),
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        reader = printed.split()[-1]
        async with Client(StreamableHttpTransport(server.url, auth=server.token)) as client:
            await call(client, "insert_brain_longterm_memory", insert_args(memory_entry(nutzer=7)))
        async with Client(StreamableHttpTransport(server.url, auth=reader)) as client:
            # Then it can read nutzer 7's memory but not write
            arguments = fetch_args(longterm=["longterm_1"])
            arguments["inhalt"].update(nutzer=7, agent="bot")
            fetched = await call(client, "fetch_brain_memories", arguments)
            assert [m["ID"] for m in fetched["daten"]["longterm"]] == ["longterm_1"]
            # And a write is refused at the HTTP layer (403 insufficient_scope)
            with pytest.raises(MCPError):
                await client.call_tool(
                    "insert_brain_longterm_memory",
                    insert_args(memory_entry(nutzer=7), nutzer=7, agent="bot"),
                )


def test_import_jsonl(tmp_path: Path) -> None:
    # Given a JSON Lines export with two good entries, one invalid entry and one broken line
    data_dir = tmp_path / "brain-data"
    export = tmp_path / "export.jsonl"
    lines = [
        json.dumps(brain_entry()),
        json.dumps(brain_entry(titel="Pumpe", vk_typ="produkt", vk_referenz_id=300)),
        json.dumps(brain_entry(vk_typ="lieferant")),
        "{kaputt",
    ]
    export.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # When it is imported
    result = subprocess.run(
        brain("import", str(export), "--data-dir", str(data_dir)),
        capture_output=True,
        text=True,
    )
    # Then the good lines are stored and each bad line is reported with its number
    assert result.returncode == 1
    assert "Importiert: 2, fehlgeschlagen: 2" in result.stdout
    assert "Zeile 3: inhalt.eintraege[2].vk_typ" in result.stderr
    assert "Zeile 4: kein gültiges JSON" in result.stderr


async def test_expire_command_deletes_what_has_expired(tmp_path: Path) -> None:
    data_dir = tmp_path / "brain-data"
    # Given a short-term memory that lives one second and a long-term one
    with serve(data_dir) as server:
        async with Client(StreamableHttpTransport(server.url, auth=server.token)) as client:
            await call(
                client,
                "insert_brain_shortterm_memory",
                insert_args(memory_entry(ttl_sekunden=1)),
            )
            await call(client, "insert_brain_longterm_memory", insert_args(memory_entry()))
        stop(server)
    time.sleep(1.2)
    # When `brain expire` runs, twice
    first = subprocess.run(
        brain("expire", "--data-dir", str(data_dir)), capture_output=True, text=True, check=True
    )
    second = subprocess.run(
        brain("expire", "--data-dir", str(data_dir)), capture_output=True, text=True, check=True
    )
    # Then the first run deletes exactly the expired memory, the second finds nothing
    assert "Gelöscht: local shortterm_1" in first.stdout
    assert "Abgelaufene Erinnerungen gelöscht: 1" in first.stdout
    assert "Abgelaufene Erinnerungen gelöscht: 0" in second.stdout
