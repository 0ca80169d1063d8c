"""Numbered round-trip stages: which calls ran side by side.

`Numbered` is the production `RoundTrips` with each top-level task run under a context
variable naming its stage and its position in the stage (`current_stage()`); the pool
threads get a copy of the caller's context, so a botocore `before-call` hook can record
which calls ran side by side: the sequential round trips of an operation are, per stage,
the most calls any one task made, plus one per call outside any stage. A nested `run`
executes inline (production), so its calls keep the enclosing task's mark.
"""

from __future__ import annotations

import contextvars
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from shared.storage.dynamo.parallel import RoundTrips, in_stage


@dataclass(frozen=True)
class Stage:
    """Where a call runs: stage `stage` (unique per process), task `task` of that stage."""

    stage: int
    task: int


_CURRENT: contextvars.ContextVar[Stage | None] = contextvars.ContextVar(
    "test_round_trip_stage", default=None
)
_STAGE_IDS = itertools.count(1)  # next() on a count is atomic


def current_stage() -> Stage | None:
    """The stage of the running task, or None outside a `Numbered.run`."""
    return _CURRENT.get()


def _marked[T](stage: Stage, task: Callable[[], T]) -> T:
    token = _CURRENT.set(stage)
    try:
        return task()
    finally:
        _CURRENT.reset(token)


class Numbered(RoundTrips):
    """`RoundTrips` whose stages are numbered (module docstring)."""

    def run[T](self, tasks: Sequence[Callable[[], T]]) -> list[T]:
        if in_stage() or not tasks:
            return super().run(tasks)
        stage = next(_STAGE_IDS)
        return super().run([partial(_marked, Stage(stage, i), t) for i, t in enumerate(tasks)])
