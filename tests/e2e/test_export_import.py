"""`brain export` → `brain import` round trip (issue 12): a tenant's brain entries and
memories (with areas, embeddings and short-term lifetimes) come back equal in another
tenant, and an exported memory entry is accepted by the insert tool itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.cli import main
from shared.config import Settings
from tests.conftest import InProcessServer
from tests.e2e.helpers import brain_entry, call, insert_args, memory_entry, upsert_args
from tests.e2e.test_memory_tools import token_for

pytestmark = pytest.mark.anyio


def export(settings: Settings, tenant: str, target: Path) -> list[dict[str, Any]]:
    args = ["export", str(target), "--tenant", tenant, "--data-dir", str(settings.data_dir)]
    assert main(args) == 0
    return [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]


def without_lifetime(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Lines with the short-term lifetime taken out (it shrinks while the test runs)."""
    out = []
    for line in lines:
        if "eintrag" in line:
            line = {
                **line,
                "eintrag": {k: v for k, v in line["eintrag"].items() if k != "ttl_sekunden"},
            }
        out.append(line)
    return out


async def test_export_import_round_trip(
    server: InProcessServer,
    dev_token: str,
    issuer: LocalTokenIssuer,
    settings: Settings,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given a tenant with a brain entry, long-term memories (one with an embedding), a
    # short-term memory, a team memory and a project memory
    async with server.client(dev_token) as client:
        await call(client, "upsert_brain", upsert_args(brain_entry()))
        await call(
            client,
            "insert_brain_longterm_memory",
            insert_args(
                memory_entry(embedding=[0.25, -1.5, 3.0], embedding_profil_hash="p1"),
                memory_entry(memory="Skonto 2 % für K-1001.", tags=[]),
            ),
        )
        await call(
            client,
            "insert_brain_shortterm_memory",
            insert_args(memory_entry(memory="Heute Anruf wegen Lieferung.", ttl_sekunden=3600)),
        )
    async with server.client(token_for(issuer, "9", teams=["ops"])) as client:
        for body in (
            {"content": "Deploy-Fenster dienstags", "path": "teams/ops/betrieb"},
            {"content": "Roadmap Q3 steht", "path": "projects/apollo/plan", "create_project": True},
        ):
            assert (await call(client, "remember", body))["erfolg"]
    # When it is exported, imported into another tenant and exported from there
    first = export(settings, "local", tmp_path / "local.jsonl")
    code = main(
        [
            "import",
            str(tmp_path / "local.jsonl"),
            "--tenant",
            "copy",
            "--data-dir",
            str(settings.data_dir),
            "--team",
            "OPS=9",
        ]
    )
    assert code == 0, capsys.readouterr().err
    second = export(settings, "copy", tmp_path / "copy.jsonl")
    # Then both exports are equal (brain entries and memories, in order), and every kind
    # of line was there: brain (2: the entry and the project), 4 long-term, 1 short-term,
    # the project's record
    assert without_lifetime(second) == without_lifetime(first)
    kinds = [line.get("typ", line.get("art", "brain")) for line in first]
    assert kinds == ["brain"] * 2 + ["longterm"] * 4 + ["shortterm", "projekt"]
    assert first[-1] == {"art": "projekt", "name": "apollo", "owner": "9", "mitglieder": ["9"]}
    short = first[6]["eintrag"]
    assert 3500 < short["ttl_sekunden"] <= 3600
    assert first[2]["eintrag"]["embedding"] == [0.25, -1.5, 3.0]
    assert {line.get("bereich") for line in first[2:7]} == {
        "users/42",
        "teams/ops",
        "projects/apollo",
    }
    # And in the new tenant the areas hold: nutzer 9 finds the project memory (it owns the
    # imported project) and, as a member of ops, the team memory; nutzer 42 neither
    tokens = {
        "9": issuer.issue(
            tenant="copy",
            subject="copy:9",
            nutzer=["9"],
            agents=["bot"],
            scopes=["memory:read"],
            ttl_seconds=600,
            teams=["ops"],
        ),
        "42": issuer.issue(
            tenant="copy",
            subject="copy:42",
            nutzer=["42"],
            agents=["bot"],
            scopes=["memory:read"],
            ttl_seconds=600,
        ),
    }
    found: dict[str, set[str]] = {}
    for nutzer, token in tokens.items():
        async with server.client(token) as client:
            answer = await call(client, "search_memory", {"query": "Roadmap Deploy", "limit": 10})
        found[nutzer] = {hit["bereich"] for hit in answer["daten"]["treffer"]}
    assert found == {"9": {"teams/ops", "projects/apollo"}, "42": set()}
    # And an exported memory entry is what the insert tool takes
    async with server.client(dev_token) as client:
        entry = first[2]["eintrag"]
        stored = await call(
            client,
            "insert_brain_longterm_memory",
            {"inhalt": {"memories": [entry], "nutzer": entry["nutzer"], "agent": entry["agent"]}},
        )
    assert stored["erfolg"] is True


def test_import_reports_bad_memory_lines(
    settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a file with a memory line without area and one whose entry breaks a rule
    lines = [
        {"art": "memory", "typ": "longterm", "bereich": "nirgendwo", "eintrag": {}},
        {"art": "memory", "typ": "longterm", "bereich": "users/a", "eintrag": {"memory": ""}},
    ]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    # When it is imported, Then both lines are reported in German, nothing is stored
    assert main(["import", str(path), "--data-dir", str(settings.data_dir)]) == 1
    err = capsys.readouterr().err
    assert "Zeile 1: bereich: Erinnerung braucht typ" in err and "Zeile 2:" in err
    assert main(["export", str(tmp_path / "out.jsonl"), "--data-dir", str(settings.data_dir)]) == 0
    assert (tmp_path / "out.jsonl").read_text(encoding="utf-8") == ""
