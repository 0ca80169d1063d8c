"""Calling Brain tools through a real MCP client and reading the contract envelope."""

from __future__ import annotations

import json
from typing import Any

from fastmcp import Client


async def call(client: Client[Any], tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The envelope of one tool call; structured content and text must agree."""
    result = await client.call_tool(tool, arguments, raise_on_error=False)
    envelope = result.structured_content
    assert isinstance(envelope, dict)
    text = result.content[0].text  # type: ignore[union-attr]
    if "text" in envelope:  # Memory OS tools answer with a sentence
        assert text == envelope["text"]
    else:
        assert json.loads(text) == envelope
    assert result.is_error is (not envelope["erfolg"] and not envelope.get("anzahl_erfolgreich"))
    return envelope


def memory_entry(**overrides: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "kurzbeschreibung": "Rückruf am Vormittag",
        "memory": "Kunde K-1001 möchte Rückrufe nur zwischen 9 und 12 Uhr.",
        "tags": ["kunde", "Kommunikation"],
        "scope": "kunde",
        "scope_vk": "K-1001",
        "agent": "support-agent",
        "nutzer": 42,
    }
    entry.update(overrides)
    return entry


def insert_args(*entries: dict[str, Any], **envelope: Any) -> dict[str, Any]:
    inhalt: dict[str, Any] = {"memories": list(entries), "nutzer": 42, "agent": "support-agent"}
    inhalt.update(envelope)
    return {"inhalt": inhalt}


def rate_args(*ratings: tuple[str, float], **extra: Any) -> dict[str, Any]:
    memories = [
        {
            "typ": memory_id.split("_")[0],
            "parameter": {
                "memory_ID": memory_id,
                "agent": "support-agent",
                "score": score,
                **extra,
            },
        }
        for memory_id, score in ratings
    ]
    return {"inhalt": {"memories": memories, "nutzer": 42, "agent": "support-agent"}}


def fetch_args(
    shortterm: list[str] | None = None, longterm: list[str] | None = None
) -> dict[str, Any]:
    memories: dict[str, list[str]] = {}
    if shortterm is not None:
        memories["shortterm"] = shortterm
    if longterm is not None:
        memories["longterm"] = longterm
    return {"inhalt": {"memories": memories, "nutzer": 42, "agent": "support-agent"}}


def brain_entry(**overrides: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "titel": "Beispiel GmbH",
        "inhalt": "Mittelständischer Maschinenbauer aus Stuttgart; Ansprechpartnerin Frau Roth.",
        "vk_typ": "kunde",
        "vk_referenz_id": "K-1001",
    }
    entry.update(overrides)
    return entry


def upsert_args(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"inhalt": {"eintraege": list(entries), "nutzer": 42, "agent": "support-agent"}}
