"""Reserved identity metadata (seed 004), measured on two corpora: ordinary notes are
stored, attempts to set author/account/device/tenant/subject are caught."""

from __future__ import annotations

from shared.services.identity import reserved_identity_keys
from tests.data.identity_corpus import SPOOFING_ATTEMPTS, ordinary_notes


def test_the_corpora_are_large_enough() -> None:
    assert len(ordinary_notes()) >= 200
    assert len(set(ordinary_notes())) == len(ordinary_notes())
    assert len(SPOOFING_ATTEMPTS) >= 40


def test_no_ordinary_note_is_refused() -> None:
    # Given ordinary notes, many starting a line with "User:", "Agent:", "Account:", …
    # When each is checked, Then none names reserved identity metadata
    refused = {note: keys for note in ordinary_notes() if (keys := reserved_identity_keys(note))}
    assert refused == {}


def test_every_spoofing_attempt_is_caught() -> None:
    missed = [attempt for attempt in SPOOFING_ATTEMPTS if not reserved_identity_keys(attempt)]
    assert missed == []


def test_the_keys_found_are_named_without_their_values() -> None:
    assert reserved_identity_keys("---\nAutor: Bruno\nGerät: Laptop-7\n---\nText") == [
        "autor",
        "geraet",
    ]
