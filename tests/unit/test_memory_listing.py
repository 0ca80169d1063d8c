"""The listing's cursor and filters (shared/services/memory_listing.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from shared.domain import MemoryPosition
from shared.services.memory_api import ApiRefused, Bucket
from shared.services.memory_listing import ListFilters, decode_cursor, encode_cursor
from tests.contract.builders import lt, make_memory, st

BERLIN = ZoneInfo("Europe/Berlin")


def filters(**given: object) -> ListFilters:
    fields: dict[str, object] = {
        "pfad": None,
        "bucket": None,
        "team": None,
        "projekt": None,
        "agent": None,
        "konto": None,
        "geraet": None,
        "quelle": None,
        "tags": [],
        "erstellt_ab": None,
        "erstellt_bis": None,
        "q": None,
    }
    fields.update(given)
    return ListFilters.of(**fields, zone=BERLIN)  # type: ignore[arg-type]


def test_a_cursor_round_trips_and_is_bound_to_its_filters() -> None:
    # Given a position and the fingerprint of some filters
    position = MemoryPosition(datetime(2026, 11, 30, 8, 0, 0, 123456, tzinfo=UTC), lt(7))
    fingerprint = filters(bucket=Bucket.LANGZEIT).fingerprint("42")
    # When it is encoded and decoded with the same filters, then it is the same position
    cursor = encode_cursor(position, fingerprint)
    assert decode_cursor(cursor, fingerprint) == position
    assert "=" not in cursor and "/" not in cursor and "+" not in cursor
    # And other filters, another nutzer or a forged cursor are refused
    for other in (filters().fingerprint("42"), filters(bucket=Bucket.LANGZEIT).fingerprint("43")):
        with pytest.raises(ApiRefused) as refused:
            decode_cursor(cursor, other)
        assert refused.value.errors[0].feld == "cursor"
    for forged in ("", "!!!", "e30", cursor[:-4]):
        with pytest.raises(ApiRefused):
            decode_cursor(forged, fingerprint)


def test_filters_match_by_every_given_field() -> None:
    memory = make_memory(
        st(3),
        area="teams/support",
        tags=["Rechnung", "Kunde"],
        agent="bot",
        referenzfelder={"pfad": "teams/support/faq", "quelle": "crm", "konto": "k", "geraet": "g"},
        created_at=datetime(2026, 11, 30, 12, 0, tzinfo=UTC),
    )
    matching = [
        filters(),
        filters(bucket=Bucket.KURZZEIT),
        filters(pfad="teams/support/faq"),
        filters(pfad="/teams/"),
        filters(agent="bot", konto="k", geraet="g", quelle="crm"),
        filters(tags=["rechnung", " KUNDE "]),
        filters(erstellt_ab=datetime(2026, 11, 30, 13, 0)),  # Berlin = 12:00 UTC, inclusive
        filters(erstellt_bis=datetime(2026, 11, 30, 12, 0, 1, tzinfo=UTC)),
    ]
    assert all(f.matches(memory) for f in matching)
    failing = [
        filters(bucket=Bucket.LANGZEIT),
        filters(pfad="teams/support/f"),
        filters(pfad="teams/supportx"),
        filters(agent="other"),
        filters(quelle="wiki"),
        filters(tags=["rechnung", "fehlt"]),
        filters(erstellt_bis=datetime(2026, 11, 30, 12, 0, tzinfo=UTC)),  # exclusive
    ]
    assert not any(f.matches(memory) for f in failing)


def test_area_filters_narrow_the_areas_before_storage_is_asked() -> None:
    assert filters(team="support").area_allowed("teams/support")
    assert not filters(team="support").area_allowed("users/42")
    assert filters(projekt="os").area_allowed("projects/os")
    assert filters(pfad="projects/os/decisions").area_allowed("projects/os")
    assert not filters(pfad="projects/os/decisions").area_allowed("projects/other")
    assert filters(pfad="users").area_allowed("users/42")


def test_area_filters_are_read_in_normal_form() -> None:
    # One normalisation for every path (validation/paths.py): NFKC, one case
    assert filters(pfad="/Projects/Memory-OS/").pfad == "projects/memory-os"
    assert filters(team="Groß").team == "gross"
    assert filters(projekt="ＯＳ").projekt == "os"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("pfad", "../etc"),
        ("pfad", "kunden/x"),
        ("pfad", "users/\u0430"),  # a Cyrillic "а"
        ("team", ".."),
        ("team", "gr\u043eup"),  # a Cyrillic "о"
        ("projekt", "a/b"),
    ],
)
def test_bad_area_filters_are_refused_naming_the_parameter(field: str, value: str) -> None:
    with pytest.raises(ApiRefused) as refused:
        filters(**{field: value})
    assert refused.value.errors[0].feld == field
