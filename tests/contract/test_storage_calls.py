"""Contract: the call records of the retry layer (shared/calls.py) on every adapter — one
claim wins, IDs per entry are reserved with it and survive a takeover, answers come back
until the window ends, and only the owning send may finish or drop its record."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest

from shared.calls import CallClaim, CallMarks, CallRecord, CallRecordsUnavailable, CallState
from shared.domain import CounterName, NewMemory
from shared.storage.port import StoragePort
from shared.storage.sqlite import SqliteStorage
from tests.clock import Clock
from tests.contract.builders import lt, make_memory

LT = CounterName.LONGTERM


def claim(
    clock: Clock,
    key: str = "k",
    body: str = "b",
    wants: dict[CounterName, list[int]] | None = None,
    tenant: str = "acme",
    running_s: int = 60,
    window_s: int = 600,
) -> CallClaim:
    return CallClaim(
        tenant=tenant,
        key=key,
        body=body,
        token=uuid.uuid4().hex,
        now=clock(),
        running_until=clock() + timedelta(seconds=running_s),
        expires_at=clock() + timedelta(seconds=window_s),
        wants=wants if wants is not None else {LT: [0, 1, 2]},
    )


def ids_of(
    storage: StoragePort, record: CallRecord, key: str = "k", tenant: str = "acme"
) -> dict[int, int]:
    """The IDs of a send's wanted entries (reserved with the claim or now)."""
    return storage.reserve_call_ids(tenant, key, record.token, {LT: [0, 1, 2]})[LT]


def test_one_claim_wins_and_its_ids_are_its_own(storage: StoragePort) -> None:
    clock = Clock()
    # Given a claim of a call with three entries
    first = storage.claim_call(claim(clock))
    # Then it is new and its entries get one distinct ID each, the same when asked again
    assert first.state is CallState.NEW
    ids = ids_of(storage, first)
    assert sorted(ids) == [0, 1, 2] and len(set(ids.values())) == 3
    assert ids_of(storage, first) == ids
    # When the same call is claimed again while it runs
    again = storage.claim_call(claim(clock))
    # Then it sees the running record (the first send's token) and gets no IDs of its own
    assert (again.state, again.token, again.ids[LT]) == (CallState.RUNNING, first.token, ids)
    # And a claim of another key never gets these IDs; another tenant's is its own
    other = storage.claim_call(claim(clock, key="other"))
    assert not set(ids_of(storage, other, "other").values()) & set(ids.values())
    assert storage.claim_call(claim(clock, tenant="beta")).state is CallState.NEW


def test_the_answer_comes_back_until_the_window_ends(storage: StoragePort) -> None:
    clock = Clock()
    first = storage.claim_call(claim(clock))
    first_ids = ids_of(storage, first)
    # When the first send stores its answer
    until = clock() + timedelta(seconds=600)
    assert storage.finish_call("acme", "k", first.token, '{"a":1}', until)
    # Then an identical claim gets it back, with the first send's IDs
    done = storage.claim_call(claim(clock))
    assert (done.state, done.answer, done.ids[LT]) == (CallState.DONE, '{"a":1}', first_ids)
    # And a claim with another body sees that body (the retry layer: a conflict)
    assert storage.claim_call(claim(clock, body="other")).body == "b"
    # When the window has passed
    clock.advance(601)
    fresh = storage.claim_call(claim(clock))
    # Then the call is new again, with IDs never handed out before
    assert fresh.state is CallState.NEW
    assert not set(ids_of(storage, fresh).values()) & set(first_ids.values())


def test_a_cut_off_send_is_taken_over_with_its_ids_and_marks(storage: StoragePort) -> None:
    clock = Clock()
    # Given a send that got IDs for two entries, deleted a memory (its mark recorded with
    # it) and died while running
    assert storage.put_memories([NewMemory(make_memory(lt(1), tenant="acme"))]) == [None]
    first = storage.claim_call(claim(clock, wants={LT: [0, 1]}))
    first_ids = storage.reserve_call_ids("acme", "k", first.token, {LT: [0, 1]})[LT]
    marks = CallMarks("k", first.token, {lt(1): "longterm_1"})
    assert storage.delete_memories("acme", [lt(1)], clock(), None, marks) == [lt(1)]
    clock.advance(61)
    # When it is resent with one more entry
    resumed = storage.claim_call(claim(clock, wants={LT: [0, 1, 2]}))
    # Then the resend owns the record under the first send's token, IDs and marks
    assert (resumed.state, resumed.token) == (CallState.RESUMED, first.token)
    assert {i: resumed.ids[LT][i] for i in (0, 1)} == first_ids
    assert resumed.marks == {"longterm_1"}
    # And the new entry gets an ID never handed out before
    ids = storage.reserve_call_ids("acme", "k", resumed.token, {LT: [0, 1, 2]})[LT]
    assert {i: ids[i] for i in (0, 1)} == first_ids and ids[2] not in first_ids.values()
    # And while it runs, a further resend is refused as running
    assert storage.claim_call(claim(clock)).state is CallState.RUNNING
    # And a resend with another body never takes it over
    clock.advance(61)
    assert storage.claim_call(claim(clock, body="other")).state is CallState.RUNNING


