"""The round-trip executor: concurrency, nesting, errors; and the tests' stage marks
(stages.py) in pool threads."""

from __future__ import annotations

import threading

import pytest

from shared.storage.dynamo.parallel import RoundTrips, in_stage
from tests.integration.stages import Numbered, Stage, current_stage


def test_pool_runs_the_tasks_of_a_stage_concurrently_and_marks_them() -> None:
    # Given a pool of 4 and 4 tasks that can only finish when all 4 run at once
    barrier = threading.Barrier(4, timeout=5)
    round_trips = Numbered(4)

    def task() -> tuple[Stage | None, str]:
        barrier.wait()
        return current_stage(), threading.current_thread().name

    # When they run as one stage
    results = round_trips.run([task] * 4)
    round_trips.close()
    # Then they ran side by side in pool threads, all in one stage, numbered in order
    marks = [stage for stage, _ in results if stage is not None]
    assert len(marks) == 4
    assert len({mark.stage for mark in marks}) == 1
    assert [mark.task for mark in marks] == [0, 1, 2, 3]
    assert all(name.startswith("brain-aws") for _, name in results)
    # And outside a stage there is no mark
    assert current_stage() is None
    assert not in_stage()


def test_each_run_is_a_new_stage_and_serial_mode_marks_too() -> None:
    # Given a serial executor
    round_trips = Numbered()
    # When two stages run
    first = round_trips.run([current_stage, current_stage])
    second = round_trips.run([current_stage])
    # Then each has its own stage id, tasks numbered within it
    assert first[0] is not None and first[1] is not None and second[0] is not None
    assert first[0].stage == first[1].stage != second[0].stage
    assert (first[0].task, first[1].task, second[0].task) == (0, 1, 0)


def test_nested_run_executes_inline_in_the_enclosing_task() -> None:
    # Given a pool of 2 (a nested stage waiting for the pool could deadlock it)
    round_trips = Numbered(2)

    def outer() -> list[Stage | None]:
        assert in_stage()
        return [current_stage(), *round_trips.run([current_stage, current_stage])]

    # When a task runs a nested stage
    results = round_trips.run([outer, outer])
    round_trips.close()
    # Then the nested calls belong to the enclosing task's stage and task
    for task_index, marks in enumerate(results):
        assert len(set(marks)) == 1
        assert marks[0] is not None and marks[0].task == task_index


def test_a_failing_task_does_not_stop_the_others_and_is_reraised() -> None:
    # Given three tasks, the second of which fails
    done: list[int] = []

    def ok(number: int) -> int:
        done.append(number)
        return number

    def boom() -> int:
        raise RuntimeError("boom")

    for round_trips in (RoundTrips(), RoundTrips(3)):
        done.clear()
        # When they run as one stage
        with pytest.raises(RuntimeError, match="boom"):
            round_trips.run([lambda: ok(1), boom, lambda: ok(3)])
        round_trips.close()
        # Then the other tasks still ran to their end
        assert sorted(done) == [1, 3]


def test_closed_pool_refuses_work_and_max_parallel_is_validated() -> None:
    # Given a closed pool
    round_trips = RoundTrips(2)
    round_trips.close()
    # When a parallel stage is run, Then it is refused
    with pytest.raises(RuntimeError):
        round_trips.run([current_stage, current_stage])
    # And a pool needs at least one worker
    with pytest.raises(ValueError):
        RoundTrips(0)
