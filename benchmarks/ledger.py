"""Ledger totals at size: the monthly sums come from the running totals, so their cost does
not grow with the number of bookings; summing the records themselves does.

Books N bookings (default 100,000) over 12 months, 3 currencies and 10 categories into one
area through the storage port (batches of 100), then times:
- `ledger_totals` for one month and for the whole year (the running totals), and
- the same year summed from the records (`find_ledger` of every record, `totals_of`),
and checks that both agree to the cent.

Run: .venv/bin/python benchmarks/ledger.py [--bookings 100000] [--backend sqlite|dynamodb]
(dynamodb = DynamoDB Local, AWS's own engine, started and stopped by the run; slower to
fill than SQLite: use some thousand bookings there).
A measurement, not a test: it prints numbers; the only assertion is that the sums agree.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from types import ModuleType
from typing import Any

from shared.ledger.model import (
    LedgerArt,
    LedgerRecord,
    LedgerSatz,
    LedgerStatus,
    LedgerWrite,
    merge_totals,
    signed,
    totals_of,
)
from shared.storage.port import StoragePort

AREA = "teams/finanzen"
TENANT = "bench"
CURRENCIES = ("EUR", "USD", "CHF")


def bookings(count: int, seed: int = 14) -> Iterator[LedgerRecord]:
    rng = random.Random(seed)
    now = datetime(2026, 11, 30, tzinfo=UTC)
    for number in range(1, count + 1):
        art = rng.choice((LedgerArt.AUSGABE, LedgerArt.AUSGABE, LedgerArt.EINNAHME))
        betrag = Decimal(f"{rng.randint(1, 99999)}.{rng.randint(0, 99):02d}")
        yield LedgerRecord(
            tenant=TENANT,
            id=number,
            satz=LedgerSatz.BUCHUNG,
            art=art,
            betrag=betrag,
            wirkung=signed(art, betrag),
            waehrung=rng.choice(CURRENCIES),
            datum=date(2026, rng.randint(1, 12), rng.randint(1, 28)),
            area=AREA,
            path=AREA,
            gegenpartei=f"Partner {rng.randint(1, 500)}",
            kategorie=f"kategorie-{rng.randint(1, 10)}",
            beschreibung="Benchmark",
            status=LedgerStatus.BEZAHLT,
            nutzer="anna",
            agent="bench",
            autor="bench:anna",
            created_at=now,
        )


@contextmanager
def sqlite_storage() -> Iterator[StoragePort]:
    from shared.storage.sqlite import SqliteStorage

    with tempfile.TemporaryDirectory() as directory:
        storage = SqliteStorage(Path(directory) / "ledger.sqlite3")
        try:
            yield storage
        finally:
            storage.close()


def dynamodb_local() -> ModuleType:
    """tests/dynamodb_local, the tests' DynamoDB Local engine, from this checkout."""
    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)
    return importlib.import_module("tests.dynamodb_local")


@contextmanager
def dynamodb_storage() -> Iterator[StoragePort]:
    """DynamoDB Local (tests/dynamodb_local: `make dynamodb-local`), the production pool."""
    from shared.storage.dynamo import DynamoStorage, bootstrap

    with dynamodb_local().local_aws(query_vectors=False) as clients:
        bootstrap(clients, "bench-ledger", "bench-ledger-bucket")
        with closing(
            DynamoStorage(clients, table_name="bench-ledger", bucket_name="bench-ledger-bucket")
        ) as storage:
            yield storage


def timed(label: str, action: Callable[[], Any], repeat: int = 5) -> Any:
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - started)
    print(f"{label:<48} {best * 1000:10.2f} ms")
    return result


def main() -> None:
    try:
        run()
    finally:
        if "tests.dynamodb_local" in sys.modules:
            dynamodb_local().stop()  # the DynamoDB Local process this run started


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bookings", type=int, default=100_000)
    parser.add_argument("--backend", choices=("sqlite", "dynamodb"), default="sqlite")
    args = parser.parse_args()
    backend = sqlite_storage if args.backend == "sqlite" else dynamodb_storage
    with backend() as storage:
        started = time.perf_counter()
        batch: list[LedgerWrite] = []
        for record in bookings(args.bookings):
            batch.append(LedgerWrite(record))
            if len(batch) == 100:
                assert storage.append_ledger(batch) == [None] * len(batch)
                batch = []
        if batch:
            assert storage.append_ledger(batch) == [None] * len(batch)
        elapsed = time.perf_counter() - started
        print(f"booked {args.bookings} on {args.backend} in {elapsed:.1f} s")
        timed(
            "ledger_totals, one month",
            lambda: storage.ledger_totals(TENANT, [AREA], "2026-06", "2026-06"),
        )
        year = timed(
            "ledger_totals, whole year", lambda: storage.ledger_totals(TENANT, [AREA], None, None)
        )
        records = timed(
            "summing every record (find_ledger + totals_of)",
            lambda: totals_of(
                v.record for v in storage.find_ledger(TENANT, [AREA], None, None, None)[AREA]
            ),
            repeat=1,
        )
        by_currency = {
            t.waehrung: t.saldo
            for t in merge_totals(t.__class__(AREA, "", t.waehrung).merge(t) for t in year)
        }
        from_records = {
            t.waehrung: t.saldo
            for t in merge_totals(t.__class__(AREA, "", t.waehrung).merge(t) for t in records)
        }
        assert by_currency == from_records, (by_currency, from_records)
        print("sums per currency (running totals == records):")
        for waehrung, saldo in sorted(by_currency.items()):
            print(f"  {waehrung} {saldo}")


if __name__ == "__main__":
    main()
