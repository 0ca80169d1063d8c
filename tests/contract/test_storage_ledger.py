"""The ledger part of the storage port, once per adapter (SQLite, and DynamoDB on DynamoDB
Local)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

from shared.domain import EntryFailure, EntryFailureCode
from shared.ledger.model import AlreadyAppended, LedgerArt, LedgerSatz, LedgerStatus, totals_of
from shared.storage.port import StoragePort
from tests.contract.builders import OTHER_TENANT, T0, TENANT
from tests.contract.ledger_builders import (
    AREA,
    booking,
    follower,
    new,
    reminder,
    storno,
    zahlung,
)

TEAM = "teams/finanzen"


def conflict(result: EntryFailure | None) -> None:
    assert isinstance(result, EntryFailure), result
    assert result.code is EntryFailureCode.CONFLICT


def test_records_read_back_exactly_with_every_field(storage: StoragePort) -> None:
    # Given bookings with exact amounts, a reminder and optional fields
    records = [
        booking(
            1, "0.10", referenzfelder={"beleg": "R-1", "zahl": 1.5}, iban="DE89370400440532013000"
        ),
        booking(2, "1234567890.99", art=LedgerArt.EINNAHME, konto=None, geraet=None),
        reminder(3, date(2025, 4, 1)),
        booking(4, "-25.50", art=LedgerArt.UMBUCHUNG, waehrung="JPY"),
    ]
    # When they are appended
    assert storage.append_ledger([new(r) for r in records]) == [None] * 4
    # Then each reads back field by field, amounts as exact Decimals
    found = storage.get_ledger(TENANT, [4, 1, 3, 2, 99])
    assert sorted(found) == [1, 2, 3, 4]
    for record in records:
        assert found[record.id].record == record
        assert found[record.id].storniert_durch is None
    assert found[2].record.wirkung == Decimal("1234567890.99")
    assert found[1].record.wirkung == Decimal("-0.10")
    assert found[4].record.wirkung == Decimal("-25.50")


def test_running_totals_equal_the_sum_of_the_records_exactly(storage: StoragePort) -> None:
    # Given bookings over two months, two currencies, categories and kinds
    records = [
        booking(1, "0.10"),
        booking(2, "0.20"),
        booking(3, "100.00", art=LedgerArt.EINNAHME, kategorie="umsatz"),
        booking(4, "5.55", datum=date(2025, 4, 2)),
        booking(5, "7", waehrung="USD"),
        booking(6, "-3.33", art=LedgerArt.UMBUCHUNG),
        booking(7, "1.00", area=TEAM, path=f"{TEAM}/reisen"),
    ]
    assert storage.append_ledger([new(r) for r in records]) == [None] * len(records)
    # When the totals of the project area are read
    totals = storage.ledger_totals(TENANT, [AREA], None, None)
    # Then they equal the records' sums, computed the same way above the port
    expected = totals_of(r for r in records if r.area == AREA)
    assert [(t.key, t.saldo, t.anzahl, dict(t.kategorien)) for t in totals] == [
        (t.key, t.saldo, t.anzahl, dict(t.kategorien)) for t in expected
    ]
    march = next(t for t in totals if t.key == (AREA, "2025-03", "EUR"))
    assert march.saldo == Decimal("96.37")  # -0.10 - 0.20 + 100 - 3.33
    assert march.ausgaben == Decimal("-0.30")
    assert march.einnahmen == Decimal("100.00")
    assert march.umbuchungen == Decimal("-3.33")
    assert march.kategorien["infrastruktur"].saldo == Decimal("-3.63")
    # And a month range and several areas select exactly those totals
    april = storage.ledger_totals(TENANT, [AREA, TEAM], "2025-04", "2025-04")
    assert [t.key for t in april] == [(AREA, "2025-04", "EUR")]
    both = storage.ledger_totals(TENANT, [AREA, TEAM], "2025-03", "2025-03")
    assert {t.area for t in both} == {AREA, TEAM}
    assert storage.ledger_totals(OTHER_TENANT, [AREA], None, None) == []


def test_storno_reverses_once_and_keeps_the_history(storage: StoragePort) -> None:
    # Given a booking
    original = booking(1, "42.00")
    assert storage.append_ledger([new(original)]) == [None]
    # When it is reversed, and reversed again
    results = storage.append_ledger([storno(2, original), storno(3, original)])
    # Then the first storno holds, the second is a conflict and wrote nothing
    assert results[0] is None
    conflict(results[1])
    found = storage.get_ledger(TENANT, [1, 2, 3])
    assert sorted(found) == [1, 2]
    assert found[1].record == original  # the original is unchanged
    assert found[1].storniert_durch == 2
    assert found[2].record.satz is LedgerSatz.STORNO
    assert found[2].record.wirkung == Decimal("42.00")
    (total,) = storage.ledger_totals(TENANT, [AREA], None, None)
    assert (total.saldo, total.anzahl, total.ausgaben) == (Decimal("0.00"), 0, Decimal("0.00"))


def test_reminders_are_listed_until_paid_or_reversed(storage: StoragePort) -> None:
    # Given reminders in two areas, one paid at booking and one plain booking
    rent = reminder(1, date(2025, 4, 1), "1200.00")
    tax = reminder(2, date(2025, 3, 20), "310.00", area=TEAM, path=TEAM)
    later = reminder(3, date(2025, 6, 1))
    paid_already = replace(reminder(4, date(2025, 3, 1)), status=LedgerStatus.BEZAHLT)
    gone = reminder(5, date(2025, 3, 25))
    writes = [new(rent), new(tax), new(later), new(paid_already), new(gone), new(booking(6))]
    assert storage.append_ledger(writes) == [None] * 6
    assert storage.append_ledger([storno(7, gone)]) == [None]
    # When the reminders due by 2025-04-30 are listed
    due = storage.open_reminders(TENANT, [AREA, TEAM], date(2025, 4, 30), 10)
    # Then the open ones come oldest first, across areas
    assert [v.record.id for v in due] == [2, 1]
    assert [
        v.record.id for v in storage.open_reminders(TENANT, [AREA, TEAM], date(2025, 4, 30), 1)
    ] == [2]
    # When the rent is paid (twice)
    results = storage.append_ledger(
        [zahlung(8, rent, date(2025, 3, 28)), zahlung(9, rent, date(2025, 3, 29))]
    )
    assert results[0] is None
    conflict(results[1])
    # Then it is no longer due, it reads as paid, and no total moved
    assert [
        v.record.id for v in storage.open_reminders(TENANT, [AREA, TEAM], date(2025, 4, 30), 10)
    ] == [2]
    view = storage.get_ledger(TENANT, [1])[1]
    assert (view.bezahlt_durch, view.bezahlt_am, view.status.value) == (
        8,
        date(2025, 3, 28),
        "bezahlt",
    )
    saldo = sum((t.saldo for t in storage.ledger_totals(TENANT, [AREA], None, None)), Decimal(0))
    assert saldo == Decimal("-1200.00") - Decimal("99.90") * 2 - Decimal("10.00")
    # And a reversed reminder cannot be paid
    conflict(storage.append_ledger([zahlung(10, gone)])[0])


def test_find_lists_a_period_newest_first_with_followers_before_their_booking(
    storage: StoragePort,
) -> None:
    # Given bookings on three days, one reversed and one reminder paid
    first = booking(1, datum=date(2025, 3, 1))
    second = reminder(2, date(2025, 3, 10), datum=date(2025, 3, 5))
    third = booking(3, datum=date(2025, 3, 9))
    outside = booking(4, datum=date(2025, 4, 1))
    elsewhere = booking(5, datum=date(2025, 3, 5), area=TEAM, path=TEAM)
    writes = [new(first), new(second), new(third), new(outside), new(elsewhere)]
    assert storage.append_ledger(writes) == [None] * 5
    assert (
        storage.append_ledger([storno(6, first), zahlung(7, second, date(2025, 4, 9))])
        == [None] * 2
    )
    # When March of the project area is listed
    found = storage.find_ledger(TENANT, [AREA], date(2025, 3, 1), date(2025, 3, 31), None)[AREA]
    # Then in position order, newest first, each follower right before its booking
    assert [v.record.id for v in found] == [3, 7, 2, 6, 1]
    assert found[2].bezahlt_durch == 7 and found[4].storniert_durch == 6
    # And a limit cuts each area's list, open bounds take everything of the area
    limited = storage.find_ledger(TENANT, [AREA, TEAM, "users/leer"], None, None, 2)
    assert {area: [v.record.id for v in views] for area, views in limited.items()} == {
        AREA: [4, 3],
        TEAM: [5],
        "users/leer": [],
    }
    assert len(storage.find_ledger(TENANT, [AREA], None, None, None)[AREA]) == 6
    assert storage.find_ledger(OTHER_TENANT, [AREA], None, None, None) == {AREA: []}


def test_one_failing_write_does_not_block_the_others(storage: StoragePort) -> None:
    # Given a reversed booking
    original = booking(1, "5.00")
    assert storage.append_ledger([new(original), storno(2, original)]) == [None, None]
    # When a batch holds a new booking, a second storno and another booking
    results = storage.append_ledger(
        [new(booking(3, "1.00")), storno(4, original), new(booking(5, "2.00"))]
    )
    # Then only the second storno failed, and the totals count the two bookings
    assert results[0] is None and results[2] is None
    conflict(results[1])
    (total,) = storage.ledger_totals(TENANT, [AREA], None, None)
    assert (total.saldo, total.anzahl) == (Decimal("-3.00"), 2)


def test_the_expiry_sweep_never_touches_ledger_records(storage: StoragePort) -> None:
    # Given ledger records, one of them a reminder long overdue
    records = [
        booking(1),
        reminder(2, date(2025, 3, 2)),
        follower(3, booking(1), LedgerSatz.STORNO),
    ]
    assert (
        storage.append_ledger([new(records[0]), new(records[1]), storno(3, records[0])])
        == [None] * 3
    )
    totals = storage.ledger_totals(TENANT, [AREA], None, None)
    # When the expiry sweep runs far in the future
    storage.delete_expired(T0 + timedelta(days=3650), 100)
    # Then every record, reminder and total is still there
    assert sorted(storage.get_ledger(TENANT, [1, 2, 3])) == [1, 2, 3]
    assert [v.record.id for v in storage.open_reminders(TENANT, [AREA], date(2030, 1, 1), 10)] == [
        2
    ]
    assert storage.ledger_totals(TENANT, [AREA], None, None) == totals


def test_a_write_whose_key_was_used_appends_nothing(storage: StoragePort) -> None:
    # Given a booking and a storno appended with idempotency keys
    first = replace(booking(1, "19.99"), schluessel="k-1")
    assert storage.append_ledger([new(first)]) == [None]
    reversal = storno(2, first)
    keyed_storno = replace(reversal, record=replace(reversal.record, schluessel="k-2"))
    assert storage.append_ledger([keyed_storno]) == [None]
    # When both are resent (new IDs reserved), and one key twice within a batch
    again = replace(booking(3, "19.99"), schluessel="k-1")
    resent_storno = replace(keyed_storno, record=replace(keyed_storno.record, id=4))
    fresh = replace(booking(5, "1.00"), schluessel="k-5")
    twice = replace(booking(6, "1.00"), schluessel="k-5")
    results = storage.append_ledger([new(again), resent_storno, new(fresh), new(twice)])
    # Then each resend reports the record that took its key and writes nothing
    assert results == [AlreadyAppended(1), AlreadyAppended(2), None, AlreadyAppended(5)]
    assert sorted(storage.get_ledger(TENANT, range(1, 7))) == [1, 2, 5]
    (total,) = storage.ledger_totals(TENANT, [AREA], None, None)
    assert (total.saldo, total.anzahl) == (Decimal("-1.00"), 1)
    assert storage.get_ledger(TENANT, [1])[1].record.schluessel == "k-1"
