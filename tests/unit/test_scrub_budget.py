"""The scrubber runs its caller's check between its steps (rows), so a time budget stops one
long scan early instead of only before the next text."""

from __future__ import annotations

import time

import pytest

from shared.scrubbing import scan, scrub
from shared.scrubbing.patterns import PATTERNS
from shared.services.budget import BudgetExceeded, time_budget
from shared.services.secrets import clean_value

LONG = ("Passwort: Sommer2024! token=Ab3dE5fG7hJ9kL1mN2pQ " * 1000)[:50_000]


class Stop(Exception):
    pass


def test_the_check_runs_before_every_row_and_its_exception_stops_the_scan() -> None:
    # Given a check that lets three rows run and then stops
    calls: list[int] = []

    def check() -> None:
        calls.append(1)
        if len(calls) > 3:
            raise Stop

    # When a text is scrubbed with it / Then the scan stops at the fourth row
    with pytest.raises(Stop):
        scrub(LONG, check)
    assert len(calls) == 4
    # And a check that never stops is called once per row
    calls.clear()
    scan("nichts Geheimes", lambda: calls.append(1))
    assert len(calls) == len(PATTERNS)


def test_a_budget_that_runs_out_within_one_text_stops_its_scrubbing() -> None:
    # Given one text whose scrubbing takes far longer than the budget
    started = time.thread_time()
    scrub(LONG)
    full = time.thread_time() - started
    # When it is cleaned under a budget of a tenth of that
    with time_budget(full / 10), pytest.raises(BudgetExceeded):
        clean_value(LONG)
