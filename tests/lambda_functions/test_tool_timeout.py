"""A tool Lambda that times out in the middle of a batch (the process is gone: no cleanup
runs) leaves an in-progress record that expires with the invocation's remaining time; the
router's or client's resend then stores exactly the entries that are missing."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import pytest

from shared.domain import MemoryId, MemoryType, NewMemory
from shared.lambda_runtime import container as container_module
from shared.lambda_runtime.tool_handler import make_tool_handler
from shared.storage.dynamo.adapter import DynamoStorage
from tests.lambda_functions.conftest import FakeLambdaContext
from tests.lambda_functions.test_tool_handlers import sample

ENTRIES = 10
STORED_BEFORE_TIMEOUT = 4


class _TimedOut(BaseException):
    """Lambda ending the process at its timeout: no `except Exception` sees it."""


@dataclass
class _AlmostOutOfTime(FakeLambdaContext):
    def get_remaining_time_in_millis(self) -> int:
        return 1


def _event() -> dict[str, Any]:
    event = sample("insert_brain_longterm_memory")
    entry = event["arguments"]["inhalt"]["memories"][0]
    event["arguments"]["inhalt"]["memories"] = [
        {**entry, "kurzbeschreibung": f"eintrag-{i}"} for i in range(ENTRIES)
    ]
    return event


def test_a_batch_cut_off_by_the_timeout_is_completed_by_the_resend(
    aws_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    handler = make_tool_handler("insert_brain_longterm_memory")
    put = DynamoStorage.put_memories

    def dies_midway(self: DynamoStorage, memories: list[NewMemory]) -> Any:
        put(self, memories[:STORED_BEFORE_TIMEOUT])
        raise _TimedOut

    # Given an insert of 10 memories whose Lambda times out after storing 4
    monkeypatch.setattr(DynamoStorage, "put_memories", dies_midway)
    with pytest.raises(_TimedOut):
        handler(_event(), _AlmostOutOfTime())
    monkeypatch.setattr(DynamoStorage, "put_memories", put)
    time.sleep(0.01)  # the in-progress record expires with the invocation's time

    # When the identical call is resent
    answer = handler(_event(), FakeLambdaContext())

    # Then it succeeds for all 10 entries, and each is stored exactly once
    assert answer["erfolg"] is True, answer
    assert answer["anzahl_erfolgreich"] == ENTRIES
    storage = container_module.container().storage
    tenant = _event()["principal"]["tenant"]
    candidates = [MemoryId(MemoryType.LONGTERM, n) for n in range(1, 3 * ENTRIES)]
    found = storage.get_memories(tenant, candidates, storage_now())
    texts = sorted(memory.kurzbeschreibung for memory in found.values())
    assert texts == sorted(f"eintrag-{i}" for i in range(ENTRIES))
    assert sorted(entry["ID"] for entry in answer["daten"]) == sorted(str(m) for m in found)
    # And a further resend gets that answer again
    assert handler(_event(), FakeLambdaContext()) == answer


def storage_now() -> Any:
    from datetime import UTC, datetime

    return datetime.now(UTC)
