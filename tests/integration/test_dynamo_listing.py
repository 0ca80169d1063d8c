"""list_memories on DynamoDB: one by_area Query per area, side by side — never a scan."""

from __future__ import annotations

from collections import Counter

from shared.domain import MemoryPosition, MemoryType
from shared.storage.dynamo import DynamoStorage
from tests.contract.builders import TENANT, at, lt, new_memory
from tests.integration.conftest import CallRecorder

AREAS = ["users/anna", "teams/support", "projects/memory-os"]


def test_a_page_over_three_areas_is_one_stage_of_three_queries(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given 30 memories spread over three areas
    memories = [new_memory(lt(n), area=AREAS[n % 3], created_at=at(n)) for n in range(1, 31)]
    assert storage.put_memories(memories) == [None] * 30
    recorder.reset()
    # When the newest 10 of all three areas are listed
    page = storage.list_memories(TENANT, AREAS, None, at(100), 10)
    # Then one Query per area ran, all in one stage, and no Scan
    assert [m.id.number for m in page] == list(range(30, 20, -1))
    assert recorder.stages() == [Counter({"Query": 3})]
    assert recorder.sequential_round_trips() == 1
    recorder.reset()
    # And the next page starts after the last position, again one stage
    last = page[-1]
    following = storage.list_memories(
        TENANT, AREAS, MemoryPosition(last.created_at, last.id), at(100), 10
    )
    assert [m.id.number for m in following] == list(range(20, 10, -1))
    assert recorder.stages() == [Counter({"Query": 3})]
    assert all(m.id.typ is MemoryType.LONGTERM for m in following)
