"""The near-duplicate rule (shared/search/duplicates.py): threshold per measure and its three
vetoes, each shown to decide on its own."""

from __future__ import annotations

import random
import re

import pytest

from shared.search.duplicates import (
    DuplicateRule,
    Similarity,
    change_markers,
    cosine,
    identifiers,
    is_duplicate,
    similarity,
    value_tokens,
)
from shared.validation.requests import MEMORY_MAX_LEN

STORED = "Produktions-Deployments laufen nur dienstags zwischen 10 und 12 Uhr."
ALIKE = Similarity(0.9, "vektor")


def test_a_paraphrase_above_the_threshold_is_a_duplicate() -> None:
    new = "Deployments in Produktion finden nur dienstags von 10 bis 12 Uhr statt."
    assert is_duplicate(new, STORED, ALIKE)


def test_below_the_threshold_of_its_measure_it_is_not() -> None:
    new = "Deployments in Produktion finden nur dienstags von 10 bis 12 Uhr statt."
    rule = DuplicateRule(vector_threshold=0.95, word_threshold=0.1)
    assert not is_duplicate(new, STORED, ALIKE, rule)
    assert is_duplicate(new, STORED, Similarity(0.2, "woerter"), rule)


@pytest.mark.parametrize(
    ("new", "veto"),
    [
        ("Produktions-Deployments laufen nur dienstags zwischen 14 und 16 Uhr.", "values"),
        (
            "Produktions-Deployments laufen nur dienstags zwischen 10 und 12 Uhr; in der Woche"
            " vor Weihnachten und an Feiertagen gar nicht, außer mit Freigabe.",
            "length",
        ),
        ("Produktions-Deployments laufen jetzt dienstags zwischen 10 und 12 Uhr.", "marker"),
        ("Deployments now run on Tuesdays between 10 and 12.", "marker"),
    ],
)
def test_each_veto_makes_a_similar_text_no_duplicate(new: str, veto: str) -> None:
    assert not is_duplicate(new, STORED, Similarity(0.99, "vektor")), veto


def test_a_marker_the_stored_text_has_too_is_no_veto() -> None:
    stored = "Neue Mitarbeiter bekommen einen Laptop."
    assert is_duplicate("Jeder neue Mitarbeiter bekommt einen Laptop.", stored, ALIKE)


def test_values_are_digits_mail_addresses_and_code_spans() -> None:
    text = "Rechnungen an Buchhaltung@Becker.example.de, Lauf `make unit` um 9:30, Version 3.12"
    assert value_tokens(text) == {
        "buchhaltung@becker.example.de",
        "`make unit`",
        "9",
        "30",
        "3",
        "12",
    }
    assert change_markers("Inzwischen nicht mehr, no longer") == {"inzwischen", "mehr", "longer"}


def test_the_measure_is_the_vectors_cosine_only_where_both_have_one_of_a_dimension() -> None:
    assert similarity("a b", "a c", [1.0, 0.0], [1.0, 0.0]) == Similarity(1.0, "vektor")
    words = similarity("Lager Inventur Freitag", "Inventur im Lager", [1.0, 0.0], None)
    assert words.measure == "woerter" and words.value == pytest.approx(3 / 4)
    assert similarity("x", "x", [1.0, 0.0], [1.0, 0.0, 0.0]).measure == "woerter"
    assert cosine([3.0, 4.0], [6.0, 8.0]) == pytest.approx(1.0)
    assert cosine([0.0, 0.0], [1.0, 0.0]) == 0.0


def test_identifiers_are_the_regex_findall_in_linear_time() -> None:
    # Given random texts of the characters that matter (the regex the rule was written with)
    pattern = re.compile(r"[\w.+-]+@[\w.-]+|`[^`]+`")
    rng = random.Random(25)
    texts = [
        "".join(rng.choice("ab.+-@` é1_") for _ in range(rng.randint(0, 24))) for _ in range(20000)
    ]
    # Then the linear scan finds exactly what findall finds
    assert [identifiers(t) for t in texts] == [pattern.findall(t) for t in texts]
    # And a memory of the longest allowed word (where the regex backtracks for minutes)
    long = "x" * MEMORY_MAX_LEN
    assert identifiers(long + " a@b.de `c`") == ["a@b.de", "`c`"]
