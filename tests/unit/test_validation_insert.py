"""Request validation: insert_brain_longterm_memory / insert_brain_shortterm_memory entries."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.validation.errors import FieldError
from shared.validation.parsed import MemoryInput, ParseOptions
from shared.validation.requests import parse_insert

OPTIONS = ParseOptions()


def memory(**changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "kurzbeschreibung": "Kurz",
        "memory": "Der Kunde bevorzugt E-Mail.",
        "tags": ["kunde"],
        "scope": "kunde",
        "scope_vk": "4711",
        "agent": "agent-1",
        "nutzer": "nutzer-1",
    }
    entry.update(changes)
    return entry


def without(field: str) -> dict[str, Any]:
    entry = memory()
    del entry[field]
    return entry


def insert(*entries: Any, shortterm: bool = False, options: ParseOptions = OPTIONS) -> list[Any]:
    arguments = {"inhalt": {"nutzer": "u", "agent": "a", "memories": list(entries)}}
    return parse_insert(arguments, options, shortterm=shortterm).entries


def parsed(entry: Any, *, shortterm: bool = False) -> MemoryInput:
    (result,) = insert(entry, shortterm=shortterm)
    assert isinstance(result, MemoryInput), result
    return result


def entry_errors(entry: Any, *, shortterm: bool = False) -> list[FieldError]:
    (result,) = insert(entry, shortterm=shortterm)
    assert isinstance(result, list), result
    return result


def the_error(entry: Any, *, shortterm: bool = False) -> FieldError:
    errors = entry_errors(entry, shortterm=shortterm)
    assert len(errors) == 1, errors
    return errors[0]


P = "inhalt.memories[0]"


def test_valid_entry_is_parsed() -> None:
    # Given a complete entry / When parsing / Then every field is carried over
    result = parsed(memory(embedding=[0.5, 1], embedding_profil_hash="p1"))
    assert result == MemoryInput(
        kurzbeschreibung="Kurz",
        memory="Der Kunde bevorzugt E-Mail.",
        tags=["kunde"],
        scope="kunde",
        scope_vk="4711",
        agent="agent-1",
        nutzer="nutzer-1",
        embedding=[0.5, 1.0],
        embedding_profil_hash="p1",
        ttl_sekunden=None,
    )


def test_invalid_entry_fails_alone() -> None:
    # Given a valid, an invalid and another valid entry
    entries = insert(memory(), memory(memory=""), memory(kurzbeschreibung="drei"))
    # When parsed / Then the invalid one has its errors, the others are parsed, order kept
    assert isinstance(entries[0], MemoryInput)
    assert [e.feld for e in entries[1]] == ["inhalt.memories[1].memory"]
    assert isinstance(entries[2], MemoryInput)
    assert entries[2].kurzbeschreibung == "drei"


@pytest.mark.parametrize("value", ["x", 1, None, ["a"]])
def test_entry_must_be_object(value: Any) -> None:
    # Given an entry that is no object / When parsing / Then that entry fails as no object
    error = the_error(value)
    assert error.feld == P
    assert "Objekt" in error.meldung


@pytest.mark.parametrize(
    "field", ["kurzbeschreibung", "memory", "tags", "scope", "scope_vk", "agent", "nutzer"]
)
def test_required_fields(field: str) -> None:
    # Given an entry without a required field / When parsing / Then it is named
    error = the_error(without(field))
    assert error.feld == f"{P}.{field}"
    assert error.meldung == "Pflichtfeld fehlt."


def test_unknown_field_rejected() -> None:
    # Given an entry with an extra field / When parsing / Then it is named as unknown
    error = the_error(memory(foo=1))
    assert error.feld == f"{P}.foo"
    assert "Unbekanntes Feld 'foo'" in error.meldung


def test_all_errors_of_an_entry_are_collected() -> None:
    # Given an entry with an unknown field, a missing and two invalid ones
    entry = {**without("memory"), "foo": 1, "tags": "x", "scope": True}
    # When parsing / Then all four are reported
    assert sorted(e.feld for e in entry_errors(entry)) == [
        f"{P}.foo",
        f"{P}.memory",
        f"{P}.scope",
        f"{P}.tags",
    ]


@pytest.mark.parametrize(
    ("field", "value", "rule"),
    [
        ("kurzbeschreibung", 5, "Zeichenkette"),
        ("kurzbeschreibung", " \n", "leer"),
        ("kurzbeschreibung", "k" * 1001, "1000"),
        ("memory", None, "Zeichenkette"),
        ("memory", "", "leer"),
        ("memory", "m" * 50001, "50000"),
    ],
)
def test_text_rules(field: str, value: Any, rule: str) -> None:
    # Given an invalid text field / When parsing / Then field and rule are named
    error = the_error(memory(**{field: value}))
    assert error.feld == f"{P}.{field}"
    assert rule in error.meldung


def test_texts_at_their_limits_are_accepted() -> None:
    # Given texts of exactly the maximum length / When parsing / Then accepted unchanged
    result = parsed(memory(kurzbeschreibung="k" * 1000, memory="m" * 50000))
    assert (len(result.kurzbeschreibung), len(result.memory)) == (1000, 50000)


@pytest.mark.parametrize(
    ("value", "feld", "rule"),
    [
        ("kunde", "tags", "Liste"),
        ([f"t{i}" for i in range(101)], "tags", "100"),
        (["ok", 5], "tags[1]", "Zeichenkette"),
        (["ok", "  "], "tags[1]", "leer"),
        (["ok", "t" * 101], "tags[1]", "100"),
    ],
)
def test_tag_rules(value: Any, feld: str, rule: str) -> None:
    # Given invalid tags / When parsing / Then the list or the tag is named with the rule
    error = the_error(memory(tags=value))
    assert error.feld == f"{P}.{feld}"
    assert rule in error.meldung


def test_tags_trimmed_and_deduplicated_case_insensitively() -> None:
    # Given padded tags differing only in case, and an empty list elsewhere
    result = parsed(memory(tags=[" Kunde ", "VIP", "kunde", "vip ", "Neu"]))
    # When parsed / Then the first spelling survives, in request order
    assert result.tags == ["Kunde", "VIP", "Neu"]
    # And a later spelling that differs only in case (ß folds to ss) is dropped too
    assert parsed(memory(tags=["vip", "VIP", "Straße", "STRASSE"])).tags == ["vip", "Straße"]
    assert parsed(memory(tags=[])).tags == []


@pytest.mark.parametrize(("field", "value"), [("scope", 7), ("scope_vk", 4711)])
def test_scope_integers_become_strings(field: str, value: int) -> None:
    # Given an integer scope / When parsing / Then it is stored as a string
    assert getattr(parsed(memory(**{field: value})), field) == str(value)


@pytest.mark.parametrize("field", ["scope", "scope_vk"])
def test_scope_may_be_empty(field: str) -> None:
    # Given an empty scope / When parsing / Then accepted as ""
    assert getattr(parsed(memory(**{field: ""})), field) == ""


@pytest.mark.parametrize("field", ["scope", "scope_vk"])
@pytest.mark.parametrize(
    ("value", "rule"),
    [(True, "Ganzzahl"), (1.5, "Ganzzahl"), (None, "Ganzzahl"), ("s" * 201, "200")],
)
def test_scope_rules(field: str, value: Any, rule: str) -> None:
    # Given an invalid scope / When parsing / Then field and rule are named
    error = the_error(memory(**{field: value}))
    assert error.feld == f"{P}.{field}"
    assert rule in error.meldung


@pytest.mark.parametrize("field", ["agent", "nutzer"])
@pytest.mark.parametrize(
    ("value", "rule"), [(False, "Ganzzahl"), ("", "leer"), ("n" * 201, "200"), ([1], "Ganzzahl")]
)
def test_entry_identity_rules(field: str, value: Any, rule: str) -> None:
    # Given an invalid entry agent/nutzer / When parsing / Then field and rule are named
    error = the_error(memory(**{field: value}))
    assert error.feld == f"{P}.{field}"
    assert rule in error.meldung


def test_entry_identity_integers_become_strings() -> None:
    # Given integer agent and nutzer / When parsing / Then strings
    result = parsed(memory(agent=23, nutzer=7))
    assert (result.agent, result.nutzer) == ("23", "7")


# --- embedding -----------------------------------------------------------------------------


@pytest.mark.parametrize("entry", [memory(), memory(embedding=None)])
def test_embedding_absent_or_null_is_none(entry: dict[str, Any]) -> None:
    # Given no embedding or null / When parsing / Then None
    assert parsed(entry).embedding is None


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_embedding_non_finite_rejected_naming_the_index(literal: str) -> None:
    # Given a vector with a non-finite value at index 2, as JSON parses it
    entry = json.loads(json.dumps(memory()))
    entry["embedding"] = json.loads(f"[0.1, 0.2, {literal}, 0.4]")
    # When parsing / Then exactly that index is named
    error = the_error(entry)
    assert error.feld == f"{P}.embedding[2]"
    assert error.meldung == "Muss eine endliche Zahl sein (NaN und Infinity sind nicht erlaubt)."


@pytest.mark.parametrize(
    ("value", "feld", "rule"),
    [
        ("0.1,0.2", "embedding", "Liste"),
        ({"0": 1.0}, "embedding", "Liste"),
        ([], "embedding", "Mindestens 1"),
        ([0.0] * 16385, "embedding", "16384"),
        ([0.1, True], "embedding[1]", "Zahl"),
        ([0.1, "0.2"], "embedding[1]", "Zahl"),
        ([0.1, None], "embedding[1]", "Zahl"),
        ([3.5e38], "embedding[0]", "float32"),
        ([-(10**39)], "embedding[0]", "float32"),
    ],
)
def test_embedding_rules(value: Any, feld: str, rule: str) -> None:
    # Given an invalid embedding / When parsing / Then path and rule are named
    error = the_error(memory(embedding=value))
    assert error.feld == f"{P}.{feld}"
    assert rule in error.meldung


def test_embedding_limits_accepted_and_ints_become_floats() -> None:
    # Given 16384 values including the float32 extremes and an integer
    vector: list[float] = [3.4028234663852886e38, -3.4028234663852886e38, 1] + [0.0] * 16381
    # When parsing / Then accepted, all floats
    result = parsed(memory(embedding=vector)).embedding
    assert result is not None
    assert len(result) == 16384
    assert all(type(value) is float for value in result)


def test_every_bad_embedding_value_is_reported_up_to_a_cap() -> None:
    # Given three bad values / When parsing / Then each index is named
    assert [e.feld for e in entry_errors(memory(embedding=[True, 1.0, "x", None]))] == [
        f"{P}.embedding[0]",
        f"{P}.embedding[2]",
        f"{P}.embedding[3]",
    ]
    # Given 1000 bad values / When parsing / Then 20 are named and the rest summarised
    errors = entry_errors(memory(embedding=[float("nan")] * 1000))
    assert len(errors) == 21
    assert errors[-1].feld == f"{P}.embedding"
    assert "980" in errors[-1].meldung


# --- embedding profile hash and its alias --------------------------------------------------


@pytest.mark.parametrize("field", ["embedding_profil_hash", "ebedding_profil_haash"])
def test_profil_hash_or_alias_accepted(field: str) -> None:
    # Given the hash under its name or the seed's alias / When parsing / Then it is used
    assert parsed(memory(**{field: "profil-1"})).embedding_profil_hash == "profil-1"


def test_profil_hash_and_alias_with_same_value_accepted() -> None:
    # Given both spellings with one value / When parsing / Then accepted
    entry = memory(embedding_profil_hash="p", ebedding_profil_haash="p")
    assert parsed(entry).embedding_profil_hash == "p"


@pytest.mark.parametrize(("canonical", "alias"), [("p1", "p2"), ("p1", None), (None, "p2")])
def test_profil_hash_and_alias_with_different_values_rejected(
    canonical: str | None, alias: str | None
) -> None:
    # Given both spellings with different values / When parsing / Then both are named
    error = the_error(memory(embedding_profil_hash=canonical, ebedding_profil_haash=alias))
    assert error.feld == f"{P}.embedding_profil_hash"
    assert "embedding_profil_hash" in error.meldung
    assert "ebedding_profil_haash" in error.meldung


@pytest.mark.parametrize("field", ["embedding_profil_hash", "ebedding_profil_haash"])
@pytest.mark.parametrize(("value", "rule"), [(5, "Zeichenkette oder null"), ("h" * 201, "200")])
def test_profil_hash_rules(field: str, value: Any, rule: str) -> None:
    # Given an invalid hash / When parsing / Then field and rule are named
    error = the_error(memory(**{field: value}))
    assert error.feld == f"{P}.{field}"
    assert rule in error.meldung


def test_profil_hash_null_is_none() -> None:
    # Given a null hash / When parsing / Then None
    assert parsed(memory(ebedding_profil_haash=None)).embedding_profil_hash is None


# --- ttl_sekunden --------------------------------------------------------------------------


def test_ttl_is_an_unknown_field_for_longterm() -> None:
    # Given ttl_sekunden on a long-term insert / When parsing / Then unknown field
    error = the_error(memory(ttl_sekunden=60))
    assert error.feld == f"{P}.ttl_sekunden"
    assert "Unbekanntes Feld" in error.meldung


def test_ttl_accepted_for_shortterm() -> None:
    # Given short-term entries with and without ttl / When parsing / Then taken or default
    assert parsed(memory(ttl_sekunden=60), shortterm=True).ttl_sekunden == 60
    assert parsed(memory(ttl_sekunden=31536000), shortterm=True).ttl_sekunden == 31536000
    assert parsed(memory(), shortterm=True).ttl_sekunden is None


@pytest.mark.parametrize(
    ("value", "rule"),
    [(0, "1 und 31536000"), (31536001, "1 und 31536000"), (True, "Ganzzahl"), (60.0, "Ganzzahl")],
)
def test_ttl_rules(value: Any, rule: str) -> None:
    # Given an invalid ttl on a short-term entry / When parsing / Then field and rule named
    error = the_error(memory(ttl_sekunden=value), shortterm=True)
    assert error.feld == f"{P}.ttl_sekunden"
    assert rule in error.meldung


def test_ttl_maximum_comes_from_the_options() -> None:
    # Given a configured maximum of one hour
    options = ParseOptions(max_ttl_sekunden=3600)
    # When parsing 3600 and 3601
    ok, bad = insert(
        memory(ttl_sekunden=3600), memory(ttl_sekunden=3601), shortterm=True, options=options
    )
    # Then the first is accepted, the second names the configured range
    assert isinstance(ok, MemoryInput)
    assert [e.meldung for e in bad] == ["Muss zwischen 1 und 3600 liegen."]


def test_long_values_are_not_echoed() -> None:
    # Given an unknown field with a 100-character name
    name = "f" * 100
    # When parsing / Then neither message nor path repeats it (no plain field name; issue 20:
    # refusals never echo what they refuse)
    error = the_error(memory(**{name: 1}))
    assert "ff" not in error.meldung and "ff" not in error.feld
    assert "Unbekanntes Feld '…'" in error.meldung
