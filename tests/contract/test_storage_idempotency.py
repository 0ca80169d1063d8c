"""Contract: retry-safe writes on every adapter — the IDs reserved per entry of a keyed
write (`reserve_entry_ids`) and Powertools' idempotency state machine on the adapter's
persistence layer (`idempotency_layer`)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from aws_lambda_powertools.utilities.idempotency.base import IdempotencyHandler
from aws_lambda_powertools.utilities.idempotency.config import IdempotencyConfig
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
)

from shared.domain import CounterName
from shared.storage.port import StoragePort

LATER = datetime.now(UTC) + timedelta(hours=1)


class _Remaining:
    def __init__(self, millis: int) -> None:
        self.millis = millis

    def get_remaining_time_in_millis(self) -> int:
        return self.millis


def _handler(
    storage: StoragePort, payload: dict[str, Any], function: Any, remaining_ms: int = 60_000
) -> IdempotencyHandler:
    config = IdempotencyConfig(
        expires_after_seconds=3600, hash_function="sha256", lambda_context=_Remaining(remaining_ms)
    )
    return IdempotencyHandler(
        function=function,
        function_payload=payload,
        config=config,
        persistence_store=storage.idempotency_layer(),
        key_prefix="brain",
        function_args=(),
        function_kwargs={},
    )


def test_entry_ids_come_back_for_the_same_entries_of_a_write(storage: StoragePort) -> None:
    # Given a keyed write of three entries
    first = storage.reserve_entry_ids(
        "t1", CounterName.LONGTERM, "write-a", [(0, "f0"), (1, "f1"), (2, "f2")], LATER
    )
    assert [r.reused for r in first.values()] == [False, False, False]
    assert len({r.number for r in first.values()}) == 3
    # When it is sent again with entry 1 corrected and entry 3 added
    again = storage.reserve_entry_ids(
        "t1", CounterName.LONGTERM, "write-a", [(0, "f0"), (1, "f1-neu"), (3, "f3")], LATER
    )
    # Then the unchanged entry gets its ID back, the changed and new ones fresh IDs
    assert again[0].number == first[0].number and again[0].reused
    assert not again[1].reused and not again[3].reused
    every = [r.number for r in first.values()] + [again[1].number, again[3].number]
    assert len(set(every)) == 5
    # And the changed entry's new ID is what a third send gets
    third = storage.reserve_entry_ids("t1", CounterName.LONGTERM, "write-a", [(1, "f1-neu")], LATER)
    assert third[1].number == again[1].number and third[1].reused
    # And other keys, counters and tenants never share these IDs
    other = storage.reserve_entry_ids("t1", CounterName.LONGTERM, "write-b", [(0, "f0")], LATER)
    plain = storage.reserve_ids("t1", CounterName.LONGTERM, 2)
    assert not other[0].reused and other[0].number not in every
    assert set(plain).isdisjoint([*every, other[0].number])
    assert not storage.reserve_entry_ids("t2", CounterName.LONGTERM, "write-a", [(0, "f0")], LATER)[
        0
    ].reused
    assert not storage.reserve_entry_ids("t1", CounterName.RATING, "write-a", [(0, "f0")], LATER)[
        0
    ].reused


def test_an_expired_reservation_is_not_reused(storage: StoragePort) -> None:
    past = datetime.now(UTC) - timedelta(seconds=5)
    first = storage.reserve_entry_ids("t1", CounterName.BRAIN, "write-x", [(0, "f")], past)
    again = storage.reserve_entry_ids("t1", CounterName.BRAIN, "write-x", [(0, "f")], LATER)
    assert not again[0].reused and again[0].number != first[0].number


def test_a_completed_call_answers_again_without_running(storage: StoragePort) -> None:
    runs: list[int] = []

    def work() -> dict[str, Any]:
        runs.append(1)
        return {"erfolg": True, "daten": [{"ID": f"longterm_{len(runs)}"}]}

    payload = {"tenant": "t1", "tool": "insert", "arguments": {"a": 1}}
    # Given a completed call
    first = _handler(storage, payload, work).handle()
    # When the identical call arrives again
    second = _handler(storage, payload, work).handle()
    # Then it gets the first answer and the work ran once
    assert first == second == {"erfolg": True, "daten": [{"ID": "longterm_1"}]}
    assert runs == [1]
    # And a different call runs
    _handler(storage, {**payload, "arguments": {"a": 2}}, work).handle()
    assert runs == [1, 1]


def test_a_running_call_refuses_its_duplicate(storage: StoragePort) -> None:
    payload = {"tenant": "t1", "tool": "rate", "arguments": {"s": 8}}
    seen: list[str] = []

    def outer() -> dict[str, Any]:
        # While this call runs, the identical call arrives
        with pytest.raises(IdempotencyAlreadyInProgressError):
            _handler(storage, payload, lambda: {"never": True}).handle()
        seen.append("refused")
        return {"erfolg": True}

    assert _handler(storage, payload, outer).handle() == {"erfolg": True}
    assert seen == ["refused"]


def test_a_call_cut_off_runs_again_after_its_deadline(storage: StoragePort) -> None:
    payload = {"tenant": "t1", "tool": "insert", "arguments": {"crash": True}}
    # Given a call that reserved its record with no time left and never finished
    layer = storage.idempotency_layer()
    _handler(storage, payload, lambda: None, remaining_ms=0)  # configures the layer
    layer.save_inprogress(data=payload, remaining_time_in_millis=0)
    time.sleep(0.005)  # the deadline (in ms) has passed
    # When it is resent after the deadline
    answer = _handler(storage, payload, lambda: {"erfolg": True, "zweiter": 1}).handle()
    # Then the resend runs
    assert answer == {"erfolg": True, "zweiter": 1}


def test_a_failed_call_is_forgotten(storage: StoragePort) -> None:
    payload = {"tenant": "t1", "tool": "insert", "arguments": {"x": 1}}

    def fails() -> dict[str, Any]:
        raise ValueError("nichts gespeichert")

    with pytest.raises(ValueError, match="nichts gespeichert"):
        _handler(storage, payload, fails).handle()
    assert _handler(storage, payload, lambda: {"erfolg": True}).handle() == {"erfolg": True}
