"""Issue 11: every stored string is scrubbed or refused, control characters are refused per
entry with nothing written, and answers hold only what the token's scopes allow. Each test
runs on both adapters (SQLite and DynamoDB on moto) through a real MCP client."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from shared.storage.port import StoragePort
from tests.conftest import InProcessServer
from tests.e2e.helpers import brain_entry, call, insert_args, memory_entry, upsert_args
from tests.security.conftest import TENANT_A, Tokens, stored_state
from tests.security.test_secret_scrubbing import stored_bytes

pytestmark = pytest.mark.anyio

IDENTITY = {"nutzer": "anna", "agent": "bot"}
# Fake credentials in real formats, assembled at run time (no token-shaped literals in git).
GITHUB = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
SLACK = "xoxb-" + "123456789012-1234567890123-abcdefghijklmnopqrstuvwx"


def entry(**overrides: Any) -> dict[str, Any]:
    return memory_entry(**{**IDENTITY, **overrides})


def tag_existed(backend: StoragePort, name: str) -> bool:
    """A tag existed iff ensure_tags answers with a stored spelling other than ours (the
    probe asks in lower case; every test tag is written with capitals)."""
    return backend.ensure_tags(TENANT_A, [name.lower()])[name.lower()] != name.lower()


# --- control characters ---------------------------------------------------------------------


async def test_nul_in_a_tag_refuses_only_that_entry_and_writes_nothing_for_it(
    secure_server: InProcessServer,
    backend: StoragePort,
    tokens: Tokens,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Given a batch with a valid entry and one whose tags hold a NUL (issue: "x\u0000y")
    caplog.set_level(logging.DEBUG)
    bad = entry(tags=["Neu-Tag", "x\u0000y"])
    async with secure_server.client(tokens.make()) as client:
        envelope = await call(
            client, "insert_brain_longterm_memory", insert_args(entry(), bad, **IDENTITY)
        )
        # When the next memory is inserted
        # (another memory: the same one again would be answered as its near-duplicate)
        other = entry(memory="Kunde K-1002 möchte Rückrufe nur zwischen 13 und 15 Uhr.")
        after = await call(client, "insert_brain_longterm_memory", insert_args(other, **IDENTITY))
    # Then the valid entry is stored, the other refused with a German rule in the envelope
    assert [result["erfolg"] for result in envelope["daten"]] == [True, False]
    assert envelope["daten"][0]["ID"] == "longterm_1"
    error = envelope["daten"][1]["fehler"][0]
    assert error["feld"] == "inhalt.memories[1].tags[1]"
    assert "Steuerzeichen" in error["meldung"]
    # And the refused entry advanced no counter and created no tag
    assert after["daten"][0]["ID"] == "longterm_2"
    assert not tag_existed(backend, "Neu-Tag")
    # And the value was never logged
    assert "x\x00y" not in caplog.text and "x\\u0000y" not in caplog.text


async def test_nul_in_upsert_brain_refuses_the_entry_without_side_effects(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens
) -> None:
    bad = brain_entry(titel="Ti\u0000tel", tags=["Brain-Tag"])
    arguments = upsert_args(brain_entry(), bad)
    arguments["inhalt"].update(IDENTITY)
    async with secure_server.client(tokens.make()) as client:
        envelope = await call(client, "upsert_brain", arguments)
        again = upsert_args(brain_entry())
        again["inhalt"].update(IDENTITY)
        after = await call(client, "upsert_brain", again)
    assert [result["erfolg"] for result in envelope["daten"]] == [True, False]
    assert envelope["daten"][1]["fehler"][0]["feld"] == "inhalt.eintraege[1].titel"
    assert after["daten"][0]["ID"] == envelope["daten"][0]["ID"] + 1
    assert not tag_existed(backend, "Brain-Tag")


async def test_nul_in_update_brain_memories_changes_nothing(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens
) -> None:
    async with secure_server.client(tokens.make()) as client:
        await call(client, "insert_brain_longterm_memory", insert_args(entry(), **IDENTITY))
        before = stored_state(backend)
        change = {"ID": "longterm_1", "memory": "neu\u0000", "tags": ["Upd-Tag"]}
        envelope = await call(
            client, "update_brain_memories", {"inhalt": {"memories": [change], **IDENTITY}}
        )
    assert envelope["erfolg"] is False
    assert envelope["daten"][0]["fehler"][0]["feld"] == "inhalt.memories[0].memory"
    assert stored_state(backend) == before
    assert not tag_existed(backend, "Upd-Tag")


# --- secrets in fields that cannot hold a marker ---------------------------------------------


def _insert_with(**fields: Any) -> tuple[str, dict[str, Any]]:
    return "insert_brain_longterm_memory", insert_args(entry(**fields), **IDENTITY)


def _upsert_with(**fields: Any) -> tuple[str, dict[str, Any]]:
    arguments = upsert_args(brain_entry(**fields))
    arguments["inhalt"].update(IDENTITY)
    return "upsert_brain", arguments


IDENTIFIER_CASES: dict[str, tuple[tuple[str, dict[str, Any]], str]] = {
    "scope": (_insert_with(scope=GITHUB), "inhalt.memories[0].scope"),
    "scope_vk": (_insert_with(scope_vk=f"K-{GITHUB}"), "inhalt.memories[0].scope_vk"),
    "embedding_profil_hash": (
        _insert_with(embedding_profil_hash=GITHUB),
        "inhalt.memories[0].embedding_profil_hash",
    ),
    "vk_referenz_id": (_upsert_with(vk_referenz_id=GITHUB), "inhalt.eintraege[0].vk_referenz_id"),
    "stammdaten key": (
        _upsert_with(stammdaten={GITHUB: "x", "ort": "Ulm"}),
        "inhalt.eintraege[0].stammdaten",
    ),
    "referenzfelder key": (
        (
            "insert_brain_longterm_memory",
            {**insert_args(entry(), **IDENTITY), "referenzfelder": {GITHUB: 1}},
        ),
        "referenzfelder",
    ),
    "update scope": (
        (
            "update_brain_memories",
            {"inhalt": {"memories": [{"ID": "longterm_1", "scope_vk": GITHUB}], **IDENTITY}},
        ),
        "inhalt.memories[0].scope_vk",
    ),
    "remember path": (("remember", {"content": "Notiz", "path": f"users/anna/{SLACK}"}), "path"),
}


@pytest.mark.parametrize("case", sorted(IDENTIFIER_CASES))
async def test_a_secret_in_an_identifier_key_or_path_refuses_the_entry(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens, case: str
) -> None:
    (tool, arguments), field = IDENTIFIER_CASES[case]
    async with secure_server.client(tokens.make()) as client:
        if tool == "update_brain_memories":
            await call(client, "insert_brain_longterm_memory", insert_args(entry(), **IDENTITY))
        before = stored_state(backend)
        envelope = await call(client, tool, arguments)
    # Then the entry (or call) is refused naming the field, never echoing the secret
    errors = envelope.get("fehler") or []
    assert envelope["erfolg"] is False
    assert any(e["feld"] == field and "Sicherheitsablehnung" in e["meldung"] for e in errors)
    assert GITHUB not in str(envelope) and SLACK not in str(envelope)
    # And nothing was stored, the secret reached no storage byte
    assert stored_state(backend) == before
    assert GITHUB.encode() not in stored_bytes(backend)
    assert SLACK.encode() not in stored_bytes(backend)


@pytest.mark.parametrize("field", ["nutzer", "agent"])
async def test_a_wildcard_token_cannot_store_a_secret_as_identity(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens, field: str
) -> None:
    # Given a service token that may act as any nutzer and agent
    token = tokens.make(nutzer=("*",), agents=("*",))
    arguments = insert_args(entry(**{field: GITHUB}), **IDENTITY)
    async with secure_server.client(token) as client:
        envelope = await call(client, "insert_brain_longterm_memory", arguments)
    assert envelope["erfolg"] is False
    assert envelope["fehler"][0]["feld"] == f"inhalt.memories[0].{field}"
    assert GITHUB.encode() not in stored_bytes(backend)


async def test_referenzfelder_keys_are_never_echoed_in_errors(
    secure_server: InProcessServer, tokens: Tokens
) -> None:
    # Given referenzfelder whose secret-shaped key holds an invalid (nested) value
    arguments = {**insert_args(entry(), **IDENTITY), "referenzfelder": {GITHUB: {"a": 1}}}
    async with secure_server.client(tokens.make()) as client:
        envelope = await call(client, "insert_brain_longterm_memory", arguments)
    # Then the error names the key by position only
    assert envelope["fehler"][0]["feld"] == "referenzfelder[Schlüssel 0]"
    assert GITHUB[:12] not in str(envelope)


# --- answers limited by scopes ---------------------------------------------------------------


async def test_recall_context_without_brain_read_returns_no_brain_entries(
    secure_server: InProcessServer, tokens: Tokens
) -> None:
    # Given a brain entry about K-1001 and a memory that refers to it
    async with secure_server.client(tokens.make()) as client:
        arguments = upsert_args(brain_entry())
        arguments["inhalt"].update(IDENTITY)
        await call(client, "upsert_brain", arguments)
        await call(client, "insert_brain_longterm_memory", insert_args(entry(), **IDENTITY))
        full = await call(client, "recall_context", {"task": "Rückrufe Kunde"})
    memory_only = tokens.make(scopes=frozenset({"memory:read", "memory:write"}))
    async with secure_server.client(memory_only) as client:
        limited = await call(client, "recall_context", {"task": "Rückrufe Kunde"})
    # Then the token with brain:read sees the entry, the one without gets none
    assert [item["vk_referenz_id"] for item in full["daten"]["brain"]] == ["K-1001"]
    assert limited["daten"]["brain"] == []
    assert limited["daten"]["erinnerungen"]
