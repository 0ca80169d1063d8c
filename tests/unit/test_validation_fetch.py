"""Request validation: fetch_brain_memories (every error rejects the whole request)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.validation.errors import FieldError, RequestRejected
from shared.validation.parsed import Caller, FetchRequest
from shared.validation.requests import parse_fetch


def fetch_args(memories: Any) -> dict[str, Any]:
    return {"inhalt": {"nutzer": 1, "agent": "a", "memories": memories}}


def rejected(memories: Any) -> list[FieldError]:
    with pytest.raises(RequestRejected) as info:
        parse_fetch(fetch_args(memories))
    return info.value.errors


def the_error(memories: Any) -> FieldError:
    errors = rejected(memories)
    assert len(errors) == 1, errors
    return errors[0]


def test_seed_example_is_parsed() -> None:
    # Given the seed's example input
    memories = {"shortterm": ["shortterm_1", "shortterm_2"], "longterm": ["longterm_3"]}
    # When parsing / Then both lists are kept, the caller converted to strings
    assert parse_fetch(fetch_args(memories)) == FetchRequest(
        caller=Caller(nutzer="1", agent="a"),
        referenzfelder={},
        shortterm=["shortterm_1", "shortterm_2"],
        longterm=["longterm_3"],
    )


def test_order_kept_duplicates_removed_wrong_type_kept_raw() -> None:
    # Given duplicates and a long-term ID listed under shortterm
    memories = {"shortterm": ["shortterm_9", "longterm_5", "shortterm_1", "shortterm_9"]}
    # When parsing / Then request order, each once; the misplaced ID stays for nicht_gefunden
    result = parse_fetch(fetch_args(memories))
    assert result.shortterm == ["shortterm_9", "longterm_5", "shortterm_1"]
    assert result.longterm == []


def test_memories_required() -> None:
    # Given inhalt without memories / When parsing / Then rejected naming inhalt.memories
    with pytest.raises(RequestRejected) as info:
        parse_fetch({"inhalt": {"nutzer": 1, "agent": 2}})
    assert [(e.feld, e.meldung) for e in info.value.errors] == [
        ("inhalt.memories", "Pflichtfeld fehlt.")
    ]


@pytest.mark.parametrize("value", [["shortterm_1"], "shortterm_1", None])
def test_memories_must_be_object(value: Any) -> None:
    # Given memories that is no object / When parsing / Then rejected as no object
    error = the_error(value)
    assert (error.feld, "Objekt" in error.meldung) == ("inhalt.memories", True)


def test_unknown_group_rejected() -> None:
    # Given a third group besides shortterm/longterm / When parsing / Then it is named
    error = the_error({"shortterm": [], "midterm": ["x"]})
    assert error.feld == "inhalt.memories.midterm"
    assert "Unbekanntes Feld 'midterm'" in error.meldung


@pytest.mark.parametrize("group", ["shortterm", "longterm"])
@pytest.mark.parametrize(
    ("value", "feld", "rule"),
    [
        ("shortterm_1", "", "Liste"),
        (None, "", "Liste"),
        ([f"longterm_{i}" for i in range(1, 102)], "", "Höchstens 100"),
        (["longterm_1", 4], "[1]", "Zeichenkette"),
        (["longterm_1", "longterm_0"], "[1]", "Muster ^(shortterm|longterm)_[1-9][0-9]*$"),
        (["longterm_1", "mediumterm_3"], "[1]", "Muster"),
    ],
)
def test_id_list_rules(group: str, value: Any, feld: str, rule: str) -> None:
    # Given an invalid ID list / When parsing / Then the list or the item is named
    error = the_error({group: value})
    assert error.feld == f"inhalt.memories.{group}{feld}"
    assert rule in error.meldung


def test_every_bad_id_is_reported() -> None:
    # Given bad IDs in both groups / When parsing / Then each one is named
    errors = rejected({"shortterm": ["x", "shortterm_1", "y"], "longterm": ["longterm_"]})
    assert [e.feld for e in errors] == [
        "inhalt.memories.shortterm[0]",
        "inhalt.memories.shortterm[2]",
        "inhalt.memories.longterm[0]",
    ]


def test_100_ids_per_group_and_empty_groups_accepted() -> None:
    # Given 100 IDs in one group and nothing in the other / When parsing / Then accepted
    ids = [f"longterm_{i}" for i in range(1, 101)]
    assert parse_fetch(fetch_args({"longterm": ids})).longterm == ids
    assert parse_fetch(fetch_args({})).shortterm == []
