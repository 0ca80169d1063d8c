"""SQLite only: 12 threads x 20 bookings through the ledger tool lose no cent.

Each thread has its own connection (as the server's request threads do); every booking is a
BEGIN IMMEDIATE transaction that appends the record and updates its running total.
"""

from __future__ import annotations

import random
import threading
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

from shared.config import Settings
from shared.services.context import ServiceContext
from shared.storage.sqlite import SqliteStorage
from shared.tools.dispatch import call_tool
from tests.contract.ledger_builders import ANNA, booking_entry, ledger_args

WRITERS = 12
BOOKINGS = 20
PRINCIPAL = ANNA


def test_twelve_writers_times_twenty_bookings_keep_exact_totals(tmp_path: Path) -> None:
    # Given one database shared by 12 writer threads, each with 20 bookings of odd cents
    storage = SqliteStorage(tmp_path / "ledger.sqlite3")
    ctx = ServiceContext(storage, Settings(), clock=lambda: datetime(2026, 11, 30, tzinfo=UTC))
    rng = random.Random(14)
    amounts = [
        [f"{rng.randint(0, 9999)}.{rng.randint(1, 99):02d}" for _ in range(BOOKINGS)]
        for _ in range(WRITERS)
    ]
    start = threading.Barrier(WRITERS)
    failures: list[object] = []

    def writer(mine: list[str]) -> None:
        start.wait()
        for betrag in mine:
            entry = booking_entry(betrag=betrag, path="users/anna/finanzen")
            answer = call_tool(ctx, PRINCIPAL, "ledger", ledger_args("buchen", eintraege=[entry]))
            if not answer["erfolg"]:
                failures.append(answer)

    # When all of them book at the same time
    threads = [threading.Thread(target=writer, args=(mine,)) for mine in amounts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Then every booking succeeded and the running total is the exact sum, to the cent
    assert failures == []
    expected = -sum((Decimal(a) for mine in amounts for a in mine), Decimal(0))
    answer = call_tool(ctx, PRINCIPAL, "ledger", ledger_args("abfragen"))
    (summe,) = answer["daten"]["summen"]
    assert (summe["saldo"], summe["anzahl"]) == (str(expected), WRITERS * BOOKINGS)
    assert answer["daten"]["summen_quelle"] == "laufende_summen"
    # And the IDs are exactly 1..240, none twice
    found = storage.get_ledger("acme", range(1, WRITERS * BOOKINGS + 2))
    assert sorted(found) == list(range(1, WRITERS * BOOKINGS + 1))
    storage.close()
