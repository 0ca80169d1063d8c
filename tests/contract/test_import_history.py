"""`brain export` → `brain import` keeps what issue 25 added, on every adapter: a replaced
memory comes back replaced (by its successor's new ID; out of default search, readable by
ID), also when a long-term memory replaced a short-term one (exported before it); and two
near-duplicates stored on purpose come back as two (an import restores, it merges nothing).
Through `import_file`, the CLI's service: validation, authorization, retry layer, scrubbing,
storage."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.services.context import ServiceContext
from shared.services.export import export_lines
from shared.services.imports import import_file
from shared.storage.port import StoragePort
from shared.tools.dispatch import call_tool

TENANT = "history"


def anna(tenant: str) -> Principal:
    return Principal(
        tenant=tenant,
        subject=f"{tenant}:anna",
        nutzer=frozenset({"anna"}),
        agents=frozenset({"bot"}),
        scopes=ALL_SCOPES,
    )


@pytest.fixture
def ctx(storage: StoragePort, tmp_path: Path) -> ServiceContext:
    return ServiceContext(storage, Settings(data_dir=tmp_path))


def insert(ctx: ServiceContext, typ: str, text: str, **referenzfelder: Any) -> str:
    entry: dict[str, Any] = {
        "kurzbeschreibung": text[:30],
        "memory": text,
        "tags": [],
        "scope": "",
        "scope_vk": "",
        "nutzer": "anna",
        "agent": "bot",
    }
    if typ == "shortterm":
        entry["ttl_sekunden"] = 3600
    arguments = {
        "inhalt": {"memories": [entry], "nutzer": "anna", "agent": "bot"},
        "referenzfelder": referenzfelder,
    }
    answer = call_tool(ctx, anna(TENANT), f"insert_brain_{typ}_memory", arguments)
    (result,) = answer["daten"]
    assert result["erfolg"] is True and "duplikat_von" not in result, answer
    return str(result["ID"])


def memories(ctx: ServiceContext, tenant: str) -> list[dict[str, Any]]:
    lines = [line for line in export_lines(ctx, tenant) if line.get("art") == "memory"]
    for line in lines:
        line["eintrag"].pop("ttl_sekunden", None)
    return lines


def search(ctx: ServiceContext, tenant: str, query: str) -> list[str]:
    answer = call_tool(ctx, anna(tenant), "search_memory", {"query": query, "limit": 10})
    return [hit["memory"] for hit in answer["daten"]["treffer"]]


def fetched(ctx: ServiceContext, tenant: str, memory_id: str) -> dict[str, Any]:
    typ = memory_id.partition("_")[0]
    arguments = {"inhalt": {"memories": {typ: [memory_id]}, "nutzer": "anna", "agent": "bot"}}
    answer = call_tool(ctx, anna(tenant), "fetch_brain_memories", arguments)
    (memory,) = answer["daten"][typ]
    return dict(memory)


def run_import(ctx: ServiceContext, tmp_path: Path, lines: list[dict[str, Any]]) -> int:
    path = tmp_path / "export.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return import_file(ctx, path, "copy", "operator", "brain-import")


OLD = "Das Team-Standup ist montags um 9 Uhr im Raum Nord."
NEW = "Das Team-Standup ist ab Juni dienstags um 10 Uhr im Raum Süd."
TEMP = "Heute parkt der Lieferwagen ausnahmsweise vor Tor 3."
FINAL = "Der Lieferwagen parkt ab sofort immer vor Tor 3."
NOTE = "Kunde Meyer wünscht Rückrufe nur vormittags zwischen 9 und 11 Uhr."
NOTE_AGAIN = "Kunde Meyer wünscht Rückrufe nur vormittags, zwischen 9 und 11 Uhr."


def test_replaced_memories_and_near_duplicates_survive_export_and_import(
    ctx: ServiceContext, tmp_path: Path
) -> None:
    # Given a replaced long-term memory, a short-term one replaced by a long-term one, and
    # two near-duplicates stored on purpose
    old = insert(ctx, "longterm", OLD)
    insert(ctx, "longterm", NEW, ersetzt=old)
    temp = insert(ctx, "shortterm", TEMP)
    insert(ctx, "longterm", FINAL, ersetzt=temp)
    insert(ctx, "longterm", NOTE)
    insert(ctx, "longterm", NOTE_AGAIN, duplikat_erlaubt=True)
    exported = memories(ctx, TENANT)
    assert len(exported) == 6
    assert {line["eintrag"]["memory"]: line.get("ersetzt_durch") is not None for line in exported}[
        OLD
    ]
    # When the export is imported into another tenant (twice: a re-run stores nothing twice)
    lines = list(export_lines(ctx, TENANT))
    assert run_import(ctx, tmp_path, lines) == 0
    assert run_import(ctx, tmp_path, lines) == 0
    # Then the copy exports the same memories with the same links, each memory once
    copied = memories(ctx, "copy")
    assert len(copied) == 6
    assert copied == exported
    # And default search there finds the successors, not what they replaced
    assert search(ctx, "copy", "Team-Standup Raum") == [NEW]
    assert search(ctx, "copy", "Lieferwagen Tor") == [FINAL]
    # And a replaced memory is still readable by ID, naming its successor in the copy
    by_text = {line["eintrag"]["memory"]: line["ID"] for line in copied}
    replaced = fetched(ctx, "copy", by_text[TEMP])
    assert replaced["ersetzt_durch"] == by_text[FINAL]
    assert replaced["gueltig_bis"] is not None


def test_a_successor_missing_from_the_file_leaves_the_memory_current(
    ctx: ServiceContext, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a replaced memory whose successor was deleted (history stays history)
    old = insert(ctx, "longterm", OLD)
    new = insert(ctx, "longterm", NEW, ersetzt=old)
    gone = {"inhalt": {"memories": {"longterm": [new]}, "nutzer": "anna", "agent": "bot"}}
    assert call_tool(ctx, anna(TENANT), "delete_brain_memories", gone)["erfolg"] is True
    # When it is exported and imported
    assert run_import(ctx, tmp_path, list(export_lines(ctx, TENANT))) == 0
    # Then the memory is there and current, and the import said so
    assert search(ctx, "copy", "Team-Standup Raum") == [OLD]
    assert "ersetzt_durch nennt" in capsys.readouterr().err


def test_a_link_the_successors_author_may_not_make_fails_its_line(
    ctx: ServiceContext, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a crafted file: bob's memory claims to have replaced anna's private one
    def line(memory_id: str, nutzer: str, text: str, **extra: Any) -> dict[str, Any]:
        entry = {
            **{"kurzbeschreibung": text[:30], "memory": text, "tags": []},
            **{"scope": "", "scope_vk": "", "nutzer": nutzer, "agent": "bot"},
        }
        area = f"users/{nutzer}"
        head = {"art": "memory", "typ": "longterm", "ID": memory_id, "bereich": area}
        return {**head, "referenzfelder": {}, "eintrag": entry, **extra}

    lines = [
        line("longterm_1", "anna", OLD, ersetzt_durch="longterm_2"),
        line("longterm_2", "bob", NEW),
    ]
    # When it is imported
    assert run_import(ctx, tmp_path, lines) == 1
    # Then both memories are stored, anna's stays current, and line 1 is reported (to bob,
    # anna's private memory does not exist)
    assert search(ctx, "copy", "Team-Standup Raum") == [OLD]
    out, err = capsys.readouterr()
    assert "Zeile 1:" in err and "nicht_gefunden" in err  # bob cannot see it
    assert "Importiert: 1, fehlgeschlagen: 1" in out
