"""The published input schemas: the seed tools' verbatim, the authored ones valid."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.schemas import TOOL_SCHEMA_NAMES, load_schema

SEEDS_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
SEED_TOOLS = {
    "000": "fetch_brain_memories",
    "001": "insert_brain_longterm_memory",
    "002": "rate_brain_memories",
    "003": "select_brain",
}
AUTHORED = (
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


def seed_input_schema(prefix: str) -> dict[str, Any]:
    """The JSON between the lines `Input Schema` / `json` and `Beispiel-Aufruf` of a seed."""
    if not SEEDS_DIR.is_dir():
        pytest.skip(f"seed folder {SEEDS_DIR} is absent: cannot compare with the seeds")
    matches = sorted(SEEDS_DIR.glob(f"{prefix}_*.txt"))
    assert len(matches) == 1, f"expected one seed {prefix}_*.txt in {SEEDS_DIR}"
    lines = matches[0].read_text(encoding="utf-8").splitlines()
    start = lines.index("Input Schema")
    json_line = next(i for i in range(start + 1, len(lines)) if lines[i].strip())
    assert lines[json_line].strip() == "json"
    end = lines.index("Beispiel-Aufruf", json_line)
    schema = json.loads("\n".join(lines[json_line + 1 : end]))
    assert isinstance(schema, dict)
    return schema


def check_schema(schema: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize(("prefix", "tool"), sorted(SEED_TOOLS.items()))
def test_seed_tool_schema_is_the_seed_verbatim(prefix: str, tool: str) -> None:
    # Given the seed's Input Schema
    expected = seed_input_schema(prefix)
    # When the packaged schema is loaded
    schema = load_schema(tool)
    # Then it equals the seed, including the order of keys everywhere
    assert schema == expected
    assert json.dumps(schema) == json.dumps(expected)


@pytest.mark.parametrize("tool", sorted(SEED_TOOLS.values()))
def test_seed_tool_schema_file_is_pretty_printed_json(tool: str) -> None:
    # Given the raw package file
    from importlib import resources

    text = resources.files("shared.schemas").joinpath(f"{tool}.json").read_text("utf-8")
    # When it is parsed and printed again with indent 4
    reprinted = json.dumps(json.loads(text), indent=4, ensure_ascii=False)
    # Then the file is exactly that print (plus the final newline)
    assert text.rstrip("\n") == reprinted


@pytest.mark.parametrize("tool", TOOL_SCHEMA_NAMES)
def test_every_schema_is_valid_json_schema(tool: str) -> None:
    # Given a packaged schema / When it is checked / Then the meta-schema accepts it
    check_schema(load_schema(tool))


def test_tool_schema_names_cover_seeds_and_additions() -> None:
    # Given the seed tools and the authored additions
    # When listing the known schemas / Then each is there exactly once
    assert sorted(TOOL_SCHEMA_NAMES) == sorted([*SEED_TOOLS.values(), *AUTHORED])


def test_load_schema_returns_a_copy_callers_cannot_corrupt() -> None:
    # Given a loaded schema that the caller mutates
    first = load_schema("fetch_brain_memories")
    first["properties"]["inhalt"]["required"].clear()
    first["mutated"] = True
    # When loading it again
    second = load_schema("fetch_brain_memories")
    # Then the cache is untouched
    assert "mutated" not in second
    assert second["properties"]["inhalt"]["required"] == ["memories", "nutzer", "agent"]


def test_load_schema_rejects_unknown_tool() -> None:
    # Given a tool without schema / When loading / Then a ValueError names the known ones
    with pytest.raises(ValueError, match="fetch_brain_memories"):
        load_schema("no_such_tool")


def test_shortterm_schema_is_longterm_plus_ttl() -> None:
    # Given both insert schemas
    longterm = load_schema("insert_brain_longterm_memory")
    shortterm = load_schema("insert_brain_shortterm_memory")
    short_memories = shortterm["properties"]["inhalt"]["properties"]["memories"]
    long_memories = longterm["properties"]["inhalt"]["properties"]["memories"]
    # When the additions are taken out
    ttl = short_memories["items"]["properties"].pop("ttl_sekunden")
    description = short_memories.pop("description")
    long_memories.pop("description")
    # Then the rest is the long-term schema, and the additions are as specified
    assert shortterm == longterm
    assert ttl["type"] == "integer"
    assert (ttl["minimum"], ttl["maximum"]) == (1, 31536000)
    assert "Lebensdauer" in ttl["description"]
    assert "7 Tage" in ttl["description"]
    assert "Kurzzeiterinnerungen" in description
    assert "ttl_sekunden" not in short_memories["items"]["required"]


def test_upsert_schema_shape() -> None:
    # Given the authored upsert schema
    schema = load_schema("upsert_brain")
    inhalt = schema["properties"]["inhalt"]
    eintraege = inhalt["properties"]["eintraege"]
    item = eintraege["items"]
    # When reading its rules / Then they are the contract's
    assert schema["required"] == ["inhalt"]
    assert set(schema["properties"]) == {"help", "referenzfelder", "inhalt"}
    assert inhalt["required"] == ["eintraege", "nutzer", "agent"]
    assert (eintraege["minItems"], eintraege["maxItems"]) == (1, 100)
    assert item["additionalProperties"] is False
    assert item["required"] == ["titel", "inhalt", "vk_typ", "vk_referenz_id"]
    assert item["properties"]["ID"]["type"] == "integer"
    assert item["properties"]["ID"]["minimum"] == 1
    assert item["properties"]["vk_typ"]["enum"] == ["kunde", "produkt", "mitarbeiter", "projekt"]
    assert item["properties"]["vk_referenz_id"]["type"] == ["string", "integer"]
    assert item["properties"]["tags"]["maxItems"] == 100
    assert item["properties"]["stammdaten"]["type"] == "object"
    assert all("description" in prop for prop in item["properties"].values())


def test_upsert_schema_accepts_a_valid_call_and_rejects_extra_fields() -> None:
    # Given the upsert schema as a validator
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(load_schema("upsert_brain"))
    entry = {"titel": "T", "inhalt": "Text", "vk_typ": "kunde", "vk_referenz_id": 4711}
    call = {"inhalt": {"nutzer": 1, "agent": "a", "eintraege": [entry]}}
    # When validating a correct call and one with an unknown entry field
    bad = {"inhalt": {"nutzer": 1, "agent": "a", "eintraege": [{**entry, "foo": 1}]}}
    # Then only the second fails
    assert list(validator.iter_errors(call)) == []
    assert list(validator.iter_errors(bad)) != []
