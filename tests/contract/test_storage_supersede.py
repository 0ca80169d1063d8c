"""`StoragePort.supersede_memories` on every adapter (issue 25): a mark sets `gueltig_bis`
and `ersetzt_durch` and nothing else, a resend changes nothing, another successor is a
conflict, a missing or expired memory not found, and a replace that read the memory
before the mark meets a conflict (the version moved) instead of erasing it."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from shared.domain import EntryFailureCode, MemoryReplace, Supersession
from shared.storage.port import StoragePort
from tests.contract.builders import TENANT, at, lt, new_memory, st


def test_a_mark_sets_until_and_successor_and_keeps_everything_else(
    storage: StoragePort,
) -> None:
    storage.put_memories([new_memory(lt(1), memory="Standup montags")])
    before = storage.get_memories(TENANT, [lt(1)], at())[lt(1)]
    assert (before.gueltig_bis, before.ersetzt_durch) == (None, None)
    assert storage.supersede_memories(TENANT, [Supersession(lt(1), lt(2), at(5))], at(5)) == [None]
    after = storage.get_memories(TENANT, [lt(1)], at(6))[lt(1)]
    assert (after.gueltig_bis, after.ersetzt_durch) == (at(5), lt(2))
    assert after.version == before.version + 1
    assert (after.memory, after.tags, after.updated_at) == (
        before.memory,
        before.tags,
        before.updated_at,
    )
    # A resend of the same mark changes nothing; another successor is a conflict
    assert storage.supersede_memories(TENANT, [Supersession(lt(1), lt(2), at(9))], at(9)) == [None]
    (other,) = storage.supersede_memories(TENANT, [Supersession(lt(1), lt(3), at(9))], at(9))
    assert other is not None and other.code is EntryFailureCode.CONFLICT
    again = storage.get_memories(TENANT, [lt(1)], at(10))[lt(1)]
    assert (again.gueltig_bis, again.ersetzt_durch, again.version) == (
        at(5),
        lt(2),
        after.version,
    )


def test_missing_and_expired_memories_are_not_found_and_marks_come_back(
    storage: StoragePort,
) -> None:
    storage.put_memories(
        [new_memory(st(1), expires_at=at(1)), new_memory(lt(4), memory="Raum Nord")]
    )
    marks = [
        Supersession(lt(99), lt(5), at(2)),
        Supersession(st(1), lt(5), at(2)),
        Supersession(lt(4), lt(5), at(2)),
    ]
    outcomes = storage.supersede_memories(TENANT, marks, at(2))
    assert [o.code if o else None for o in outcomes] == [
        EntryFailureCode.NOT_FOUND,
        EntryFailureCode.NOT_FOUND,
        None,
    ]
    # Taking back: only this successor's mark; the memory is current again
    assert storage.supersede_memories(TENANT, [Supersession(lt(4), lt(6), None)], at(3)) == [None]
    assert storage.get_memories(TENANT, [lt(4)], at(3))[lt(4)].ersetzt_durch == lt(5)
    assert storage.supersede_memories(TENANT, [Supersession(lt(4), lt(5), None)], at(3)) == [None]
    back = storage.get_memories(TENANT, [lt(4)], at(3))[lt(4)]
    assert (back.gueltig_bis, back.ersetzt_durch) == (None, None)


def test_a_replace_that_read_before_the_mark_conflicts_instead_of_erasing_it(
    storage: StoragePort,
) -> None:
    storage.put_memories([new_memory(lt(7), memory="Budget 10k")])
    read = storage.get_memories(TENANT, [lt(7)], at())[lt(7)]
    storage.supersede_memories(TENANT, [Supersession(lt(7), lt(8), at(1))], at(1))
    changed = MemoryReplace(
        memory=replace(read, memory="Budget 12k", updated_at=at(2)),
        previous=read,
    )
    (outcome,) = storage.replace_memories([changed], at(2))
    assert outcome is not None and outcome.code is EntryFailureCode.CONFLICT
    # An update from the current version keeps the mark
    current = storage.get_memories(TENANT, [lt(7)], at(3))[lt(7)]
    later = MemoryReplace(
        memory=replace(current, memory="Budget 12k"),
        previous=current,
    )
    assert storage.replace_memories([later], at(3)) == [None]
    kept = storage.get_memories(TENANT, [lt(7)], at(3) + timedelta(seconds=1))[lt(7)]
    assert (kept.memory, kept.ersetzt_durch, kept.gueltig_bis) == ("Budget 12k", lt(8), at(1))
