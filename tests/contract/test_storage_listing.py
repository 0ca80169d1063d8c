"""Contract: list_memories — the areas' memories, newest first, paged by position."""

from __future__ import annotations

from shared.domain import MemoryPosition
from shared.storage.port import StoragePort
from tests.contract.builders import OTHER_TENANT, TENANT, at, lt, new_memory, st


def ids(memories: list[object]) -> list[str]:
    return [str(m.id) for m in memories]  # type: ignore[attr-defined]


def test_lists_only_the_given_areas_newest_first(storage: StoragePort) -> None:
    # Given memories in three areas, created at different times, and one of another tenant
    storage.put_memories(
        [
            new_memory(lt(1), area="users/anna", created_at=at(1)),
            new_memory(lt(2), area="teams/support", created_at=at(3)),
            new_memory(st(1), area="users/anna", created_at=at(2), expires_at=at(days=30)),
            new_memory(lt(3), area="users/bert", created_at=at(4)),
            new_memory(lt(4), area="users/anna", tenant=OTHER_TENANT, created_at=at(5)),
        ]
    )
    # When two areas are listed
    found = storage.list_memories(TENANT, ["users/anna", "teams/support"], None, at(10), 10)
    # Then exactly their memories come back, newest first, whole
    assert ids(found) == ["longterm_2", "shortterm_1", "longterm_1"]
    assert found[0].area == "teams/support" and found[0].memory == "Inhalt von longterm_2"
    # And no areas or no room give nothing
    assert storage.list_memories(TENANT, [], None, at(10), 10) == []
    assert storage.list_memories(TENANT, ["users/anna"], None, at(10), 0) == []


def test_pages_continue_strictly_after_a_position_with_ties_broken_by_id(
    storage: StoragePort,
) -> None:
    # Given five memories of one area, three of them created in the same microsecond
    storage.put_memories(
        [
            new_memory(lt(1), area="users/anna", created_at=at(1)),
            new_memory(lt(2), area="users/anna", created_at=at(2)),
            new_memory(lt(3), area="users/anna", created_at=at(2)),
            new_memory(st(1), area="users/anna", created_at=at(2), expires_at=at(days=9)),
            new_memory(lt(4), area="users/anna", created_at=at(3)),
        ]
    )
    # When it is read two at a time, each page after the last one's position
    pages: list[list[str]] = []
    before: MemoryPosition | None = None
    while True:
        page = storage.list_memories(TENANT, ["users/anna"], before, at(10), 2)
        if not page:
            break
        pages.append(ids(page))
        before = MemoryPosition(page[-1].created_at, page[-1].id)
    # Then every memory comes exactly once, in (created, type, number) descending order
    assert pages == [
        ["longterm_4", "shortterm_1"],
        ["longterm_3", "longterm_2"],
        ["longterm_1"],
    ]


def test_expired_memories_are_not_listed_and_new_ones_do_not_shift_pages(
    storage: StoragePort,
) -> None:
    # Given an expired and a live short-term memory
    storage.put_memories(
        [
            new_memory(st(1), area="users/anna", created_at=at(1), expires_at=at(5)),
            new_memory(st(2), area="users/anna", created_at=at(2), expires_at=at(days=1)),
            new_memory(lt(1), area="users/anna", created_at=at(3)),
        ]
    )
    # When the first page is read, then a newer memory arrives and the next page is read
    first = storage.list_memories(TENANT, ["users/anna"], None, at(10), 1)
    storage.put_memories([new_memory(lt(2), area="users/anna", created_at=at(9))])
    position = MemoryPosition(first[0].created_at, first[0].id)
    rest = storage.list_memories(TENANT, ["users/anna"], position, at(10), 10)
    # Then the expired one never appears and the newer one does not enter later pages
    assert ids(first) == ["longterm_1"]
    assert ids(rest) == ["shortterm_2"]


def test_a_changed_memory_keeps_its_place(storage: StoragePort) -> None:
    from dataclasses import replace

    from shared.domain import MemoryReplace

    # Given two memories
    storage.put_memories(
        [
            new_memory(lt(1), area="teams/x", created_at=at(1)),
            new_memory(lt(2), area="teams/x", created_at=at(2)),
        ]
    )
    (older,) = storage.get_memories(TENANT, [lt(1)], at(5)).values()
    # When the older one is replaced later
    changed = replace(older, memory="neu", updated_at=at(4))
    assert storage.replace_memories([MemoryReplace(changed, older)], at(5)) == [None]
    # Then the listing order follows creation, not change, and shows the new text
    found = storage.list_memories(TENANT, ["teams/x"], None, at(10), 10)
    assert ids(found) == ["longterm_2", "longterm_1"]
    assert found[1].memory == "neu"
    # And a deleted memory leaves the listing
    storage.delete_memories(TENANT, [lt(2)], at(10))
    assert ids(storage.list_memories(TENANT, ["teams/x"], None, at(10), 10)) == ["longterm_1"]
