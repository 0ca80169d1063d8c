"""Every tool's published input schema says what the server accepts, and the server accepts
what the schema publishes (issue 26: `remember` and `search_memory` took `help: 1` while their
schemas forbade every property they did not list).

For each top-level property of a schema, the tool's example call plus that property (a value
of the property's type) gets no "unknown field" refusal; where a schema forbids additional
properties, an unlisted one is refused, naming it. Through the one dispatcher, as every
transport calls it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shared.auth.verifiers import local_issuer
from shared.config import Settings
from shared.services.context import ServiceContext
from shared.storage.sqlite import SqliteStorage
from shared.tools.catalog import TOOLS
from shared.tools.dispatch import call_tool

UNKNOWN = "zz_unbekannt"
BY_TYPE: dict[str, Any] = {
    "string": "x",
    "integer": 0,
    "number": 1.5,
    "boolean": False,
    "array": [],
    "object": {},
}


def sample(name: str, schema: dict[str, Any], example: dict[str, Any]) -> Any:
    if name in example:
        return example[name]
    kind = schema.get("type", "string")
    first = kind[0] if isinstance(kind, list) else kind
    return BY_TYPE[first]


def unknown_field_errors(envelope: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [
        error
        for error in envelope.get("fehler") or []
        if error["feld"] == name and error["meldung"].startswith("Unbekanntes Feld")
    ]


@pytest.fixture
def call(tmp_path: Path) -> Any:
    settings = Settings(data_dir=tmp_path / "data")
    storage = SqliteStorage.in_data_dir(settings.data_dir)
    issuer = local_issuer(settings)
    principal = issuer.verify(issuer.development_token(600))
    ctx = ServiceContext(storage=storage, settings=settings)
    yield lambda tool, arguments: call_tool(ctx, principal, tool, arguments)
    storage.close()


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_every_published_property_is_accepted(call: Any, tool: str) -> None:
    spec = TOOLS[tool]
    schema = spec.input_schema
    for name, prop in schema["properties"].items():
        arguments = {**spec.example, name: sample(name, prop, spec.example)}
        answer = call(tool, arguments)
        assert not unknown_field_errors(answer, name), (tool, name, answer["fehler"])


@pytest.mark.parametrize(
    "tool",
    sorted(
        name
        for name, spec in TOOLS.items()
        if spec.input_schema.get("additionalProperties") is False
    ),
)
def test_a_property_the_schema_forbids_is_refused(call: Any, tool: str) -> None:
    answer = call(tool, {**TOOLS[tool].example, UNKNOWN: 1})
    assert answer["erfolg"] is False
    assert unknown_field_errors(answer, UNKNOWN)


@pytest.mark.parametrize("tool", ["remember", "search_memory", "recall", "recall_context"])
def test_the_memory_os_tools_publish_their_help_flag(call: Any, tool: str) -> None:
    assert TOOLS[tool].input_schema["properties"]["help"]["type"] == "integer"
    answer = call(tool, {"help": 1})
    assert answer["erfolg"] is True and answer["daten"]["tool"] == tool
