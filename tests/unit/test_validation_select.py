"""Request validation: select_brain (flat arguments; every error rejects the request)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.domain import VkTyp
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.parsed import Detail, SelectRequest
from shared.validation.requests import parse_select


def select(**arguments: Any) -> SelectRequest:
    return parse_select({"nutzer": "u", "agent": "a", **arguments})


def rejected(**arguments: Any) -> list[FieldError]:
    with pytest.raises(RequestRejected) as info:
        select(**arguments)
    return info.value.errors


def the_error(**arguments: Any) -> FieldError:
    errors = rejected(**arguments)
    assert len(errors) == 1, errors
    return errors[0]


def test_minimal_request_has_the_defaults() -> None:
    # Given only nutzer and agent / When parsing / Then the defaults apply
    assert select() == SelectRequest(
        nutzer=["u"],
        agent=["a"],
        referenzfelder={},
        detailgrad=frozenset({Detail.STAMMDATEN}),
        ids=None,
        query=None,
        vk_typ=None,
        vk_referenz_id=None,
        limit=20,
    )


def test_full_request_is_parsed() -> None:
    # Given every filter / When parsing / Then each is typed
    result = select(
        detailgrad="stammdaten, texte,erinnerungen",
        ID=[3, 1],
        query="Lieferadresse",
        vk_typ="kunde",
        vk_referenz_id=4711,
        suchtyp="brain",
        limit=100,
        referenzfelder={"vorgang": 9},
        help=0,
    )
    assert result.detailgrad == frozenset(Detail)
    assert result.ids == [3, 1]
    assert result.query == "Lieferadresse"
    assert result.vk_typ is VkTyp.KUNDE
    assert result.vk_referenz_id == "4711"
    assert result.limit == 100
    assert result.referenzfelder == {"vorgang": 9}


@pytest.mark.parametrize("field", ["nutzer", "agent"])
def test_identities_required(field: str) -> None:
    # Given no nutzer or no agent / When parsing / Then it is named
    arguments = {"nutzer": "u", "agent": "a"}
    del arguments[field]
    with pytest.raises(RequestRejected) as info:
        parse_select(arguments)
    assert [(e.feld, e.meldung) for e in info.value.errors] == [(field, "Pflichtfeld fehlt.")]


@pytest.mark.parametrize("field", ["nutzer", "agent"])
def test_identities_value_or_list_become_string_lists(field: str) -> None:
    # Given an integer, and a list with a duplicate / When parsing / Then lists of strings
    assert getattr(select(**{field: 7}), field) == ["7"]
    assert getattr(select(**{field: [7, " x ", "7"]}), field) == ["7", "x"]


@pytest.mark.parametrize("field", ["nutzer", "agent"])
@pytest.mark.parametrize(
    ("value", "feld", "rule"),
    [
        ([], "", "Mindestens 1"),
        ([str(i) for i in range(21)], "", "Höchstens 20"),
        (True, "", "Zeichenkette, Ganzzahl oder Liste"),
        ({"id": 1}, "", "Zeichenkette, Ganzzahl oder Liste"),
        ("", "", "leer"),
        (["ok", False], "[1]", "Zeichenkette oder Ganzzahl"),
        (["ok", "x" * 201], "[1]", "200"),
    ],
)
def test_identity_rules(field: str, value: Any, feld: str, rule: str) -> None:
    # Given an invalid nutzer/agent / When parsing / Then the value or item is named
    error = the_error(**{field: value})
    assert error.feld == f"{field}{feld}"
    assert rule in error.meldung


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("texte", {Detail.TEXTE}),
        (" erinnerungen , stammdaten ", {Detail.ERINNERUNGEN, Detail.STAMMDATEN}),
        ("texte,,texte,", {Detail.TEXTE}),
    ],
)
def test_detailgrad_comma_list(value: str, expected: set[Detail]) -> None:
    # Given a comma list / When parsing / Then the trimmed parts, empty segments ignored
    assert select(detailgrad=value).detailgrad == frozenset(expected)


@pytest.mark.parametrize("value", ["texte,alles", "Texte", "", " , ", 1, ["texte"]])
def test_detailgrad_invalid_names_the_allowed_values(value: Any) -> None:
    # Given an unknown, empty or non-string detailgrad / When parsing / Then rejected
    error = the_error(detailgrad=value)
    assert error.feld == "detailgrad"
    if isinstance(value, str):
        assert "stammdaten, texte, erinnerungen" in error.meldung
    else:
        assert "Zeichenkette" in error.meldung


def test_detailgrad_every_unknown_value_is_named() -> None:
    # Given two unknown values / When parsing / Then one error each
    errors = rejected(detailgrad="alles,texte,nichts")
    assert [e.feld for e in errors] == ["detailgrad", "detailgrad"]
    # named by their position, never repeated
    assert "an Position 1 der Liste" in errors[0].meldung
    assert "an Position 3 der Liste" in errors[1].meldung
    assert "alles" not in errors[0].meldung and "nichts" not in errors[1].meldung


def test_ids_deduplicated_and_empty_list_is_no_filter() -> None:
    # Given IDs with duplicates, and an empty list / When parsing / Then order kept, no filter
    assert select(ID=[5, 2, 5, 1, 2]).ids == [5, 2, 1]
    assert select(ID=[]).ids is None


@pytest.mark.parametrize(
    ("value", "feld", "rule"),
    [
        (5, "ID", "Liste"),
        (list(range(1, 102)), "ID", "Höchstens 100"),
        ([1, True], "ID[1]", "Ganzzahl"),
        ([1, "2"], "ID[1]", "Ganzzahl"),
        ([1, 2.0], "ID[1]", "Ganzzahl"),
        ([1, 0], "ID[1]", "zwischen 1 und"),
        ([1, 2**63], "ID[1]", "9223372036854775807"),
    ],
)
def test_id_rules(value: Any, feld: str, rule: str) -> None:
    # Given invalid IDs / When parsing / Then the list or the item is named with the rule
    error = the_error(ID=value)
    assert error.feld == feld
    assert rule in error.meldung


@pytest.mark.parametrize(
    ("value", "rule"), [("", "leer"), ("   ", "leer"), ("q" * 1001, "1000"), (5, "Zeichenkette")]
)
def test_query_rules(value: Any, rule: str) -> None:
    # Given an invalid query / When parsing / Then field and rule are named
    error = the_error(query=value)
    assert (error.feld, rule in error.meldung) == ("query", True)


@pytest.mark.parametrize("value", ["Kunde", "lieferant", "", 1])
def test_vk_typ_names_the_allowed_values(value: Any) -> None:
    # Given an unknown vk_typ / When parsing / Then the allowed values are named
    error = the_error(vk_typ=value)
    assert error.feld == "vk_typ"
    assert "kunde, produkt, mitarbeiter, projekt" in error.meldung


def test_vk_typ_alone_is_allowed() -> None:
    # Given only vk_typ / When parsing / Then it filters by type only
    result = select(vk_typ="projekt")
    assert (result.vk_typ, result.vk_referenz_id) == (VkTyp.PROJEKT, None)


def test_vk_referenz_id_requires_vk_typ() -> None:
    # Given vk_referenz_id without vk_typ / When parsing / Then rejected with that rule
    error = the_error(vk_referenz_id="4711")
    assert error.feld == "vk_referenz_id"
    assert "vk_referenz_id erfordert vk_typ" in error.meldung


@pytest.mark.parametrize(
    ("value", "rule"), [("", "leer"), ("v" * 201, "200"), (True, "Zeichenkette oder Ganzzahl")]
)
def test_vk_referenz_id_rules(value: Any, rule: str) -> None:
    # Given an invalid vk_referenz_id with a vk_typ / When parsing / Then field and rule named
    error = the_error(vk_typ="kunde", vk_referenz_id=value)
    assert (error.feld, rule in error.meldung) == ("vk_referenz_id", True)


@pytest.mark.parametrize("value", ["memory", "Brain", 1, None])
def test_suchtyp_only_brain(value: Any) -> None:
    # Given another suchtyp / When parsing / Then only brain is allowed
    error = the_error(suchtyp=value)
    assert (error.feld, "Nur 'brain'" in error.meldung) == ("suchtyp", True)


@pytest.mark.parametrize(
    ("value", "rule"),
    [(0, "zwischen 1 und 100"), (101, "zwischen 1 und 100"), (True, "Ganzzahl"), ("5", "Ganzzahl")],
)
def test_limit_rules(value: Any, rule: str) -> None:
    # Given an invalid limit / When parsing / Then field and rule are named
    error = the_error(limit=value)
    assert (error.feld, rule in error.meldung) == ("limit", True)


def test_referenzfelder_limits_apply() -> None:
    # Given referenzfelder with a nested value / When parsing / Then its key is named by
    # position (keys of referenzfelder are never echoed)
    error = the_error(referenzfelder={"a": {"b": 1}})
    assert error.feld == "referenzfelder[Schlüssel 0]"


def test_all_errors_are_collected_and_unknown_keys_ignored() -> None:
    # Given several invalid filters and an unknown key
    errors = rejected(detailgrad="x", ID=[0], limit=0, vk_typ="y", unbekannt=1)
    # When parsing / Then each invalid filter is named, the unknown key is not
    assert [e.feld for e in errors] == ["detailgrad", "ID[0]", "vk_typ", "limit"]
