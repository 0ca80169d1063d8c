"""Round-trip stages: run independent AWS calls together, and make the stages observable.

`RoundTrips.run(tasks)` is one sequential round-trip *stage*: the tasks are independent and
run concurrently (production: a bounded thread pool created once per adapter) or one after
the other (tests: moto is not thread-safe). A call made outside `run` is a stage of its own.

Each task runs with a context variable naming its stage and its position in the stage
(`current_stage()`); the pool threads get a copy of the caller's context. A botocore
`before-call` hook registered by a test can therefore record which calls ran side by side:
the sequential round trips of an operation are, per stage, the most calls any one task
made, plus one per call outside any stage.

`run` never nests: a task that calls `run` again executes the inner tasks inline, in
order, inside its own stage (a pool thread waiting for the pool could deadlock it).
"""

from __future__ import annotations

import contextvars
import itertools
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from functools import partial
from typing import cast


@dataclass(frozen=True)
class Stage:
    """Where a call runs: stage `stage` (unique per process), task `task` of that stage."""

    stage: int
    task: int


_CURRENT: contextvars.ContextVar[Stage | None] = contextvars.ContextVar(
    "brain_round_trip_stage", default=None
)
_STAGE_IDS = itertools.count(1)  # next() on a count is atomic


def current_stage() -> Stage | None:
    """The stage of the running task, or None outside `RoundTrips.run`."""
    return _CURRENT.get()


def _outcome[T](task: Callable[[], T]) -> tuple[T | None, BaseException | None]:
    try:
        return task(), None
    except BaseException as exc:  # noqa: BLE001 - re-raised by the caller, after all tasks end
        return None, exc


def _results[T](outcomes: Sequence[tuple[T | None, BaseException | None]]) -> list[T]:
    """The results in task order, or the first exception (in task order) raised."""
    for _, exc in outcomes:
        if exc is not None:
            raise exc
    return [cast("T", result) for result, _ in outcomes]  # None only beside an exception


def _in_stage[T](stage: Stage, task: Callable[[], T]) -> T:
    token = _CURRENT.set(stage)
    try:
        return task()
    finally:
        _CURRENT.reset(token)


def _submit[T](pool: ThreadPoolExecutor, task: Callable[[], T]) -> Future[T]:
    """`task` on `pool` in a copy of the caller's context."""
    return pool.submit(contextvars.copy_context().run, task)


class RoundTrips:
    """Runs the independent calls of one stage: concurrently (max_parallel > 1, on a pool
    whose threads start with the first parallel stage) or serially."""

    def __init__(self, max_parallel: int = 1) -> None:
        if max_parallel < 1:
            raise ValueError(f"max_parallel must be >= 1, not {max_parallel}")
        self.max_parallel = max_parallel
        self._pool: ThreadPoolExecutor | None = None
        if max_parallel > 1:
            self._pool = ThreadPoolExecutor(max_parallel, thread_name_prefix="brain-aws")

    @classmethod
    def serial(cls) -> RoundTrips:
        """One call at a time, stages still numbered: for moto, which is not thread-safe."""
        return cls(1)

    def run[T](self, tasks: Sequence[Callable[[], T]]) -> list[T]:
        """Run `tasks` as one stage; results in task order.

        Every task runs to its end; then the first exception raised by a task (in task
        order) is re-raised. Tasks that must not fail the stage catch their own errors.
        """
        if _CURRENT.get() is not None:  # nested: inline, part of the enclosing task
            return [task() for task in tasks]
        stage_id = next(_STAGE_IDS) if tasks else 0
        staged = [partial(_in_stage, Stage(stage_id, i), task) for i, task in enumerate(tasks)]
        if self._pool is None or len(tasks) < 2:
            return _results([_outcome(task) for task in staged])
        futures = [_submit(self._pool, task) for task in staged]
        wait(futures)
        return [future.result() for future in futures]

    def side_by_side[T](self, tasks: Sequence[Callable[[], T]]) -> list[T]:
        """Run independent *groups* of calls together: each task on its own thread (the
        first on the caller's), outside any stage, so that the stages each task runs go to
        the pool as usual. Serially when this runs stages serially (moto) or when called
        from inside a stage. Every task runs to its end; then the first exception (in task
        order) is re-raised."""
        if self._pool is None or len(tasks) < 2 or _CURRENT.get() is not None:
            return _results([_outcome(task) for task in tasks])
        with ThreadPoolExecutor(len(tasks) - 1, thread_name_prefix="brain-side") as side:
            futures = [_submit(side, partial(_outcome, task)) for task in tasks[1:]]
            first = _outcome(tasks[0])
        return _results([first, *(future.result() for future in futures)])

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
