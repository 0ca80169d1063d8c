"""The tools' published input schemas (MCP `inputSchema`), shipped as package data.

The four seed tools' files are the seeds' "Input Schema" JSON verbatim; the others are
authored in the seeds' style. The server validates with `shared.validation.requests`, not
with these schemas: they are what the agents read.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from typing import Any

TOOL_SCHEMA_NAMES: tuple[str, ...] = (
    "fetch_brain_memories",
    "insert_brain_longterm_memory",
    "rate_brain_memories",
    "select_brain",
    "insert_brain_shortterm_memory",
    "upsert_brain",
    "update_brain_memories",
    "delete_brain_memories",
    "remember",
    "search_memory",
    "recall",
    "recall_context",
    "ledger",
)


@cache
def _load(tool_name: str) -> dict[str, Any]:
    text = resources.files(__name__).joinpath(f"{tool_name}.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    if not isinstance(schema, dict):
        raise ValueError(f"schema {tool_name}.json is not a JSON object")
    return schema


def load_schema(tool_name: str) -> dict[str, Any]:
    """The input schema of `tool_name`, as a fresh copy the caller may change freely."""
    if tool_name not in TOOL_SCHEMA_NAMES:
        known = ", ".join(TOOL_SCHEMA_NAMES)
        raise ValueError(f"no input schema for tool {tool_name!r} (known: {known})")
    return copy.deepcopy(_load(tool_name))
