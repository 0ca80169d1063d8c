"""Request validation: rate_brain_memories entries."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest

from shared.domain import MemoryId, MemoryType
from shared.validation.errors import FieldError
from shared.validation.parsed import ParseOptions, RatingInput
from shared.validation.requests import parse_rate

OPTIONS = ParseOptions()
P = "inhalt.memories[0]"


def rating(typ: str = "longterm", **parameter: Any) -> dict[str, Any]:
    params: dict[str, Any] = {"memory_ID": f"{typ}_45", "agent": 23, "score": 7}
    params.update(parameter)
    return {"typ": typ, "parameter": params}


def rate(*entries: Any, options: ParseOptions = OPTIONS) -> list[Any]:
    arguments = {"inhalt": {"nutzer": "u", "agent": "a", "memories": list(entries)}}
    return parse_rate(arguments, options).entries


def parsed(entry: Any, options: ParseOptions = OPTIONS) -> RatingInput:
    (result,) = rate(entry, options=options)
    assert isinstance(result, RatingInput), result
    return result


def the_error(entry: Any, options: ParseOptions = OPTIONS) -> FieldError:
    (result,) = rate(entry, options=options)
    assert isinstance(result, list), result
    assert len(result) == 1, result
    error: FieldError = result[0]
    return error


def test_seed_example_is_parsed() -> None:
    # Given the seed's example ratings
    entries = rate(rating("shortterm", memory_ID="shortterm_123", score=8), rating(score=7))
    # When parsed / Then typed, with the agent as a string and the score as Decimal
    assert entries == [
        RatingInput(
            typ=MemoryType.SHORTTERM,
            memory_id=MemoryId(MemoryType.SHORTTERM, 123),
            agent="23",
            score=Decimal(8),
            datum=None,
        ),
        RatingInput(
            typ=MemoryType.LONGTERM,
            memory_id=MemoryId(MemoryType.LONGTERM, 45),
            agent="23",
            score=Decimal(7),
            datum=None,
        ),
    ]


def test_invalid_rating_fails_alone() -> None:
    # Given a bad rating between two good ones
    entries = rate(rating(), rating(score=11), rating())
    # When parsed / Then only the middle one has errors, under its own index
    assert isinstance(entries[0], RatingInput)
    assert [e.feld for e in entries[1]] == ["inhalt.memories[1].parameter.score"]
    assert isinstance(entries[2], RatingInput)


@pytest.mark.parametrize("value", ["x", 5, None])
def test_entry_must_be_object(value: Any) -> None:
    # Given a rating that is no object / When parsing / Then it fails as no object
    error = the_error(value)
    assert (error.feld, "Objekt" in error.meldung) == (P, True)


@pytest.mark.parametrize("field", ["typ", "parameter"])
def test_entry_required_fields(field: str) -> None:
    # Given a rating without typ or parameter / When parsing / Then the field is named
    entry = rating()
    del entry[field]
    error = the_error(entry)
    assert (error.feld, error.meldung) == (f"{P}.{field}", "Pflichtfeld fehlt.")


@pytest.mark.parametrize("field", ["memory_ID", "agent", "score"])
def test_parameter_required_fields(field: str) -> None:
    # Given parameter without a required field / When parsing / Then it is named
    entry = rating()
    del entry["parameter"][field]
    error = the_error(entry)
    assert (error.feld, error.meldung) == (f"{P}.parameter.{field}", "Pflichtfeld fehlt.")


def test_unknown_fields_rejected_on_both_levels() -> None:
    # Given unknown fields in the entry and in parameter
    entry = {**rating(), "extra": 1}
    entry["parameter"]["nutzer"] = "u"
    # When parsing / Then both are named as unknown
    (errors,) = rate(entry)
    assert [e.feld for e in errors] == [f"{P}.extra", f"{P}.parameter.nutzer"]
    assert all("Unbekanntes Feld" in e.meldung for e in errors)


@pytest.mark.parametrize("value", ["Longterm", "kurz", 1, None])
def test_typ_enum(value: Any) -> None:
    # Given an unknown typ / When parsing / Then the allowed values are named
    error = the_error({**rating(), "typ": value})
    assert error.feld == f"{P}.typ"
    assert "shortterm, longterm" in error.meldung


def test_parameter_must_be_object() -> None:
    # Given parameter as a list / When parsing / Then it fails as no object
    error = the_error({"typ": "longterm", "parameter": []})
    assert (error.feld, "Objekt" in error.meldung) == (f"{P}.parameter", True)


@pytest.mark.parametrize(
    ("value", "rule"),
    [
        ("longterm_0", "Muster"),
        ("longterm_01", "Muster"),
        ("longterm-5", "Muster"),
        ("longterm_5\n", "Muster"),
        (5, "Zeichenkette"),
    ],
)
def test_memory_id_pattern(value: Any, rule: str) -> None:
    # Given a memory_ID off the seed pattern / When parsing / Then the pattern is named
    error = the_error(rating(memory_ID=value))
    assert error.feld == f"{P}.parameter.memory_ID"
    assert rule in error.meldung
    if rule == "Muster":
        assert "^(shortterm|longterm)_[1-9][0-9]*$" in error.meldung


def test_typ_must_match_memory_id_prefix() -> None:
    # Given typ longterm for a short-term ID / When parsing / Then both are named
    error = the_error(rating("longterm", memory_ID="shortterm_3"))
    assert error.feld == f"{P}.typ"
    assert error.meldung == "typ 'longterm' passt nicht zur memory_ID 'shortterm_3'."


@pytest.mark.parametrize(("value", "rule"), [(True, "Zeichenkette oder Ganzzahl"), ("", "leer")])
def test_parameter_agent_rules(value: Any, rule: str) -> None:
    # Given an invalid agent / When parsing / Then field and rule are named
    error = the_error(rating(agent=value))
    assert (error.feld, rule in error.meldung) == (f"{P}.parameter.agent", True)


@pytest.mark.parametrize(
    ("value", "rule"),
    [
        (True, "Zahl"),
        ("7", "Zahl"),
        (None, "Zahl"),
        (11, "Muss zwischen 0 und 10 liegen."),
        (-0.5, "zwischen 0 und 10"),
        (10.000001, "zwischen 0 und 10"),
    ],
)
def test_score_rules(value: Any, rule: str) -> None:
    # Given an invalid score / When parsing / Then field and rule are named
    error = the_error(rating(score=value))
    assert error.feld == f"{P}.parameter.score"
    assert rule in error.meldung


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_score_must_be_finite(literal: str) -> None:
    # Given a non-finite score as JSON parses it / When parsing / Then rejected as such
    error = the_error(rating(score=json.loads(literal)))
    assert error.feld == f"{P}.parameter.score"
    assert "endliche Zahl" in error.meldung


@pytest.mark.parametrize(
    ("value", "expected"), [(0, Decimal(0)), (10, Decimal(10)), (7.1, Decimal("7.1"))]
)
def test_score_bounds_inclusive_and_decimal_from_text(value: float, expected: Decimal) -> None:
    # Given a score at a bound or a float / When parsing / Then Decimal(str(value))
    assert parsed(rating(score=value)).score == expected


def test_score_range_comes_from_the_options() -> None:
    # Given a configured range of 1 to 5
    options = ParseOptions(score_min=Decimal(1), score_max=Decimal(5))
    # When rating 0.5 and 5 / Then the first names the configured range, the second passes
    assert the_error(rating(score=0.5), options).meldung == ("Muss zwischen 1 und 5 liegen.")
    assert parsed(rating(score=5), options).score == Decimal(5)


# --- datum ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("local", "utc"),
    [
        ("2026-01-15 12:00:00", datetime(2026, 1, 15, 11, 0, tzinfo=UTC)),  # CET, +01:00
        ("2026-07-15 12:00:00", datetime(2026, 7, 15, 10, 0, tzinfo=UTC)),  # CEST, +02:00
        ("2026-03-29 03:00:00", datetime(2026, 3, 29, 1, 0, tzinfo=UTC)),  # first CEST hour
        ("2026-10-25 02:30:00", datetime(2026, 10, 25, 0, 30, tzinfo=UTC)),  # twice: first
    ],
)
def test_datum_berlin_to_utc(local: str, utc: datetime) -> None:
    # Given a Berlin wall-clock time / When parsing / Then the aware UTC instant
    result = parsed(rating(datum=local)).datum
    assert result == utc
    assert result is not None
    assert result.utcoffset() is not None
    assert result.tzinfo == UTC


@pytest.mark.parametrize(
    ("iso", "utc"),
    [
        ("2026-01-15T12:00:00+01:00", datetime(2026, 1, 15, 11, 0, tzinfo=UTC)),
        ("2026-07-15T12:00:00+02:00", datetime(2026, 7, 15, 10, 0, tzinfo=UTC)),
        ("2026-07-15T10:00:00Z", datetime(2026, 7, 15, 10, 0, tzinfo=UTC)),
        ("2026-10-25T02:30:00+01:00", datetime(2026, 10, 25, 1, 30, tzinfo=UTC)),  # 2nd 02:30
    ],
)
def test_datum_in_iso_8601_with_its_offset(iso: str, utc: datetime) -> None:
    # Given a time as the answers give it (ISO 8601 with offset) / Then the instant it names
    assert parsed(rating(datum=iso)).datum == utc


def test_datum_uses_the_configured_zone() -> None:
    # Given the zone UTC / When parsing a time / Then it is taken as UTC
    result = parsed(rating(datum="2026-07-15 12:00:00"), ParseOptions(timezone="UTC")).datum
    assert result == datetime(2026, 7, 15, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "value",
    [
        "2026-11-30",
        "2026-11-30T14:05:00",  # ISO without an offset: which zone?
        "2026-11-30T14:05:00.5+01:00",
        "30.11.2026 14:05:00",
        "2026-11-30 14:05",
        "2026-11-30 14:05:00+01:00",
        "2026-1-30 14:05:00",
        " 2026-11-30 14:05:00",
        "2026-11-30 14:05:00\n",
        1764507900,
        None,
    ],
)
def test_datum_format(value: Any) -> None:
    # Given a datum not in Y-m-d H:i:s / When parsing / Then the format is named
    error = the_error(rating(datum=value))
    assert error.feld == f"{P}.parameter.datum"
    assert "JJJJ-MM-TT HH:MM:SS" in error.meldung
    assert "Y-m-d H:i:s" in error.meldung


@pytest.mark.parametrize(
    "value",
    [
        "2026-02-29 10:00:00",
        "2026-13-01 10:00:00",
        "2026-11-30 24:00:00",
        "2026-11-30 12:60:00",
        "0000-01-01 00:00:00",
        "0001-01-01 00:00:00",
    ],
)
def test_datum_must_be_a_real_date_and_time(value: str) -> None:
    # Given a well-formed but impossible date or time / When parsing / Then rejected as such
    error = the_error(rating(datum=value))
    assert error.feld == f"{P}.parameter.datum"
    assert "gültiges Kalenderdatum" in error.meldung


def test_datum_skipped_by_daylight_saving_rejected() -> None:
    # Given 02:30 on the day Berlin jumps from 02:00 to 03:00 / When parsing / Then rejected
    error = the_error(rating(datum="2026-03-29 02:30:00"))
    assert error.feld == f"{P}.parameter.datum"
    assert "Europe/Berlin" in error.meldung


def test_all_errors_of_a_rating_are_collected() -> None:
    # Given a rating with a mismatching typ, a bad score and a bad datum
    entry = rating("longterm", memory_ID="shortterm_3", score=99, datum="gestern")
    # When parsing / Then all three are reported
    (errors,) = rate(entry)
    assert sorted(e.feld for e in errors) == [
        f"{P}.parameter.datum",
        f"{P}.parameter.score",
        f"{P}.typ",
    ]
