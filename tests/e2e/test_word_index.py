"""The word index by area through a real MCP client (issue 12): what a caller finds and
recalls comes from its own areas, however busy the tenant; `brain reindex` runs while the
server serves and leaves every search answer as it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.cli import main
from shared.config import Settings
from tests.conftest import InProcessServer
from tests.e2e.helpers import call, insert_args, memory_entry
from tests.e2e.test_memory_tools import token_for

pytestmark = pytest.mark.anyio


def notes(nutzer: int, count: int, text: str) -> dict[str, Any]:
    entries = [
        memory_entry(memory=f"{text} Nummer {i}.", nutzer=nutzer, kurzbeschreibung=f"Notiz {i}")
        for i in range(count)
    ]
    return insert_args(*entries, nutzer=nutzer)


async def test_recall_context_lists_the_callers_recent_memories_in_a_busy_tenant(
    server: InProcessServer, dev_token: str, issuer: LocalTokenIssuer
) -> None:
    # Given two short-term notes of nutzer 42, then 60 newer ones of nutzer 7 and 10 newer
    # ones in team "ops" (same words everywhere)
    async with server.client(dev_token) as client:
        await call(client, "insert_brain_shortterm_memory", notes(42, 2, "Lieferung Roth"))
        await call(client, "insert_brain_shortterm_memory", notes(7, 60, "Lieferung Roth"))
    async with server.client(token_for(issuer, "9", teams=["ops"])) as client:
        for i in range(10):
            stored = await call(
                client, "remember", {"content": f"Lieferung Roth Team {i}", "path": "teams/ops"}
            )
            assert stored["erfolg"], stored
    # When nutzer 42 recalls the context of a task
    async with server.client(token_for(issuer, "42")) as client:
        package = await call(client, "recall_context", {"task": "Lieferung Roth", "limit": 5})
        found = await call(client, "search_memory", {"query": "Lieferung Roth", "limit": 10})
    # Then the recent list holds its own two notes, newest first (not an empty list cut
    # from the tenant's newest), and the search only its own memories
    assert [m["ID"] for m in package["daten"]["kurzzeit"]] == ["shortterm_2", "shortterm_1"]
    assert {hit["ID"] for hit in found["daten"]["treffer"]} == {"shortterm_1", "shortterm_2"}
    # And a member of team ops sees the team's memories too
    async with server.client(token_for(issuer, "42", teams=["ops"])) as client:
        found = await call(client, "search_memory", {"query": "Lieferung Roth", "limit": 20})
        bounded = await call(
            client, "search_memory", {"query": "Lieferung Roth", "limit": 20, "path": "teams"}
        )
    assert len(found["daten"]["treffer"]) == 12
    assert {hit["bereich"] for hit in bounded["daten"]["treffer"]} == {"teams/ops"}


async def test_reindex_while_serving_keeps_every_answer(
    server: InProcessServer,
    dev_token: str,
    issuer: LocalTokenIssuer,
    settings: Settings,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given memories of two nutzer and a team
    async with server.client(dev_token) as client:
        await call(client, "insert_brain_longterm_memory", notes(42, 5, "Angebot Skonto"))
        await call(client, "insert_brain_shortterm_memory", notes(7, 5, "Angebot Skonto"))
    async with server.client(token_for(issuer, "42")) as client:
        before = await call(client, "search_memory", {"query": "Angebot Skonto", "limit": 20})
        # When `brain reindex` runs against the same data dir, a page of 2 IDs at a time,
        # with a state file, while the server keeps answering
        state = tmp_path / "reindex.state"
        code = main(
            [
                "reindex",
                "--data-dir",
                str(settings.data_dir),
                "--tenant",
                "local",
                "--page",
                "2",
                "--state",
                str(state),
            ]
        )
        after = await call(client, "search_memory", {"query": "Angebot Skonto", "limit": 20})
    # Then it reports every memory, ends without a state file, and the answers are the same
    out = capsys.readouterr().out
    assert code == 0 and "abgeschlossen: 10 Erinnerungen" in out
    assert "weiter bei: longterm:3" in out and not state.exists()
    assert [h["ID"] for h in after["daten"]["treffer"]] == [
        h["ID"] for h in before["daten"]["treffer"]
    ]
    assert len(after["daten"]["treffer"]) == 5
    # And a cursor that is not one is refused with a German message
    assert main(["reindex", "--data-dir", str(settings.data_dir), "--resume-from", "x:1"]) == 2
    assert "Ungültiger Fortsetzungspunkt" in capsys.readouterr().err
