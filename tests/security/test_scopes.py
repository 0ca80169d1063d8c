"""Scopes per tool: a valid token without the tool's scope gets 403 and writes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.services.context import ServiceContext
from shared.storage.port import StoragePort
from shared.tools.catalog import TOOLS
from shared.tools.dispatch import call_tool
from tests.conftest import InProcessServer
from tests.e2e.helpers import brain_entry, insert_args, memory_entry, rate_args, upsert_args
from tests.security.conftest import Tokens, stored_state
from tests.security.test_tokens import ACCEPT, tool_call

pytestmark = pytest.mark.anyio

IDENTITY = {"nutzer": "anna", "agent": "bot"}


def valid_arguments(tool: str) -> dict[str, Any]:
    """A call of each tool that would succeed (or at least write) with the right scope."""
    entry = memory_entry(**IDENTITY)
    arguments: dict[str, dict[str, Any]] = {
        "fetch_brain_memories": {"inhalt": {"memories": {"longterm": ["longterm_1"]}, **IDENTITY}},
        "insert_brain_longterm_memory": insert_args(entry, **IDENTITY),
        "insert_brain_shortterm_memory": insert_args(entry, **IDENTITY),
        "rate_brain_memories": rate_args(("longterm_1", 5)),
        "select_brain": {"query": "Maschinenbauer", **IDENTITY},
        "upsert_brain": upsert_args(brain_entry()),
        "update_brain_memories": {
            "inhalt": {"memories": [{"ID": "longterm_1", "memory": "neu"}], **IDENTITY}
        },
        "delete_brain_memories": {"inhalt": {"memories": {"longterm": ["longterm_1"]}, **IDENTITY}},
        "remember": {"content": "Notiz", "path": "users/anna/notizen"},
        "search_memory": {"query": "Notiz"},
        "recall": {"query": "Notiz"},
        "recall_context": {"task": "Notiz"},
        "ledger": {
            "inhalt": {
                "aktion": "buchen",
                "eintraege": [
                    {
                        "art": "ausgabe",
                        "betrag": "9.99",
                        "waehrung": "EUR",
                        "datum": "2026-11-30",
                        "gegenpartei": "Laden",
                        "kategorie": "material",
                        "path": "users/anna/finanzen",
                    }
                ],
            }
        },
    }
    call = arguments[tool]
    if "inhalt" in call and tool != "ledger":  # the ledger acts as the token's own nutzer
        call["inhalt"].update(IDENTITY)
        for item in call["inhalt"].get("memories", []):
            if isinstance(item, dict) and "parameter" in item:
                item["parameter"]["agent"] = "bot"
    return call


SCOPE_CASES = [
    (tool, spec.needed_scope(valid_arguments(tool)).value) for tool, spec in sorted(TOOLS.items())
]


@pytest.mark.parametrize(("tool", "scope"), SCOPE_CASES)
async def test_each_tool_without_its_scope_is_403(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens, tool: str, scope: str
) -> None:
    # Given a token with every scope except the one this tool needs
    token = tokens.make(scopes=ALL_SCOPES - {scope})
    before = stored_state(backend)
    # When it calls the tool
    async with secure_server.http() as http:
        response = await http.post(
            "/mcp",
            json=tool_call(tool, valid_arguments(tool)),
            headers={"Authorization": f"Bearer {token}", "Accept": ACCEPT},
        )
    # Then the answer is 403 insufficient_scope naming the scope
    assert response.status_code == 403
    challenge = response.headers["www-authenticate"]
    assert 'error="insufficient_scope"' in challenge
    assert f'scope="{scope}"' in challenge
    assert response.json()["scope"] == scope
    # And the description says how to get the right: a token with that scope
    assert f'--scopes "{scope}' in response.json()["error_description"]
    # And nothing was written
    assert stored_state(backend) == before


WRITE_TOOLS = sorted(name for name, spec in TOOLS.items() if not spec.read_only)


@pytest.mark.parametrize("tool", WRITE_TOOLS)
async def test_read_only_token_cannot_use_any_write_tool(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens, tool: str
) -> None:
    token = tokens.make(scopes=frozenset({"memory:read", "brain:read"}))
    before = stored_state(backend)
    async with secure_server.http() as http:
        response = await http.post(
            "/mcp",
            json=tool_call(tool, valid_arguments(tool)),
            headers={"Authorization": f"Bearer {token}", "Accept": ACCEPT},
        )
    assert response.status_code == 403
    assert stored_state(backend) == before


async def test_help_needs_no_scope(secure_server: InProcessServer, tokens: Tokens) -> None:
    # A token without scopes may still ask a tool to describe itself.
    token = tokens.make(scopes=frozenset())
    async with secure_server.http() as http:
        response = await http.post(
            "/mcp",
            json=tool_call("upsert_brain", {"inhalt": {}, "help": 1}),
            headers={"Authorization": f"Bearer {token}", "Accept": ACCEPT},
        )
    assert response.status_code == 200
    assert response.json()["result"]["structuredContent"]["daten"]["tool"] == "upsert_brain"


@pytest.mark.parametrize(("tool", "scope"), SCOPE_CASES)
def test_dispatcher_refuses_missing_scope_as_tool_error(
    backend: StoragePort, settings: Any, tool: str, scope: str
) -> None:
    # Where no HTTP layer stands in front (Lambda invoke, CLI), the dispatcher itself refuses.
    principal = Principal(
        tenant="acme",
        subject="s",
        nutzer=frozenset({"anna"}),
        agents=frozenset({"bot"}),
        scopes=frozenset(ALL_SCOPES - {scope}),
    )
    before = stored_state(backend)
    envelope = call_tool(ServiceContext(backend, settings), principal, tool, valid_arguments(tool))
    assert envelope["erfolg"] is False
    assert envelope["fehler"][0]["feld"] == "scope"
    assert scope in envelope["fehler"][0]["meldung"]
    assert f'--scopes "{scope}' in envelope["fehler"][0]["meldung"]
    assert stored_state(backend) == before


def test_a_team_write_without_membership_says_how_to_get_it(
    backend: StoragePort, settings: Any
) -> None:
    principal = Principal(
        tenant="acme",
        subject="anna",
        nutzer=frozenset({"anna"}),
        agents=frozenset({"bot"}),
        scopes=frozenset(ALL_SCOPES),
    )
    before = stored_state(backend)
    arguments = {"content": "Retro am Freitag.", "path": "teams/core/prozess"}
    envelope = call_tool(ServiceContext(backend, settings), principal, "remember", arguments)
    assert envelope["erfolg"] is False
    message = envelope["fehler"][0]["meldung"]
    assert "kein Mitglied dieses Teams" in message and "--teams <team>" in message
    assert "core" not in message  # a refusal never repeats the refused value
    assert stored_state(backend) == before
