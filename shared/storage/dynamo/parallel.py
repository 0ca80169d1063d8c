"""Round-trip stages: run independent AWS calls together.

`RoundTrips.run(tasks)` is one sequential round-trip *stage*: the tasks are independent and
run concurrently (production: a bounded thread pool created once per adapter) or one after
the other (tests: moto is not thread-safe). A call made outside `run` is a stage of its own.

`run` never nests: a task that calls `run` again executes the inner tasks inline, in
order, inside its own stage (a pool thread waiting for the pool could deadlock it); a
context variable marks the running tasks (`in_stage()`), and the pool threads get a copy of
the caller's context. The tests number the stages in a subclass (tests/integration/stages.py)
to record which calls ran side by side.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import cast

_IN_STAGE = contextvars.ContextVar("brain_round_trip_stage", default=False)


def in_stage() -> bool:
    """Whether this runs as a task of a `RoundTrips.run` stage."""
    return _IN_STAGE.get()


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


def _staged[T](task: Callable[[], T]) -> Callable[[], T]:
    """`task`, to run in a copy of the caller's context marked as inside a stage."""
    context = contextvars.copy_context()
    context.run(_IN_STAGE.set, True)
    return partial(context.run, task)


class RoundTrips:
    """Runs the independent calls of one stage: concurrently (max_parallel > 1, on a pool
    whose threads start with the first parallel stage) or serially (1: for moto, which is
    not thread-safe)."""

    def __init__(self, max_parallel: int = 1) -> None:
        if max_parallel < 1:
            raise ValueError(f"max_parallel must be >= 1, not {max_parallel}")
        self.max_parallel = max_parallel
        self._pool = ThreadPoolExecutor(max_parallel, "brain-aws") if max_parallel > 1 else None

    def run[T](self, tasks: Sequence[Callable[[], T]]) -> list[T]:
        """Run `tasks` as one stage; results in task order. Every task runs to its end,
        then the first exception (in task order) is re-raised."""
        if in_stage():  # nested: inline, part of the enclosing task
            return [task() for task in tasks]
        staged = [_staged(task) for task in tasks]
        if self._pool is None or len(tasks) < 2:
            return _results([_outcome(task) for task in staged])
        futures = [self._pool.submit(_outcome, task) for task in staged]
        return _results([future.result() for future in futures])

    def side_by_side[T](self, tasks: Sequence[Callable[[], T]]) -> list[T]:
        """Run independent *groups* of calls together: each task on its own thread (the
        first on the caller's), outside any stage, so that the stages each runs go to the
        pool as usual; serially without a pool or inside a stage. Errors as in `run`."""
        if self._pool is None or len(tasks) < 2 or in_stage():
            return _results([_outcome(task) for task in tasks])
        with ThreadPoolExecutor(len(tasks) - 1, thread_name_prefix="brain-side") as side:
            futures = [side.submit(contextvars.copy_context().run, _outcome, t) for t in tasks[1:]]
            first = _outcome(tasks[0])
        return _results([first, *(future.result() for future in futures)])

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
