"""Every write says where it went and who can find it (issue 26: with the printed development
token, memories inserted with `nutzer: "alice"` were not found by the same token's
search_memory or recall, and nothing in the answer said why)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.auth.principal import Principal
from shared.auth.verifiers import local_issuer
from shared.calls import CallRecord, CallState
from shared.config import Settings
from shared.domain import MemoryId, MemoryType
from shared.services.context import ServiceContext
from shared.services.memory_admin import prepare_delete
from shared.storage.sqlite import SqliteStorage
from shared.tools.dispatch import call_tool
from shared.validation.parsed import Caller, FetchRequest

Call = Callable[[str, dict[str, Any]], dict[str, Any]]


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[tuple[ServiceContext, Principal, Principal]]:
    settings = Settings(data_dir=tmp_path / "data")
    storage = SqliteStorage.in_data_dir(settings.data_dir)
    issuer = local_issuer(settings)
    dev = issuer.verify(issuer.development_token(600))
    alice = issuer.verify(
        issuer.issue(
            tenant="local",
            subject="alice",
            nutzer=["alice"],
            agents=["tour"],
            scopes=["memory:read", "memory:write"],
            ttl_seconds=600,
        )
    )
    yield ServiceContext(storage=storage, settings=settings), dev, alice
    storage.close()


def _insert(nutzer: str, agent: str, *texts: str) -> dict[str, Any]:
    entries = [
        {
            "kurzbeschreibung": text,
            "memory": f"{text}: Rückrufe nur vormittags.",
            "tags": [],
            "scope": "kunde",
            "scope_vk": "K-1",
            "nutzer": nutzer,
            "agent": agent,
        }
        for text in texts
    ]
    return {"inhalt": {"nutzer": nutzer, "agent": agent, "memories": entries}}


def test_a_development_token_writing_for_alice_is_told_where_it_went_and_how_to_find_it(
    setup: tuple[ServiceContext, Principal, Principal],
) -> None:
    ctx, dev, _ = setup
    # When the development token (it may act as anyone) inserts two memories for alice
    answer = call_tool(ctx, dev, "insert_brain_longterm_memory", _insert("alice", "x", "A", "B"))
    # Then every entry names its area, and the answer says once that this token's Memory OS
    # tools (acting as 'dev') do not find them there, and how to read them
    assert answer["erfolg"] is True
    assert [entry["bereich"] for entry in answer["daten"]] == ["users/alice", "users/alice"]
    hint = answer["hinweis"]
    assert "users/alice" in hint and "'dev'" in hint and "?nutzer=alice" in hint
    assert hint.count("users/alice") == 1
    # And that is true: the token's own search does not find them, a fetch as alice does
    found = call_tool(ctx, dev, "search_memory", {"query": "Rückrufe vormittags"})
    assert found["daten"]["treffer"] == []
    ids = [entry["ID"] for entry in answer["daten"]]
    fetched = call_tool(
        ctx,
        dev,
        "fetch_brain_memories",
        {"inhalt": {"nutzer": "alice", "agent": "x", "memories": {"longterm": ids}}},
    )
    assert [m["ID"] for m in fetched["daten"]["longterm"]] == ids


def test_remember_for_another_nutzer_says_so_too(
    setup: tuple[ServiceContext, Principal, Principal],
) -> None:
    ctx, dev, _ = setup
    answer = call_tool(
        ctx, dev, "remember", {"content": "Alice mag Tee.", "path": "users/alice/vorlieben"}
    )
    assert answer["erfolg"] is True
    assert answer["daten"]["bereich"] == "users/alice"
    assert "search_memory" in answer["daten"]["hinweis"]


def test_a_token_writing_where_it_reads_gets_no_hint(
    setup: tuple[ServiceContext, Principal, Principal],
) -> None:
    ctx, dev, alice = setup
    own = call_tool(ctx, alice, "insert_brain_longterm_memory", _insert("alice", "tour", "C"))
    assert own["daten"][0]["bereich"] == "users/alice"
    assert "hinweis" not in own
    # (the development token writing into its own acting nutzer's area: no hint either)
    mine = call_tool(ctx, dev, "insert_brain_longterm_memory", _insert("dev", "x", "D"))
    assert mine["daten"][0]["bereich"] == "users/dev" and "hinweis" not in mine
    remembered = call_tool(ctx, alice, "remember", {"content": "Tee.", "path": "users/alice/x"})
    assert "hinweis" not in remembered["daten"]


def test_an_update_says_where_the_memory_lies_and_as_whom_it_acted(
    setup: tuple[ServiceContext, Principal, Principal],
) -> None:
    ctx, dev, alice = setup
    ids = [
        e["ID"]
        for e in call_tool(ctx, dev, "insert_brain_longterm_memory", _insert("alice", "x", "E"))[
            "daten"
        ]
    ]
    change = {
        "inhalt": {"nutzer": "alice", "agent": "x", "memories": [{"ID": ids[0], "memory": "neu"}]}
    }
    # When the development token changes alice's memory acting as alice
    changed = call_tool(ctx, dev, "update_brain_memories", change)
    # Then the entry names area, path and acting nutzer, and the answer says once that
    # this token's Memory OS tools do not look there
    (entry,) = changed["daten"]
    assert (entry["bereich"], entry["pfad"], entry["handelnd_als"]) == (
        "users/alice",
        "users/alice",
        "alice",
    )
    assert "'dev'" in changed["hinweis"] and "?nutzer=alice" in changed["hinweis"]
    # And alice's own token changing it gets the place without the hint
    own = call_tool(
        ctx,
        alice,
        "update_brain_memories",
        {**change, "inhalt": {**change["inhalt"], "agent": "tour"}},
    )
    assert own["daten"][0]["bereich"] == "users/alice" and "hinweis" not in own


def test_a_delete_says_where_each_forgotten_memory_was(
    setup: tuple[ServiceContext, Principal, Principal],
) -> None:
    ctx, dev, _ = setup
    alices = call_tool(ctx, dev, "insert_brain_longterm_memory", _insert("alice", "x", "F"))
    remembered = call_tool(ctx, dev, "remember", {"content": "Tee.", "path": "users/dev/notizen"})
    ids = [alices["daten"][0]["ID"], remembered["daten"]["ID"]]
    forget = {"inhalt": {"nutzer": "dev", "agent": "x", "memories": {"longterm": ids}}}
    # When the token acting as dev deletes its own memory and (not visible to dev) alice's
    deleted = call_tool(ctx, dev, "delete_brain_memories", forget)
    # Then the answer says where the forgotten one was and as whom the call acted
    assert deleted["daten"] == {
        "geloescht": [ids[1]],
        "nicht_gefunden": [ids[0]],
        "orte": [{"ID": ids[1], "bereich": "users/dev", "pfad": "users/dev/notizen"}],
        "handelnd_als": "dev",
        "entfernt": ["erinnerung", "bewertungen", "vektor", "suchindex"],
    }


@pytest.mark.parametrize(
    ("mark", "place"),
    [
        (
            '["longterm_1", "users/alice", "users/alice"]',
            {"bereich": "users/alice", "pfad": "users/alice"},
        ),
        ("longterm_1", {}),  # a record written before marks carried places
    ],
)
def test_a_resent_delete_names_the_place_its_mark_recorded(
    setup: tuple[ServiceContext, Principal, Principal], mark: str, place: dict[str, str]
) -> None:
    ctx, _, alice = setup
    call_tool(ctx, alice, "insert_brain_longterm_memory", _insert("alice", "tour", "G"))
    request = FetchRequest(
        caller=Caller(nutzer="alice", agent="tour"),
        referenzfelder={},
        shortterm=[],
        longterm=["longterm_1"],
    )
    # Given a delete whose first send removed the memory and died before answering
    first = ctx.storage.delete_memories("local", [MemoryId(MemoryType.LONGTERM, 1)], ctx.clock())
    assert first == [MemoryId(MemoryType.LONGTERM, 1)]
    write = prepare_delete(ctx, alice, request)
    write.ahead()
    # When its resend runs with the record's mark
    resumed = CallRecord(CallState.RESUMED, "t", "b", marks=frozenset({mark}))
    daten = write.store(ctx, resumed).envelope["daten"]
    # Then it answers the memory as deleted, where the mark says it was
    assert daten["geloescht"] == ["longterm_1"]
    assert daten["orte"] == [{"ID": "longterm_1", **place}]
