"""Every authorization refusal says how to get the right it lacks (issue 26: "nicht
berechtigt: kein Mitglied im Team 'core'." left the way out to the README) — scope, acting
nutzer or agent, another nutzer's area, team, project — and never repeats the refused value."""

from __future__ import annotations

from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.auth.principal import Principal
from shared.config import Settings
from shared.services.context import ServiceContext
from shared.storage.sqlite import SqliteStorage
from shared.tools.dispatch import call_tool


@pytest.fixture
def alice(
    settings: Settings, sqlite_storage: SqliteStorage, issuer: LocalTokenIssuer
) -> tuple[ServiceContext, Principal]:
    token = issuer.issue(
        tenant="local",
        subject="alice",
        nutzer=["alice"],
        agents=["tour"],
        scopes=["memory:read", "memory:write"],
        ttl_seconds=600,
    )
    return ServiceContext(storage=sqlite_storage, settings=settings), issuer.verify(token)


def _message(answer: dict[str, Any]) -> str:
    assert answer["erfolg"] is False
    (error,) = answer["fehler"]
    assert error["art"] == "nicht_berechtigt"
    return str(error["meldung"])


def _insert(nutzer: str, agent: str) -> dict[str, Any]:
    entry = {"kurzbeschreibung": "K", "memory": "Text.", "tags": [], "scope": "s", "scope_vk": "v"}
    return {"inhalt": {"nutzer": nutzer, "agent": agent, "memories": [entry]}}


@pytest.mark.parametrize(
    ("arguments", "way", "refused"),
    [
        (_insert("mallory", "tour"), "--nutzer <nutzer>", "mallory"),
        (_insert("alice", "spion"), "--agent <agent>", "spion"),
    ],
)
def test_acting_as_someone_else_says_how(
    alice: tuple[ServiceContext, Principal], arguments: dict[str, Any], way: str, refused: str
) -> None:
    ctx, principal = alice
    message = _message(call_tool(ctx, principal, "insert_brain_longterm_memory", arguments))
    assert way in message and "brain token" in message and refused not in message


@pytest.mark.parametrize(
    ("path", "ways", "refused"),
    [
        ("users/bob/notizen", ("--nutzer <nutzer>", "?nutzer=", "teams/<team>"), "bob"),
        ("teams/kern/plan", ("--teams <team>",), "kern"),
        ("projects/geheim/plan", ("create_project=true", "/mitglieder", "--projects"), "geheim"),
    ],
)
def test_a_write_into_an_area_not_granted_says_how(
    alice: tuple[ServiceContext, Principal], path: str, ways: tuple[str, ...], refused: str
) -> None:
    ctx, principal = alice
    answer = call_tool(ctx, principal, "remember", {"content": "Notiz.", "path": path})
    message = _message(answer)
    assert all(way in message for way in ways), message
    assert refused not in message
