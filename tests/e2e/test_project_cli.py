"""`brain project add-member`: the owner adds members on the command line; the server on
the same data directory sees them at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.cli import main
from shared.config import Settings
from shared.services.context import ServiceContext
from shared.services.memory_os import remember, search_memory
from shared.storage.sqlite import SqliteStorage
from shared.validation.memory_requests import parse_remember, parse_search


def principal(nutzer: str) -> Principal:
    return Principal(
        tenant="acme",
        subject=nutzer,
        nutzer=frozenset({nutzer}),
        agents=frozenset({"bot"}),
        scopes=ALL_SCOPES,
    )


def test_owner_adds_members_and_others_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given alice's project memory-os with one memory
    data_dir = tmp_path / "data"
    settings = Settings(data_dir=data_dir)
    with SqliteStorage.in_data_dir(data_dir) as storage:
        ctx = ServiceContext(storage, settings)
        created = remember(
            ctx,
            principal("alice"),
            parse_remember(
                {
                    "content": "Kickoff am Montag",
                    "path": "projects/memory-os/x",
                    "create_project": True,
                }
            ),
        )
        assert created["erfolg"]
    common = ["--tenant", "acme", "--data-dir", str(data_dir)]
    # When bob tries to add himself, and alice adds bob and carla
    refused = main(["project", "add-member", "memory-os", "bob", "--owner", "bob", *common])
    refused_err = capsys.readouterr().err
    added = main(
        ["project", "add-member", "memory-os", "bob", "carla", "--owner", "alice", *common]
    )
    out = capsys.readouterr().out
    # Then only the owner succeeds, in German, and the refusal matches a missing project's
    assert refused == 1 and "nicht berechtigt" in refused_err
    missing = main(["project", "add-member", "ghost", "bob", "--owner", "bob", *common])
    assert capsys.readouterr().err.replace("ghost", "P") == refused_err.replace("memory-os", "P")
    assert missing == 1
    assert added == 0
    assert "Mitglieder: alice, bob, carla" in out
    # And bob now finds the project's memory
    with SqliteStorage.in_data_dir(data_dir) as storage:
        found = search_memory(
            ServiceContext(storage, settings), principal("bob"), parse_search({"query": "Kickoff"})
        )
    assert [hit["ID"] for hit in found["daten"]["treffer"]] == [created["daten"]["ID"]]
    # When alice removes bob again (and tries to remove herself)
    herself = main(["project", "remove-member", "memory-os", "alice", "--owner", "alice", *common])
    assert herself == 1 and "Eigentümer" in capsys.readouterr().err
    removed = main(["project", "remove-member", "memory-os", "bob", "--owner", "alice", *common])
    # Then he is no member any more
    assert removed == 0
    assert "Mitglieder: alice, carla" in capsys.readouterr().out
