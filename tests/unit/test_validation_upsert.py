"""Request validation: upsert_brain entries."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.domain import VkTyp
from shared.validation.errors import FieldError
from shared.validation.parsed import BrainEntryInput
from shared.validation.requests import parse_upsert

P = "inhalt.eintraege[0]"


def eintrag(**changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "titel": "Lieferbedingungen",
        "inhalt": "Lieferung nur werktags.",
        "vk_typ": "kunde",
        "vk_referenz_id": "K-4711",
    }
    entry.update(changes)
    return entry


def upsert(*entries: Any) -> list[Any]:
    arguments = {"inhalt": {"nutzer": "u", "agent": "a", "eintraege": list(entries)}}
    return parse_upsert(arguments).entries


def parsed(entry: Any) -> BrainEntryInput:
    (result,) = upsert(entry)
    assert isinstance(result, BrainEntryInput), result
    return result


def entry_errors(entry: Any) -> list[FieldError]:
    (result,) = upsert(entry)
    assert isinstance(result, list), result
    return result


def the_error(entry: Any) -> FieldError:
    errors = entry_errors(entry)
    assert len(errors) == 1, errors
    return errors[0]


def test_minimal_entry_has_defaults() -> None:
    # Given only the required fields / When parsing / Then a new entry with empty extras
    assert parsed(eintrag()) == BrainEntryInput(
        titel="Lieferbedingungen",
        inhalt="Lieferung nur werktags.",
        vk_typ=VkTyp.KUNDE,
        vk_referenz_id="K-4711",
        id=None,
        tags=[],
        stammdaten={},
    )


def test_full_entry_is_parsed() -> None:
    # Given every field, an integer reference and duplicate tags
    entry = eintrag(ID=12, vk_referenz_id=4711, tags=["A", " a "], stammdaten={"plz": "10115"})
    # When parsing / Then update of ID 12, reference as string, tags de-duplicated
    result = parsed(entry)
    assert (result.id, result.vk_referenz_id) == (12, "4711")
    assert result.tags == ["A"]
    assert result.stammdaten == {"plz": "10115"}


def test_invalid_entry_fails_alone() -> None:
    # Given a bad entry between two good ones
    entries = upsert(eintrag(), eintrag(vk_typ="lieferant"), eintrag())
    # When parsed / Then only the middle one has errors, under its own index
    assert isinstance(entries[0], BrainEntryInput)
    assert [e.feld for e in entries[1]] == ["inhalt.eintraege[1].vk_typ"]
    assert isinstance(entries[2], BrainEntryInput)


@pytest.mark.parametrize("value", ["x", 1, None, []])
def test_entry_must_be_object(value: Any) -> None:
    # Given an entry that is no object / When parsing / Then it fails as no object
    error = the_error(value)
    assert (error.feld, "Objekt" in error.meldung) == (P, True)


@pytest.mark.parametrize("field", ["titel", "inhalt", "vk_typ", "vk_referenz_id"])
def test_required_fields(field: str) -> None:
    # Given an entry without a required field / When parsing / Then it is named
    entry = eintrag()
    del entry[field]
    error = the_error(entry)
    assert (error.feld, error.meldung) == (f"{P}.{field}", "Pflichtfeld fehlt.")


def test_unknown_field_rejected() -> None:
    # Given an entry with an extra field / When parsing / Then it is named as unknown
    error = the_error(eintrag(nutzer="u"))
    assert error.feld == f"{P}.nutzer"
    assert "Unbekanntes Feld 'nutzer'" in error.meldung


@pytest.mark.parametrize(
    ("value", "rule"),
    [(0, "zwischen 1 und"), (-3, "zwischen 1 und"), (True, "Ganzzahl"), ("12", "Ganzzahl")],
)
def test_id_rules(value: Any, rule: str) -> None:
    # Given an invalid ID / When parsing / Then field and rule are named
    error = the_error(eintrag(ID=value))
    assert (error.feld, rule in error.meldung) == (f"{P}.ID", True)


@pytest.mark.parametrize(
    ("field", "value", "rule"),
    [
        ("titel", "", "leer"),
        ("titel", "t" * 501, "500"),
        ("titel", 5, "Zeichenkette"),
        ("inhalt", "  ", "leer"),
        ("inhalt", "i" * 100001, "100000"),
        ("inhalt", None, "Zeichenkette"),
        ("vk_typ", "Kunde", "kunde, produkt, mitarbeiter, projekt"),
        ("vk_referenz_id", "", "leer"),
        ("vk_referenz_id", "v" * 201, "200"),
        ("vk_referenz_id", False, "Zeichenkette oder Ganzzahl"),
    ],
)
def test_field_rules(field: str, value: Any, rule: str) -> None:
    # Given an invalid field / When parsing / Then field and rule are named
    error = the_error(eintrag(**{field: value}))
    assert error.feld == f"{P}.{field}"
    assert rule in error.meldung


def test_texts_at_their_limits_are_accepted() -> None:
    # Given title and text of exactly the maximum length / When parsing / Then accepted
    result = parsed(eintrag(titel="t" * 500, inhalt="i" * 100000))
    assert (len(result.titel), len(result.inhalt)) == (500, 100000)


@pytest.mark.parametrize(
    ("value", "feld", "rule"),
    [
        ("a,b", "tags", "Liste"),
        ([f"t{i}" for i in range(101)], "tags", "100"),
        (["ok", ""], "tags[1]", "leer"),
        (["ok", 1], "tags[1]", "Zeichenkette"),
    ],
)
def test_tag_rules(value: Any, feld: str, rule: str) -> None:
    # Given invalid tags / When parsing / Then the list or the tag is named
    error = the_error(eintrag(tags=value))
    assert (error.feld, rule in error.meldung) == (f"{P}.{feld}", True)


def test_stammdaten_scalars_accepted() -> None:
    # Given 50 keys of every scalar kind, a 2000-character string and a 100-character key
    stammdaten: dict[str, Any] = {f"k{i}": i for i in range(46)}
    stammdaten.update({"s": "x" * 2000, "f": 1.5, "b": False, "k" * 100: None})
    # When parsing / Then they are kept
    assert parsed(eintrag(stammdaten=stammdaten)).stammdaten == stammdaten


@pytest.mark.parametrize(
    ("value", "feld", "rule"),
    [
        ([1], "stammdaten", "Objekt"),
        ({f"k{i}": i for i in range(51)}, "stammdaten", "50"),
        ({"": 1}, "stammdaten", "Schlüssel"),
        ({"  ": 1}, "stammdaten", "Schlüssel"),
        ({"k" * 101: 1}, "stammdaten.…", "100"),  # a refused key is not repeated
        ({"adresse": {"plz": 1}}, "stammdaten.adresse", "einfache Werte"),
        ({"liste": [1]}, "stammdaten.liste", "einfache Werte"),
        ({"text": "x" * 2001}, "stammdaten.text", "2000"),
    ],
)
def test_stammdaten_rules(value: Any, feld: str, rule: str) -> None:
    # Given invalid stammdaten / When parsing / Then the object or the key is named
    error = the_error(eintrag(stammdaten=value))
    assert error.feld == f"{P}.{feld}"
    assert rule in error.meldung


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_stammdaten_numbers_must_be_finite(literal: str) -> None:
    # Given a non-finite number as JSON parses it / When parsing / Then rejected as such
    error = the_error(eintrag(stammdaten=json.loads(f'{{"umsatz": {literal}}}')))
    assert error.feld == f"{P}.stammdaten.umsatz"
    assert "endliche Zahl" in error.meldung


def test_all_errors_of_an_entry_are_collected() -> None:
    # Given an entry with four problems
    entry = {**eintrag(titel="", ID=0, stammdaten={"a": []}), "x": 1}
    # When parsing / Then all four are reported
    assert sorted(e.feld for e in entry_errors(entry)) == [
        f"{P}.ID",
        f"{P}.stammdaten.a",
        f"{P}.titel",
        f"{P}.x",
    ]
