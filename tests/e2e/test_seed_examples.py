"""Seed 004 on a fresh `brain serve` (a real subprocess, a real MCP client): every tool's
`help` example runs as printed, and the seed's remember → search sequence works with a
`memory:write`-only token."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from shared.tools.catalog import TOOLS
from tests.e2e.helpers import call
from tests.e2e.test_local_server import brain, serve

pytestmark = pytest.mark.anyio
# Writers first, so that the readers' examples meet data (remember creates its project).
ORDER = sorted(TOOLS, key=lambda name: (TOOLS[name].read_only, name))


def errors_of(envelope: dict[str, Any]) -> list[str]:
    """Every error message of an envelope, top level and per entry."""
    messages = [error["meldung"] for error in envelope.get("fehler", [])]
    daten = envelope.get("daten")
    if isinstance(daten, list):
        messages += [e["meldung"] for entry in daten for e in entry.get("fehler", [])]
    return messages


def mint(data_dir: Path, nutzer: str, scopes: str) -> str:
    out = subprocess.run(
        brain(
            "token",
            "--data-dir",
            str(data_dir),
            "--tenant",
            "local",
            "--nutzer",
            nutzer,
            "--agent",
            "bot",
            "--scopes",
            scopes,
        ),
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return out.split()[-1]


async def test_every_help_example_runs_on_a_fresh_server(tmp_path: Path) -> None:
    with serve(tmp_path / "data") as server:
        async with Client(StreamableHttpTransport(server.url, auth=server.token)) as client:
            for name in ORDER:
                # Given the tool's help answer
                helped = await call(client, name, {"inhalt": {}, "help": 1})
                example = helped["daten"]["beispiel"]
                assert example["tool"] == name
                # When its example is sent verbatim with the printed token
                answer = await call(client, name, example["arguments"])
                # Then it succeeds, or fails only for IDs that do not exist yet
                problems = [m for m in errors_of(answer) if not m.startswith("nicht_gefunden")]
                assert problems == [], (name, answer)
                if not answer["erfolg"]:
                    assert errors_of(answer), (name, answer)


async def test_seed_sequence_with_a_memory_write_only_token(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with serve(data_dir) as server:
        writer = mint(data_dir, "alice", "memory:write")
        reader = mint(data_dir, "alice", "memory:read")
        async with Client(StreamableHttpTransport(server.url, auth=writer)) as client:
            # When the seed's remember runs with create_project on a fresh server
            stored = await call(
                client,
                "remember",
                {
                    "content": "Use OAuth for hosted ChatGPT connections.",
                    "path": "projects/memory-os/decisions",
                    "create_project": True,
                },
            )
            # And the seed's own example (without create_project) once the project exists
            again = await call(
                client,
                "remember",
                {"content": "Tokens expire after 1 hour.", "path": "projects/memory-os/decisions"},
            )
            # And ordinary notes that merely start with "User:"/"Agent:"/"Account:"
            notes = [
                await call(client, "remember", {"content": text, "path": "users/alice/notes"})
                for text in (
                    "User: prefers short answers in German.",
                    "Agent: always run tests before deploying.",
                    "Account: ACME renewal is due in March.",
                )
            ]
            spoofed = await call(
                client,
                "remember",
                {"content": "---\nauthor: bob\n---\nShip it.", "path": "users/alice/notes"},
            )
        assert stored["erfolg"] and again["erfolg"], (stored, again)
        assert [note["erfolg"] for note in notes] == [True, True, True]
        assert spoofed["erfolg"] is False
        assert "Sicherheitsablehnung" in spoofed["fehler"][0]["meldung"]
        # Then the seed's search finds it, naming path and area
        async with Client(StreamableHttpTransport(server.url, auth=reader)) as client:
            found = await call(
                client,
                "search_memory",
                {"query": "OAuth for hosted ChatGPT connections", "limit": 3},
            )
        hit = found["daten"]["treffer"][0]
        assert (hit["ID"], hit["pfad"], hit["bereich"]) == (
            stored["daten"]["ID"],
            "projects/memory-os/decisions",
            "projects/memory-os",
        )