def test_a_delete_records_the_marks_of_what_it_removed_with_them(storage: StoragePort) -> None:
    clock = Clock()
    # Given two stored memories and a running delete call
    memories = [NewMemory(make_memory(lt(n), tenant="acme")) for n in (1, 2)]
    assert storage.put_memories(memories) == [None, None]
    first = storage.claim_call(claim(clock, wants={}))
    # When it deletes one of them and one that does not exist, each with its mark
    marks = CallMarks("k", first.token, {lt(1): "gone-1", lt(3): "gone-3"})
    read = storage.read_for_delete("acme", [lt(1), lt(3)], clock())
    assert set(read.memories) == {lt(1)}
    assert storage.delete_memories("acme", [lt(1), lt(3)], clock(), read, marks) == [lt(1)]
    # Then a resend after it died finds the mark of the memory it removed, and only that
    clock.advance(61)
    resumed = storage.claim_call(claim(clock, wants={}))
    assert (resumed.state, resumed.marks) == (CallState.RESUMED, {"gone-1"})
    # And a delete under a token that no longer owns the record removes nothing
    stale = CallMarks("k", "another-send", {lt(2): "gone-2"})
    assert storage.delete_memories("acme", [lt(2)], clock(), None, stale) == []
    assert set(storage.get_memories("acme", [lt(1), lt(2)], clock())) == {lt(2)}


def test_only_the_owning_send_finishes_or_drops_its_record(storage: StoragePort) -> None:
    clock = Clock()
    first = storage.claim_call(claim(clock))
    until = clock() + timedelta(seconds=600)
    # A stranger's token changes nothing
    assert not storage.finish_call("acme", "k", "someone-else", "{}", until)
    storage.drop_call("acme", "k", "someone-else")
    assert storage.claim_call(claim(clock)).state is CallState.RUNNING
    # The owner's drop forgets it: the next send is new
    storage.drop_call("acme", "k", first.token)
    assert storage.claim_call(claim(clock)).state is CallState.NEW
    assert not storage.finish_call("acme", "k", first.token, "{}", until)


def test_a_claim_without_entries_reserves_nothing(storage: StoragePort) -> None:
    clock = Clock()
    record: CallRecord = storage.claim_call(claim(clock, wants={}))
    assert record.state is CallState.NEW and not any(record.ids.values())
    assert storage.highest_id("acme", LT) == 0


def test_another_sends_record_gives_no_ids(storage: StoragePort) -> None:
    storage.claim_call(claim(Clock()))
    with pytest.raises(CallRecordsUnavailable):
        storage.reserve_call_ids("acme", "k", "someone-else", {LT: [0]})


def test_concurrent_claims_of_one_call_have_one_winner(tmp_path: Path) -> None:
    # Given one SQLite file shared by 8 threads (the local server's workers)
    storage = SqliteStorage(tmp_path / "calls.sqlite3")
    clock = Clock()
    try:
        # When all claim the same call at once
        with ThreadPoolExecutor(8) as pool:
            records = list(pool.map(lambda _: storage.claim_call(claim(clock)), range(8)))
        # Then exactly one runs it; the others see it running
        states = sorted(record.state.value for record in records)
        assert states == ["new"] + ["running"] * 7
        (winner,) = [record for record in records if record.state is CallState.NEW]
        ids = ids_of(storage, winner)
        # And a server that starts on this file releases the running record: the next send
        # takes it over at once, with its IDs
        assert storage.release_calls() == 1
        resumed = storage.claim_call(claim(clock))
        assert resumed.state is CallState.RESUMED and resumed.ids[LT] == ids
    finally:
        storage.close()
