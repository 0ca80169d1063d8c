"""Smoke run of the scale benchmark (issue 12), tiny: the caller's search reads the same
postings and, on DynamoDB Local, the same read units whether the tenant holds 30 or 150
memories — a design that read tenant-wide posting lists would read five times as much."""

from __future__ import annotations

import pytest

from tests.lambda_functions.test_benchmarks import benchmark

SIZES = [30, 150]


@pytest.fixture
def scale(monkeypatch: pytest.MonkeyPatch) -> object:
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in (
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", "testing"),
        ("AWS_DEFAULT_REGION", "eu-central-1"),
    ):
        monkeypatch.setenv(name, value)
    return benchmark("scale")


def test_read_units_per_search_do_not_follow_the_tenant(scale: object) -> None:
    module = scale
    # (tiny: one query text, few areas)
    small = module.Scenario(10, 1, 5, teams=1, projects=1)  # type: ignore[attr-defined]
    # Given one tenant grown from 30 to 150 memories, the caller's areas unchanged
    rows = module.run_dynamodb(SIZES, 1, small)  # type: ignore[attr-defined]
    first, last = rows
    # Then a search makes the same calls and reads the same postings and read units
    assert last.extra["calls"] == first.extra["calls"] > 0
    assert last.postings_read == first.postings_read > 0
    assert last.extra["read_units"] <= 1.1 * first.extra["read_units"]
    # And the cut-off leaves the ranking of these small lists exact
    assert first.recall_at_10 == last.recall_at_10 == 1.0


def test_sqlite_search_reads_the_same_postings_at_every_size(scale: object) -> None:
    small = scale.Scenario(10, 1, 5, teams=1, projects=1)  # type: ignore[attr-defined]
    first, last = scale.run_sqlite([100, 500], 3, small)  # type: ignore[attr-defined]
    assert last.postings_read == first.postings_read > 0
    assert min(first.search_ms, last.search_ms) > 0
