"""`remember`'s derived summary follows its content (issue 26: after the content was updated,
the old summary stayed and the memory was still found by its old wording)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.auth.verifiers import local_issuer
from shared.config import Settings
from shared.services.context import ServiceContext
from shared.services.summary import SUMMARY_MAX_LEN, summary_of
from shared.storage.sqlite import SqliteStorage
from shared.tools.dispatch import call_tool

Call = Callable[[str, dict[str, Any]], dict[str, Any]]


@pytest.fixture
def call(tmp_path: Path) -> Iterator[Call]:
    settings = Settings(data_dir=tmp_path / "data")
    storage = SqliteStorage.in_data_dir(settings.data_dir)
    issuer = local_issuer(settings)
    token = issuer.issue(
        tenant="t1",
        subject="ana",
        nutzer=["ana"],
        agents=["bot"],
        scopes=["memory:read", "memory:write"],
        ttl_seconds=600,
    )
    principal = issuer.verify(token)
    ctx = ServiceContext(storage=storage, settings=settings)
    yield lambda tool, arguments: call_tool(ctx, principal, tool, arguments)
    storage.close()


def update(call: Call, **fields: Any) -> dict[str, Any]:
    entry = {"ID": "longterm_1", **fields}
    inhalt = {"nutzer": "ana", "agent": "bot", "memories": [entry]}
    return call("update_brain_memories", {"inhalt": inhalt})


def found(call: Call, query: str) -> list[str]:
    answer = call("search_memory", {"query": query})
    return [hit["ID"] for hit in answer["daten"]["treffer"]]


def fetched(call: Call) -> dict[str, Any]:
    inhalt = {"nutzer": "ana", "agent": "bot", "memories": {"longterm": ["longterm_1"]}}
    return call("fetch_brain_memories", {"inhalt": inhalt})["daten"]["longterm"][0]


def test_summary_is_the_first_line_cut_to_its_limit() -> None:
    assert summary_of("\n  Erste Zeile  \nzweite") == "Erste Zeile"
    long = summary_of("x" * 500)
    assert len(long) == SUMMARY_MAX_LEN and long.endswith("…")


def test_an_updated_content_brings_its_summary_along(call: Call) -> None:
    stored = call("remember", {"content": "Staging läuft auf Postgres 14.", "path": "users/ana"})
    assert stored["erfolg"], stored
    assert update(call, memory="Staging läuft auf MariaDB 11.")["erfolg"]
    assert fetched(call)["kurzbeschreibung"] == "Staging läuft auf MariaDB 11."
    assert found(call, "MariaDB") == ["longterm_1"]
    assert found(call, "Postgres") == []


def test_a_summary_the_caller_wrote_is_kept(call: Call) -> None:
    call("remember", {"content": "Staging läuft auf Postgres 14.", "path": "users/ana"})
    assert update(call, kurzbeschreibung="Datenbank von Staging")["erfolg"]
    assert update(call, memory="Staging läuft auf MariaDB 11.")["erfolg"]
    assert fetched(call)["kurzbeschreibung"] == "Datenbank von Staging"
    # both changed in one update: the caller's summary wins
    both = update(call, memory="Staging läuft auf SQLite.", kurzbeschreibung="Neu")
    assert both["erfolg"], json.dumps(both)
    assert fetched(call)["kurzbeschreibung"] == "Neu"
