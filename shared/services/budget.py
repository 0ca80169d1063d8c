"""A time budget per tool call: CPU-heavy steps (scrubbing, ranking) check it and stop with a
clear German error instead of holding a worker for ever.

The budget is a deadline in a context variable, set by the dispatcher around one call
(`time_budget`). Checks happen only before anything is written, so an exceeded budget never
leaves a half-written batch: the call fails as a whole and can be retried.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from shared.validation.errors import Art, FieldError

_DEADLINE: ContextVar[float | None] = ContextVar("brain_deadline", default=None)


def budget_exceeded_message(seconds: float) -> str:
    return (
        f"Zeitbudget überschritten: Die Anfrage brauchte länger als {seconds:g} s und wurde "
        "abgebrochen; nichts wurde gespeichert. Weniger oder kürzere Einträge pro Aufruf senden."
    )


def budget_refusal(seconds: float) -> FieldError:
    """The refusal of a call that ran past its budget (nothing was stored)."""
    return FieldError("anfrage", budget_exceeded_message(seconds), Art.BUDGET)


class BudgetExceeded(Exception):
    """The current call ran past its deadline."""


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    token = _DEADLINE.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check_budget() -> None:
    deadline = _DEADLINE.get()
    if deadline is not None and time.monotonic() > deadline:
        raise BudgetExceeded
