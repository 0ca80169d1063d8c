"""Request validation: help, referenzfelder and the common `inhalt` envelope."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from shared.validation.envelope import parse_referenzfelder, wants_help
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.parsed import ParseOptions
from shared.validation.requests import (
    parse_fetch,
    parse_insert,
    parse_rate,
    parse_select,
    parse_upsert,
)

Parse = Callable[[Mapping[str, Any]], object]

MEMORY = {
    "kurzbeschreibung": "k",
    "memory": "m",
    "tags": [],
    "scope": "s",
    "scope_vk": "v",
    "agent": "a",
    "nutzer": "u",
}
RATING = {"typ": "longterm", "parameter": {"memory_ID": "longterm_1", "agent": 1, "score": 5}}
EINTRAG = {"titel": "T", "inhalt": "I", "vk_typ": "kunde", "vk_referenz_id": 1}

# Each Brain tool with `inhalt`: its parser and a valid `inhalt` without nutzer/agent.
BATCH_TOOLS: dict[str, tuple[Parse, str, dict[str, Any]]] = {
    "insert": (
        lambda a: parse_insert(a, ParseOptions(), shortterm=False),
        "memories",
        {"memories": [MEMORY]},
    ),
    "insert_shortterm": (
        lambda a: parse_insert(a, ParseOptions(), shortterm=True),
        "memories",
        {"memories": [MEMORY]},
    ),
    "rate": (lambda a: parse_rate(a, ParseOptions()), "memories", {"memories": [RATING]}),
    "upsert": (parse_upsert, "eintraege", {"eintraege": [EINTRAG]}),
}
ALL_TOOLS: dict[str, tuple[Parse, dict[str, Any]]] = {
    **{name: (parse, inhalt) for name, (parse, _, inhalt) in BATCH_TOOLS.items()},
    "fetch": (parse_fetch, {"memories": {"longterm": ["longterm_1"]}}),
}


def rejected(parse: Parse, arguments: Mapping[str, Any]) -> list[FieldError]:
    with pytest.raises(RequestRejected) as info:
        parse(arguments)
    return info.value.errors


def fields_of(errors: list[FieldError]) -> list[str]:
    return [error.feld for error in errors]


def the_error(errors: list[FieldError]) -> FieldError:
    assert len(errors) == 1, errors
    return errors[0]


# --- help ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [({"help": 1}, True), ({"help": 0}, False), ({"help": 2}, False), ({}, False)],
)
def test_wants_help_only_for_integer_one(arguments: dict[str, Any], expected: bool) -> None:
    # Given arguments with or without help / When asking / Then only help == 1 wants help
    assert wants_help(arguments) is expected


def test_wants_help_with_the_seed_example_call() -> None:
    # Given the seeds' example call
    arguments = json.loads('{"inhalt": {}, "help": 1, "referenzfelder": {}}')
    # When asking / Then help is wanted (and no inhalt fields are demanded)
    assert wants_help(arguments) is True


@pytest.mark.parametrize("value", [True, "1", 1.0, None, [1]])
def test_wants_help_rejects_non_integer(value: Any) -> None:
    # Given a help value that is not an integer (bool included)
    # When asking / Then the request is rejected naming help and the rule
    error = the_error(rejected(wants_help, {"help": value}))
    assert error.feld == "help"
    assert "Ganzzahl" in error.meldung


# --- referenzfelder ------------------------------------------------------------------------


def test_referenzfelder_absent_is_empty() -> None:
    # Given no referenzfelder / When parsing / Then an empty object
    assert parse_referenzfelder({}) == {}


def test_referenzfelder_scalars_returned_as_copy() -> None:
    # Given scalar reference data of every kind
    given = {"s": "x", "i": 1, "f": 1.5, "b": True, "n": None}
    # When parsing
    result = parse_referenzfelder({"referenzfelder": given})
    # Then it is returned unchanged, as a copy
    assert result == given
    assert result is not given


def test_referenzfelder_must_be_object() -> None:
    # Given a list instead of an object / When parsing / Then rejected as no object
    error = the_error(rejected(parse_referenzfelder, {"referenzfelder": [1]}))
    assert error.feld == "referenzfelder"
    assert "Objekt" in error.meldung


def test_referenzfelder_at_most_50_keys() -> None:
    # Given 51 keys / When parsing / Then rejected with the limit and the count
    error = the_error(
        rejected(parse_referenzfelder, {"referenzfelder": {f"k{i}": i for i in range(51)}})
    )
    assert error.feld == "referenzfelder"
    assert "50" in error.meldung
    assert "51" in error.meldung


def test_referenzfelder_50_keys_allowed() -> None:
    # Given exactly 50 keys / When parsing / Then accepted
    assert len(parse_referenzfelder({"referenzfelder": {f"k{i}": i for i in range(50)}})) == 50


@pytest.mark.parametrize("value", [{"a": 1}, [1], ["x"]])
def test_referenzfelder_values_must_be_scalar(value: Any) -> None:
    # Given a nested value / When parsing / Then the key is named with the rule
    error = the_error(rejected(parse_referenzfelder, {"referenzfelder": {"ok": 1, "k": value}}))
    assert error.feld == "referenzfelder[Schlüssel 1]"
    assert "einfache Werte" in error.meldung


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_referenzfelder_numbers_must_be_finite(literal: str) -> None:
    # Given a non-finite number as JSON parses it
    arguments = json.loads(f'{{"referenzfelder": {{"k": {literal}}}}}')
    # When parsing / Then rejected as not finite
    error = the_error(rejected(parse_referenzfelder, arguments))
    assert error.feld == "referenzfelder[Schlüssel 0]"
    assert "endliche Zahl" in error.meldung


def test_referenzfelder_at_most_4096_bytes() -> None:
    # Given {"k":"ä…"}: 8 bytes of JSON around 2044 umlauts of 2 bytes each = 4096 bytes
    fitting = {"k": "ä" * 2044}
    too_big = {"k": "ä" * 2044 + "x"}
    # When parsing both
    accepted = parse_referenzfelder({"referenzfelder": fitting})
    error = the_error(rejected(parse_referenzfelder, {"referenzfelder": too_big}))
    # Then the one within the limit passes, the other names the byte limit and its size
    assert accepted == fitting
    assert error.feld == "referenzfelder"
    assert "4096 Bytes" in error.meldung
    assert "4097" in error.meldung


# --- inhalt, nutzer, agent -----------------------------------------------------------------


@pytest.mark.parametrize("tool", sorted(ALL_TOOLS))
def test_inhalt_required(tool: str) -> None:
    # Given no inhalt / When parsing / Then rejected: inhalt is required
    parse, _ = ALL_TOOLS[tool]
    error = the_error(rejected(parse, {"referenzfelder": {}}))
    assert error.feld == "inhalt"
    assert "Pflichtfeld" in error.meldung


@pytest.mark.parametrize("tool", sorted(ALL_TOOLS))
@pytest.mark.parametrize("value", [None, [], "x"])
def test_inhalt_must_be_object(tool: str, value: Any) -> None:
    # Given an inhalt that is no object / When parsing / Then rejected as no object
    parse, _ = ALL_TOOLS[tool]
    error = the_error(rejected(parse, {"inhalt": value}))
    assert error.feld == "inhalt"
    assert "Objekt" in error.meldung


@pytest.mark.parametrize("tool", sorted(ALL_TOOLS))
@pytest.mark.parametrize("field", ["nutzer", "agent"])
def test_caller_fields_required(tool: str, field: str) -> None:
    # Given inhalt without nutzer or agent
    parse, inhalt = ALL_TOOLS[tool]
    identities = {"nutzer": "u", "agent": "a"}
    del identities[field]
    # When parsing / Then rejected, naming inhalt.<field>
    error = the_error(rejected(parse, {"inhalt": {**inhalt, **identities}}))
    assert error.feld == f"inhalt.{field}"
    assert "Pflichtfeld" in error.meldung


@pytest.mark.parametrize("tool", sorted(ALL_TOOLS))
@pytest.mark.parametrize(
    ("value", "rule"),
    [
        (True, "Zeichenkette oder Ganzzahl"),
        (1.5, "Zeichenkette oder Ganzzahl"),
        (None, "Zeichenkette oder Ganzzahl"),
        ({"a": 1}, "Zeichenkette oder Ganzzahl"),
        ("   ", "leer"),
        ("x" * 201, "200"),
    ],
)
def test_caller_field_rules(tool: str, value: Any, rule: str) -> None:
    # Given an invalid inhalt.nutzer / When parsing / Then rejected naming field and rule
    parse, inhalt = ALL_TOOLS[tool]
    error = the_error(rejected(parse, {"inhalt": {**inhalt, "nutzer": value, "agent": "a"}}))
    assert error.feld == "inhalt.nutzer"
    assert rule in error.meldung


@pytest.mark.parametrize("tool", sorted(ALL_TOOLS))
def test_caller_integers_become_trimmed_strings(tool: str) -> None:
    # Given integer nutzer and a padded agent of exactly 200 characters
    parse, inhalt = ALL_TOOLS[tool]
    agent = " " + "a" * 200 + " "
    # When parsing
    result = parse({"inhalt": {**inhalt, "nutzer": 42, "agent": agent}})
    # Then both are strings
    caller = result.caller  # type: ignore[attr-defined]
    assert (caller.nutzer, caller.agent) == ("42", "a" * 200)


@pytest.mark.parametrize("tool", sorted(ALL_TOOLS))
def test_extra_keys_at_top_level_and_in_inhalt_are_ignored(tool: str) -> None:
    # Given unknown keys beside inhalt and inside it
    parse, inhalt = ALL_TOOLS[tool]
    arguments = {"inhalt": {**inhalt, "nutzer": 1, "agent": 2, "extra": 1}, "extra": True}
    # When parsing / Then the request is accepted
    assert parse(arguments).caller.nutzer == "1"  # type: ignore[attr-defined]


@pytest.mark.parametrize("tool", sorted(ALL_TOOLS))
def test_referenzfelder_returned_with_the_request(tool: str) -> None:
    # Given reference data / When parsing / Then it is part of the parsed request
    parse, inhalt = ALL_TOOLS[tool]
    arguments = {"inhalt": {**inhalt, "nutzer": 1, "agent": 2}, "referenzfelder": {"r": 7}}
    assert parse(arguments).referenzfelder == {"r": 7}  # type: ignore[attr-defined]


@pytest.mark.parametrize("tool", sorted(BATCH_TOOLS))
def test_batch_list_required(tool: str) -> None:
    # Given no entry list / When parsing / Then rejected naming inhalt.<list>
    parse, key, _ = BATCH_TOOLS[tool]
    error = the_error(rejected(parse, {"inhalt": {"nutzer": 1, "agent": 2}}))
    assert error.feld == f"inhalt.{key}"
    assert "Pflichtfeld" in error.meldung


@pytest.mark.parametrize("tool", sorted(BATCH_TOOLS))
@pytest.mark.parametrize(
    ("value", "rule"),
    [({"0": 1}, "Liste"), ("x", "Liste"), (None, "Liste"), ([], "Mindestens 1")],
)
def test_batch_list_shape(tool: str, value: Any, rule: str) -> None:
    # Given a list that is none or empty / When parsing / Then the whole request fails
    parse, key, _ = BATCH_TOOLS[tool]
    error = the_error(rejected(parse, {"inhalt": {"nutzer": 1, "agent": 2, key: value}}))
    assert error.feld == f"inhalt.{key}"
    assert rule in error.meldung


@pytest.mark.parametrize("tool", sorted(BATCH_TOOLS))
def test_batch_at_most_100_entries(tool: str) -> None:
    # Given 101 entries and 100 entries
    parse, key, inhalt = BATCH_TOOLS[tool]
    entry = inhalt[key][0]
    too_many = {"inhalt": {"nutzer": 1, "agent": 2, key: [entry] * 101}}
    at_limit = {"inhalt": {"nutzer": 1, "agent": 2, key: [entry] * 100}}
    # When parsing both
    error = the_error(rejected(parse, too_many))
    result = parse(at_limit)
    # Then 101 fails whole with the limit and count, 100 is parsed entry by entry
    assert error.feld == f"inhalt.{key}"
    assert error.meldung == "Höchstens 100 Einträge erlaubt (erhalten: 101)."
    assert len(result.entries) == 100  # type: ignore[attr-defined]


@pytest.mark.parametrize("tool", sorted(BATCH_TOOLS))
def test_all_envelope_errors_are_collected(tool: str) -> None:
    # Given bad help, bad referenzfelder, no nutzer, a bool agent and no entry list
    parse, key, _ = BATCH_TOOLS[tool]
    arguments = {"help": "x", "referenzfelder": {"k": []}, "inhalt": {"agent": False}}
    # When parsing
    errors = rejected(parse, arguments)
    # Then every problem is reported, each under its own path
    assert fields_of(errors) == [
        "help",
        "referenzfelder[Schlüssel 0]",
        "inhalt.nutzer",
        "inhalt.agent",
        f"inhalt.{key}",
    ]
    assert all(error.meldung for error in errors)


def test_select_collects_help_and_referenzfelder_errors() -> None:
    # Given select_brain with a bool help and non-object referenzfelder
    arguments = {"help": False, "referenzfelder": "x", "nutzer": 1, "agent": 1}
    # When parsing / Then both are named
    assert fields_of(rejected(parse_select, arguments)) == ["help", "referenzfelder"]
