"""Ledger totals on DynamoDB Local under concurrency: no cent is lost, and the AWS calls per
booking and per monthly-sum query.

Real concurrency (12 threads booking into one month at once) and a deterministic
interleaving: a botocore hook fires just before a booking's TransactWriteItems is sent and
lets other writers land their bookings first (the interleaving concurrent writers produce
between a writer's read of the total and its conditional write).
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any

import pytest

from shared.config import Settings
from shared.domain import EntryFailure
from shared.ledger.model import AlreadyAppended, LedgerTotal, totals_of
from shared.services.context import ServiceContext
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage, RoundTrips
from shared.storage.dynamo.ledger import TOTAL_SHARDS, total_pk
from shared.tools.dispatch import call_tool
from tests.contract.builders import TENANT
from tests.contract.ledger_builders import ANNA, AREA, booking, booking_entry, ledger_args, new
from tests.integration.conftest import BUCKET, TABLE, CallRecorder, Sleeps, make_storage

WRITERS = 12
BOOKINGS = 20


def amount(rng: random.Random) -> str:
    return f"{rng.randint(1, 99999)}.{rng.randint(0, 99):02d}"


def test_twelve_writers_booking_at_once_lose_no_cent(
    clients: AwsClients, created: list[str]
) -> None:
    # Given 12 threads with 20 bookings each into one area, month and currency, on a
    # parallel pool with real backoff sleeps
    storage = DynamoStorage(
        clients, table_name=TABLE, bucket_name=BUCKET, round_trips=RoundTrips(16)
    )
    rng = random.Random(12)
    next_id = iter(range(1, WRITERS * BOOKINGS + 1))
    queues = [
        [booking(next(next_id), amount(rng), kategorie=f"k{w % 3}") for _ in range(BOOKINGS)]
        for w in range(WRITERS)
    ]
    barrier = threading.Barrier(WRITERS, timeout=30)

    def book(writer: int) -> list[EntryFailure | AlreadyAppended | None]:
        barrier.wait()
        return [storage.append_ledger([new(record)])[0] for record in queues[writer]]

    # When they all book at once
    with ThreadPoolExecutor(max_workers=WRITERS) as pool:
        outcomes = [o for chunk in pool.map(book, range(WRITERS)) for o in chunk]
    # Then every booking is accepted
    assert [o for o in outcomes if o is not None] == []
    # And the running totals equal the exact sum of all 240 bookings, to the cent
    everything = [record for queue in queues for record in queue]
    (total,) = storage.ledger_totals(TENANT, [AREA], None, None)
    (expected,) = totals_of(everything)
    assert total.anzahl == WRITERS * BOOKINGS
    assert (total.saldo, dict(total.kategorien)) == (expected.saldo, dict(expected.kategorien))
    assert len(storage.find_ledger(TENANT, [AREA], None, None, None)[AREA]) == WRITERS * BOOKINGS
    storage.close()


def test_twelve_interleaved_writers_lose_no_cent(
    clients: AwsClients, created: list[str], sleeps: Sleeps
) -> None:
    # Given 12 writers with 20 bookings each into one area, month and currency, and a hook
    # that, before a writer's transaction is sent, lets another writer book first
    storage = make_storage(clients, sleeps, rating_max_retries=12)
    rng = random.Random(14)
    next_id = iter(range(1, WRITERS * BOOKINGS + 1))
    queues = [
        [booking(next(next_id), amount(rng), kategorie=f"k{w % 3}") for _ in range(BOOKINGS)]
        for w in range(WRITERS)
    ]
    everything = [record for queue in queues for record in queue]
    attempts: Counter[int] = Counter()
    depth = [0]

    def interleave(params: dict[str, Any], **_: Any) -> None:
        attempts[len(params["TransactItems"])] += 1
        if depth[0] or not any(queues):
            return
        depth[0] += 1  # the interleaved writer's own transaction does not interleave again
        try:
            writer = next(i for i in rng.sample(range(WRITERS), WRITERS) if queues[i])
            (outcome,) = storage.append_ledger([new(queues[writer].pop(0))])
            assert outcome is None
        finally:
            depth[0] -= 1

    clients.dynamodb.meta.events.register(
        "before-parameter-build.dynamodb.TransactWriteItems", interleave
    )
    # When every writer books its queue one booking at a time
    while any(queues):
        writer = next(i for i in range(WRITERS) if queues[i])
        (outcome,) = storage.append_ledger([new(queues[writer].pop(0))])
        assert outcome is None
    # Then the interleaved writers never made one another retry (the totals are added)
    assert sleeps.delays == []
    # And the running totals equal the exact sum of all 240 bookings, to the cent
    (total,) = storage.ledger_totals(TENANT, [AREA], None, None)
    (expected,) = totals_of(everything)
    assert total.anzahl == WRITERS * BOOKINGS
    assert total.saldo == sum((r.wirkung for r in everything), Decimal(0))
    assert (total.saldo, dict(total.kategorien)) == (expected.saldo, dict(expected.kategorien))
    assert len(storage.find_ledger(TENANT, [AREA], None, None, None)[AREA]) == WRITERS * BOOKINGS


def test_calls_per_booking_and_per_monthly_sum_query(
    storage: DynamoStorage, recorder: CallRecorder
) -> None:
    # Given a month with bookings in every total shard
    assert storage.append_ledger([new(booking(i, "1.00")) for i in range(1, 9)]) == [None] * 8
    # When one booking is appended
    recorder.reset()
    assert storage.append_ledger([new(booking(9, "2.50"))]) == [None]
    # Then it costs one TransactWriteItems (its total added, nothing read): 1 round trip
    assert recorder.operations() == Counter({"TransactWriteItems": 1})
    assert recorder.sequential_round_trips() == 1
    # When a batch of 20 bookings is appended: one transaction per booking, chains of one
    # total shard in order, shards side by side
    recorder.reset()
    batch = [new(booking(i, "1.00")) for i in range(10, 30)]
    assert storage.append_ledger(batch) == [None] * 20
    assert recorder.operations() == Counter({"TransactWriteItems": 20})
    assert recorder.sequential_round_trips() == 20 // TOTAL_SHARDS
    # When the monthly sums of two areas are queried
    recorder.reset()
    totals = storage.ledger_totals(TENANT, [AREA, "teams/finanzen"], "2025-03", "2025-03")
    # Then one Query per area, side by side: one round trip, whatever the number of entries
    assert recorder.operations() == Counter({"Query": 2})
    assert recorder.sequential_round_trips() == 1
    assert [t.key for t in totals] == [(AREA, "2025-03", "EUR")]
    # And that Query reads the 4 total shards of the month, not the 29 bookings
    (page,) = storage._calls.query_many(  # the same partition, to count the items read
        [_totals_partition_query()]
    )
    assert len(page) == TOTAL_SHARDS
    assert totals[0] == LedgerTotal(AREA, "2025-03", "EUR").merge(totals[0])
    assert totals[0].anzahl == 29 and totals[0].saldo == Decimal("-30.50")


def _totals_partition_query() -> dict[str, Any]:
    return {
        "KeyConditionExpression": "pk = :pk",
        "ExpressionAttributeValues": {":pk": {"S": total_pk(TENANT, AREA)}},
    }


def test_a_query_over_several_areas_costs_the_round_trips_of_one(
    storage: DynamoStorage, recorder: CallRecorder, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given bookings in anna's own area, her team's and a project she created
    ctx = ServiceContext(storage, Settings())
    eintraege = [
        booking_entry(path="users/anna/belege"),
        booking_entry(path="teams/finanzen/kosten"),
        booking_entry(path="projects/apollo/kosten", create_project=True),
    ]
    booked = call_tool(ctx, ANNA, "ledger", ledger_args("buchen", eintraege=eintraege))
    assert booked["anzahl_erfolgreich"] == 3, booked
    # When she lists one area, and then all of them (filtered, so the records are read)
    rounds: dict[str, int] = {}
    for name, path in (("one area", "teams/finanzen"), ("three areas", None)):
        recorder.reset()
        filters = {"gegenpartei": "Hetzner Online GmbH"} | ({"path": path} if path else {})
        answer = call_tool(ctx, ANNA, "ledger", ledger_args("abfragen", **filters))
        assert answer["erfolg"] is True, answer
        rounds[name] = recorder.sequential_round_trips()
    # Then the three areas were read side by side: as many round trips as one area
    assert len(answer["daten"]["eintraege"]) == 3
    assert rounds["three areas"] == rounds["one area"], rounds
    with capsys.disabled():
        print(f"\nledger abfragen round trips: {rounds}")
