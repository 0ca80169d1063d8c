"""Every limit is defined once and published: each limit a tool states (from the validator's
own constants) is enforced by the validator with a message naming it, and every `*MAX*`
constant of the validator is stated for some tool."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.services.context import ServiceContext
from shared.storage.sqlite import SqliteStorage
from shared.tools.catalog import TOOLS
from shared.tools.dispatch import call_tool
from shared.tools.limits import TOOL_LIMITS, Limit
from shared.validation import json_body, memory_requests, requests, rules

# Constants with MAX in their name that are not input limits.
NOT_INPUT_LIMITS = {
    "ECHO_MAX": "how much of a bad value an error message repeats",
    "MAX_ITEM_ERRORS": "how many bad embedding values are listed one by one",
}
CASES = [(tool, limit) for tool, limits in sorted(TOOL_LIMITS.items()) for limit in limits]


@pytest.fixture
def context(tmp_path: Path) -> Iterator[ServiceContext]:
    storage = SqliteStorage.in_data_dir(tmp_path)
    yield ServiceContext(storage, Settings(data_dir=tmp_path))
    storage.close()


PRINCIPAL = Principal(
    tenant="t",
    subject="s",
    nutzer=frozenset({"*"}),
    agents=frozenset({"*"}),
    scopes=frozenset(ALL_SCOPES),
)


def too_much(limit: Limit, current: Any) -> Any:
    """A value that breaks `limit` by one."""
    value = limit.value
    if isinstance(value, float):
        return value * 2
    if limit.unit == "chars":
        return "x" * (value + 1)
    if limit.unit == "items":
        if isinstance(current, list) and current:
            return [current[0]] * (value + 1)
        if current is not None and not isinstance(current, dict):
            return [current] * (value + 1)
        return [1] * (value + 1)
    if limit.unit == "keys":
        return {f"k{i}": 1 for i in range(value + 1)}
    if limit.unit == "bytes":
        return {"k": "x" * value}
    if limit.unit == "key_chars":
        return {"k" * (value + 1): 1}
    if limit.unit == "dims":
        return [0.5] * (value + 1)
    return value + 1


def break_limit(arguments: dict[str, Any], limit: Limit) -> str:
    """Set the limit's field in `arguments` to a value over it; the expected error path."""
    node: Any = arguments
    shown = ""
    path = list(limit.path)
    for index, key in enumerate(path[:-1]):
        following = path[index + 1]
        if key == "[]":
            node, shown = node[0], f"{shown}[0]"
            continue
        if node.get(key) is None:
            node[key] = [] if following == "[]" else {}
        if following == "[]" and not node[key]:
            node[key].append({} if index + 2 < len(path) else None)
        node = node[key]
        shown = f"{shown}.{key}" if shown else key
    last = path[-1]
    if last == "[]" and isinstance(node, dict):  # a value of a mapping (stammdaten)
        node["s"] = too_much(limit, None)
        return f"{shown}.s"
    if last == "[]":
        node[0] = too_much(limit, node[0] if node else None)
        return f"{shown}[0]"
    node[last] = too_much(limit, node.get(last))
    return f"{shown}.{last}" if shown else last


@pytest.mark.parametrize(("tool", "limit"), CASES, ids=[f"{t}:{lim.text()}" for t, lim in CASES])
def test_every_stated_limit_is_enforced_with_its_value(
    context: ServiceContext, tool: str, limit: Limit
) -> None:
    # Given the tool's own example with one field just over a stated limit
    arguments = copy.deepcopy(TOOLS[tool].example)
    expected = break_limit(arguments, limit)
    # When it is called
    envelope = call_tool(context, PRINCIPAL, tool, arguments)
    # Then it is refused at that field, and the message states the limit's value
    assert envelope["erfolg"] is False
    errors = envelope["fehler"]
    hits = [e for e in errors if e["feld"].startswith(expected.split("…")[0][:60])]
    assert hits, (expected, errors)
    assert any(str(limit.value) in e["meldung"] for e in hits), hits


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_every_limit_is_stated_in_the_description_or_schema(tool: str) -> None:
    spec = TOOLS[tool]
    published = spec.published_description + str(spec.input_schema)
    for limit in TOOL_LIMITS.get(tool, ()):
        assert str(limit.value) in published, limit
    assert str(json_body.MAX_BODY_BYTES) in spec.published_description


def test_every_validator_limit_is_stated_for_some_tool() -> None:
    stated = {limit.value for limits in TOOL_LIMITS.values() for limit in limits}
    stated |= {json_body.MAX_BODY_BYTES, json_body.MAX_JSON_DEPTH}
    for module in (rules, requests, memory_requests, json_body):
        for name, value in vars(module).items():
            if "MAX" not in name or name in NOT_INPUT_LIMITS:
                continue
            if isinstance(value, int | float) and not isinstance(value, bool):
                assert value in stated, f"{module.__name__}.{name} = {value} is not published"
