"""SQLite only: 12 writers x 20 bookings through the ledger tool lose no cent — 12 threads
of one process, and 4 processes with 3 threads each.

Each thread has its own connection (as the server's request threads do); every booking is a
BEGIN IMMEDIATE transaction that appends the record and updates its running total.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
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


# One writer process: `threads` writer threads, each booking its amounts through the tool.
_WRITER_SCRIPT = """
import json, sys, threading
from datetime import UTC, datetime
from pathlib import Path
from shared.config import Settings
from shared.services.context import ServiceContext
from shared.storage.sqlite import SqliteStorage
from shared.tools.dispatch import call_tool
from tests.contract.ledger_builders import ANNA, booking_entry, ledger_args

storage = SqliteStorage(Path(sys.argv[1]))
ctx = ServiceContext(storage, Settings(), clock=lambda: datetime(2026, 11, 30, tzinfo=UTC))
queues = json.loads(sys.argv[2])
print("ready", flush=True)
sys.stdin.readline()
failed = []

def write(amounts):
    for betrag in amounts:
        entry = booking_entry(betrag=betrag, path="users/anna/finanzen")
        if not call_tool(ctx, ANNA, "ledger", ledger_args("buchen", eintraege=[entry]))["erfolg"]:
            failed.append(betrag)

threads = [threading.Thread(target=write, args=(queue,)) for queue in queues]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(len(failed), flush=True)
"""


def test_twelve_writers_in_four_processes_keep_exact_totals(tmp_path: Path) -> None:
    # Given 4 processes with 3 writer threads each (12 writers x 20 bookings) on one file
    path = tmp_path / "ledger.sqlite3"
    storage = SqliteStorage(path)
    rng = random.Random(41)
    queues = [
        [f"{rng.randint(0, 999)}.{rng.randint(1, 99):02d}" for _ in range(BOOKINGS)]
        for _ in range(WRITERS)
    ]
    per_process = [queues[i : i + 3] for i in range(0, WRITERS, 3)]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER_SCRIPT, str(path), json.dumps(mine)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        for mine in per_process
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "ready"
        # When all of them start booking at once
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        outputs = [proc.communicate(timeout=300)[0] for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    # Then every booking succeeded and the total is the exact sum of all 240
    assert [proc.returncode for proc in procs] == [0] * len(procs)
    assert [out.split()[-1] for out in outputs] == ["0"] * len(procs)
    amounts = [Decimal(a) for queue in queues for a in queue]
    (total,) = storage.ledger_totals("acme", ["users/anna"], None, None)
    assert (total.saldo, total.anzahl) == (-sum(amounts, Decimal(0)), WRITERS * BOOKINGS)
    storage.close()
