"""Ratings on DynamoDB Local: counts and sums added atomically, `last_call` only forward.

Real concurrency (threads rating one memory at once on the engine) and deterministic
interleavings (a second writer landing exactly between a rating's snapshot and its
transaction, from a botocore hook that fires just before the TransactWriteItems is sent).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any

from shared.domain import CounterName, EntryFailure, EntryFailureCode, Rating, RatingOutcome
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage, RoundTrips
from shared.storage.dynamo.items import memory_key, memory_pk, rating_guard_key
from tests.contract.builders import T0, TENANT, at, lt, make_rating, new_memory, st
from tests.integration.conftest import (
    BUCKET,
    TABLE,
    CallRecorder,
    Sleeps,
    inject_response,
    make_storage,
)

SCORES = [Decimal("0.5"), Decimal(3), Decimal("7.25"), Decimal(10), Decimal("4.1")]


def outcome(result: RatingOutcome | EntryFailure) -> RatingOutcome:
    assert isinstance(result, RatingOutcome), result
    return result


def failure(result: RatingOutcome | EntryFailure, code: EntryFailureCode) -> None:
    assert isinstance(result, EntryFailure), result
    assert result.code == code


def raw_item(clients: AwsClients, key: dict[str, Any]) -> dict[str, Any] | None:
    found = clients.dynamodb.get_item(TableName=TABLE, Key=key, ConsistentRead=True)
    return found.get("Item")


def test_12_clients_rating_one_memory_20_times_are_all_counted(
    clients: AwsClients, created: list[str]
) -> None:
    # Given one memory and 12 threads with 20 ratings each (varied scores and dates), on
    # a parallel pool with real backoff sleeps
    storage = DynamoStorage(
        clients, table_name=TABLE, bucket_name=BUCKET, round_trips=RoundTrips(16)
    )
    assert storage.put_memories([new_memory(lt(1))]) == [None]
    threads, per_thread = 12, 20
    barrier = threading.Barrier(threads, timeout=30)

    def rate(index: int) -> list[tuple[Rating, RatingOutcome | EntryFailure]]:
        ids = storage.reserve_ids(TENANT, CounterName.RATING, per_thread)
        ratings = [
            make_rating(i, lt(1), SCORES[(index + k) % len(SCORES)], datum=at(k * threads + index))
            for k, i in enumerate(ids)
        ]
        barrier.wait()
        # Half the threads send single ratings, the other half batches of five.
        size = 1 if index % 2 == 0 else 5
        done: list[tuple[Rating, RatingOutcome | EntryFailure]] = []
        for start in range(0, per_thread, size):
            chunk = ratings[start : start + size]
            done += zip(chunk, storage.record_ratings(chunk, now=T0), strict=True)
        return done

    # When they all rate at once
    with ThreadPoolExecutor(max_workers=threads) as pool:
        results = [pair for chunk in pool.map(rate, range(threads)) for pair in chunk]
    # Then every rating is accepted and recorded exactly once
    refused = [result for _, result in results if not isinstance(result, RatingOutcome)]
    assert refused == []
    total = threads * per_thread
    submitted = [rating for rating, _ in results]
    stored = storage.get_ratings(TENANT, lt(1))
    assert sorted(stored, key=lambda r: r.insert_id) == sorted(submitted, key=lambda r: r.insert_id)
    # And the aggregate is exact: count, sum, derived average, the latest datum, the version
    score_sum = sum((r.score for r in submitted), Decimal(0))
    memory = storage.get_memories(TENANT, [lt(1)], now=T0)[lt(1)]
    assert (memory.score_count, memory.score_sum) == (total, score_sum)
    assert memory.score_avg == score_sum / total
    assert memory.last_call == max(r.datum for r in submitted)
    assert memory.version == total
    storage.close()


def test_rating_that_lands_between_snapshot_and_write_is_not_lost(
    storage: DynamoStorage, clients: AwsClients, sleeps: Sleeps
) -> None:
    # Given a memory, and a snapshot of it as the service reads it before rating
    assert storage.put_memories([new_memory(lt(1))]) == [None]
    snapshot = storage.get_memories(TENANT, [lt(1)], now=T0)
    transactions: list[str] = []

    def second_writer(params: dict[str, Any], **_: Any) -> None:
        transactions.append(params["TransactItems"][-1]["Update"]["Key"]["pk"]["S"])
        if len(transactions) == 1:  # just before the first rating's write is sent
            interleaved = storage.record_ratings(
                [make_rating(2, lt(1), "0.2", datum=at(5))], now=T0
            )
            assert outcome(interleaved[0]).score_count == 1

    clients.dynamodb.meta.events.register(
        "before-parameter-build.dynamodb.TransactWriteItems", second_writer
    )
    # When the first rating, with an older datum, is written from the (now stale) snapshot
    result = storage.record_ratings(
        [make_rating(1, lt(1), "7.1", datum=at(1))], now=T0, known=snapshot
    )
    # Then its first attempt found a newer last_call and was sent once more without moving
    # it (no backoff: nothing to wait for), and both ratings count
    assert transactions == [memory_pk(TENANT, lt(1))] * 3
    assert sleeps.delays == []
    first = outcome(result[0])
    assert (first.score_count, first.score_avg) == (2, Decimal("3.65"))
    assert first.last_call == at(5)  # max(at(1), at(5)): the later datum stays
    memory = storage.get_memories(TENANT, [lt(1)], now=T0)[lt(1)]
    assert (memory.score_count, memory.score_sum) == (2, Decimal("7.3"))
    assert memory.score_avg == Decimal("3.65")
    assert memory.last_call == at(5)
    assert memory.version == snapshot[lt(1)].version + 2
    assert [r.insert_id for r in storage.get_ratings(TENANT, lt(1))] == [1, 2]


def test_a_transaction_conflict_on_every_attempt_gives_up_and_writes_nothing(
    clients: AwsClients, created: list[str], sleeps: Sleeps
) -> None:
    # Given two memories, an adapter allowing 3 retries, and lt(1) held by other
    # transactions at every attempt (DynamoDB cancels with TransactionConflict)
    storage = make_storage(clients, sleeps, rating_max_retries=3)
    assert storage.put_memories([new_memory(lt(1)), new_memory(lt(2))]) == [None, None]
    hot_pk = memory_pk(TENANT, lt(1))

    def held(request: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        if hot_pk not in request["body"].decode():
            return None
        reasons = [{"Code": "None"}, {"Code": "None"}, {"Code": "TransactionConflict"}]
        error = {"Code": "TransactionCanceledException", "Message": "conflict"}
        return 400, {"Error": error, "CancellationReasons": reasons}

    injected = inject_response(clients.dynamodb, "dynamodb.TransactWriteItems", held)
    # When lt(1) and lt(2) are rated
    results = storage.record_ratings(
        [make_rating(1, lt(1), 5), make_rating(2, lt(2), 9, datum=at(2))], now=T0
    )
    # Then lt(1)'s rating fails with CONFLICT after 1 + 3 attempts and 3 backoff sleeps
    failure(results[0], EntryFailureCode.CONFLICT)
    assert len(injected.requests) == 4
    assert len(sleeps.delays) == 3
    assert all(0 < delay <= 1.0 for delay in sleeps.delays)
    # And nothing of it was written: no record, no guard, no aggregate change
    assert storage.get_ratings(TENANT, lt(1)) == []
    assert raw_item(clients, rating_guard_key(TENANT, 1)) is None
    hot = storage.get_memories(TENANT, [lt(1)], now=T0)[lt(1)]
    assert (hot.score_count, hot.score_sum, hot.last_call) == (0, Decimal(0), None)
    # And the other memory's rating is unaffected
    assert outcome(results[1]) == RatingOutcome(2, lt(2), 1, Decimal(9), at(2))
    assert [r.insert_id for r in storage.get_ratings(TENANT, lt(2))] == [2]
    storage.close()


def test_ratings_of_one_memory_go_in_order_into_one_transaction(
    storage: DynamoStorage, recorder: CallRecorder, sleeps: Sleeps
) -> None:
    # Given two memories and their snapshots
    assert storage.put_memories([new_memory(lt(1)), new_memory(lt(2))]) == [None, None]
    known = storage.get_memories(TENANT, [lt(1), lt(2)], now=T0)
    recorder.reset()
    # When one batch rates lt(1) three times and lt(2) once
    results = storage.record_ratings(
        [
            make_rating(1, lt(1), 2, datum=at(3)),
            make_rating(2, lt(2), 4),
            make_rating(3, lt(1), 6, datum=at(1)),
            make_rating(4, lt(1), 10, datum=at(2)),
        ],
        now=T0,
        known=known,
    )
    # Then lt(1)'s ratings build on each other in request order
    assert [outcome(r).score_count for r in results] == [1, 1, 2, 3]
    assert outcome(results[3]).score_avg == Decimal(6)
    assert outcome(results[3]).last_call == at(3)
    assert sleeps.delays == []
    # And each memory's ratings are one transaction, both in one stage
    assert recorder.operations() == {"TransactWriteItems": 2}
    assert recorder.sequential_round_trips() == 1


def test_100_ratings_of_one_memory_are_three_transactions_and_a_repeated_id_fails_alone(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given a memory
    assert storage.put_memories([new_memory(lt(1))]) == [None]
    recorder.reset()
    # When 100 ratings of it come in one call, the 50th repeating the first's insert_ID
    ratings = [make_rating(i, lt(1), SCORES[i % 5], datum=at(i)) for i in range(1, 101)]
    ratings[49] = make_rating(1, lt(1), 9, datum=at(500))
    results = storage.record_ratings(ratings, now=T0)
    writes = recorder.operations()
    # Then 99 count, in order, and the repeat fails on its own ("exists")
    failure(results[49], EntryFailureCode.STORAGE)
    counted = [outcome(r) for i, r in enumerate(results) if i != 49]
    assert [o.score_count for o in counted] == list(range(1, 100))
    memory = storage.get_memories(TENANT, [lt(1)], now=T0)[lt(1)]
    assert memory.score_count == 99
    assert memory.last_call == at(100)  # the repeat's at(500) was not recorded
    # And they took 49 + 49 + 2 ratings per transaction, the rejected one sent once more
    # without the repeat
    assert writes == {"BatchGetItem": 1, "TransactWriteItems": 4}


def test_expired_or_vanished_memory_is_not_found_even_with_a_stale_snapshot(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a short-term memory that expires at T0+1min and a long-term memory,
    # and snapshots of both taken while they were live
    assert storage.put_memories([new_memory(st(1), expires_at=at(1)), new_memory(lt(1))]) == [
        None,
        None,
    ]
    snapshots = storage.get_memories(TENANT, [st(1), lt(1)], now=T0)
    stale = {st(1): snapshots[st(1)], lt(1): snapshots[lt(1)]}
    # Pretend the snapshot of st(1) had no expiry, so only the conditional write can tell
    stale[st(1)].expires_at = None
    clients.dynamodb.delete_item(TableName=TABLE, Key=memory_key(TENANT, lt(1)))
    # When both are rated after the expiry
    results = storage.record_ratings(
        [make_rating(1, st(1), 5), make_rating(2, lt(1), 5)], now=at(2), known=stale
    )
    # Then both fail with NOT_FOUND and no rating record or guard is left
    failure(results[0], EntryFailureCode.NOT_FOUND)
    failure(results[1], EntryFailureCode.NOT_FOUND)
    assert storage.get_ratings(TENANT, st(1)) == []
    assert storage.get_ratings(TENANT, lt(1)) == []
    assert raw_item(clients, rating_guard_key(TENANT, 1)) is None
    assert raw_item(clients, memory_key(TENANT, lt(1))) is None  # not re-created by Update


def test_ratings_of_a_shortterm_memory_carry_its_ttl(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a short-term memory expiring in 30 days
    assert storage.put_memories([new_memory(st(1), expires_at=at(days=30))]) == [None]
    # When it is rated
    assert outcome(storage.record_ratings([make_rating(1, st(1), 5)], now=T0)[0])
    # Then the rating record and guard expire with it (the TTL backstop removes them too)
    memory = raw_item(clients, memory_key(TENANT, st(1)))
    guard = raw_item(clients, rating_guard_key(TENANT, 1))
    assert memory is not None and guard is not None
    assert guard["expires_at"] == memory["expires_at"]
    assert int(memory["expires_at"]["N"]) >= at(days=30).timestamp()
