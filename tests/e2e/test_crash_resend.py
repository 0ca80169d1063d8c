"""Crash safety of `brain serve`: SIGKILL in the middle of a stream of batch inserts,
ratings and ledger bookings loses nothing acknowledged, and resending every call that was
not acknowledged stores each of its entries exactly once (CONTRACT §3, issues 10 and 14)."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from shared.storage.sqlite.base import DATABASE_FILE_NAME
from tests.contract.ledger_builders import booking_entry, ledger_args
from tests.e2e.helpers import insert_args, memory_entry
from tests.e2e.test_local_server import RunningServer, serve

pytestmark = pytest.mark.anyio

BASE = 3  # memories that the ratings rate
CALLS = 36
WORKERS = 4
INSERT_ENTRIES = 10
RATE_ENTRIES = 5
LEDGER_ENTRIES = 8
KILL_AFTER_ACKS = 6
LEDGER = "users/dev/finanzen"  # the local token's own area
COUNTS = "SELECT (SELECT count(*) FROM memories), (SELECT count(*) FROM ledger_records)"


def make_call(number: int) -> tuple[str, dict[str, Any]]:
    referenzfelder = {"lauf": "crash", "call": number}
    if number % 3 == 2:  # every third call rates the base memories
        memories = [
            {
                "typ": "longterm",
                "parameter": {
                    "memory_ID": f"longterm_{1 + (number + i) % BASE}",
                    "agent": "support-agent",
                    "score": (number + i) % 11,
                },
            }
            for i in range(RATE_ENTRIES)
        ]
        inhalt = {"memories": memories, "nutzer": 42, "agent": "support-agent"}
        return "rate_brain_memories", {"inhalt": inhalt, "referenzfelder": referenzfelder}
    if number % 6 == 1:  # and every sixth books a batch in the ledger (no idempotency key)
        bookings = [
            booking_entry(betrag=f"{number}.{i:02d}", beschreibung=f"c{number}-b{i}", path=LEDGER)
            for i in range(LEDGER_ENTRIES)
        ]
        return "ledger", {
            **ledger_args("buchen", eintraege=bookings),
            "referenzfelder": referenzfelder,
        }
    entries = [memory_entry(kurzbeschreibung=f"c{number}-e{i}") for i in range(INSERT_ENTRIES)]
    # (the same text as the base memories: stored as copies, not merged as near-duplicates)
    referenzfelder["duplikat_erlaubt"] = True
    return "insert_brain_longterm_memory", {
        **insert_args(*entries),
        "referenzfelder": referenzfelder,
    }


def rows(db: Path, sql: str) -> list[Any]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


async def stream(server: RunningServer, db: Path) -> dict[int, dict[str, Any]]:
    """Send the calls from WORKERS clients; SIGKILL the server once KILL_AFTER_ACKS calls
    were answered and some insert or ledger batch is half written. Returns the answered
    envelopes."""
    acked: dict[int, dict[str, Any]] = {}
    killed = asyncio.Event()

    async def worker(first: int) -> None:
        async with Client(StreamableHttpTransport(server.url, auth=server.token)) as client:
            for number in range(first, CALLS, WORKERS):
                tool, arguments = make_call(number)
                (outcome,) = await asyncio.gather(
                    client.call_tool(tool, arguments, raise_on_error=False),
                    return_exceptions=True,
                )
                if isinstance(outcome, BaseException) or killed.is_set():
                    return  # the server is gone: this and later calls are unacknowledged
                assert outcome.structured_content is not None
                acked[number] = outcome.structured_content

    async def killer() -> None:
        while not killed.is_set():
            await asyncio.sleep(0.002)
            if len(acked) < KILL_AFTER_ACKS:
                continue
            (count, booked) = (await asyncio.to_thread(rows, db, COUNTS))[0]
            # an insert batch is half stored or a ledger batch half booked right now
            if (count - BASE) % INSERT_ENTRIES or booked % LEDGER_ENTRIES:
                server.process.send_signal(signal.SIGKILL)
                killed.set()

    kill_task = asyncio.create_task(killer())
    # A client whose server died may fail on closing its session too: that is expected
    # after the kill, never before it, and never an assertion.
    ended = await asyncio.gather(*(worker(w) for w in range(WORKERS)), return_exceptions=True)
    for outcome in ended:
        assert not isinstance(outcome, AssertionError), outcome
        assert outcome is None or killed.is_set(), outcome
    if not killed.is_set():
        server.process.send_signal(signal.SIGKILL)
        killed.set()
    await kill_task
    server.process.wait(timeout=20)
    return acked


def stored_texts(db: Path) -> Counter[str]:
    return Counter(
        text for (text,) in rows(db, "SELECT kurzbeschreibung FROM memories WHERE tenant = 'local'")
    )


def stored_bookings(db: Path) -> Counter[str]:
    return Counter(text for (text,) in rows(db, "SELECT beschreibung FROM ledger_records"))


def booking_texts(number: int) -> list[str]:
    return [f"c{number}-b{i}" for i in range(LEDGER_ENTRIES)]


def ratings_per_call(db: Path) -> Counter[tuple[int, int]]:
    """(call, memory number) -> ratings stored by that call."""
    found: Counter[tuple[int, int]] = Counter()
    for number, referenzfelder in rows(db, "SELECT number, referenzfelder FROM ratings"):
        found[(json.loads(referenzfelder)["call"], number)] += 1
    return found


def expected_ratings(number: int) -> Counter[tuple[int, int]]:
    return Counter((number, 1 + (number + i) % BASE) for i in range(RATE_ENTRIES))


def check_aggregates(db: Path) -> None:
    """Every average matches its ratings; insert_IDs and memory IDs never repeat."""
    sums: dict[int, tuple[int, float]] = {}
    for number, score in rows(db, "SELECT number, score FROM ratings"):
        count, total = sums.get(number, (0, 0.0))
        sums[number] = (count + 1, total + float(score))
    for number, count, total in rows(
        db, "SELECT number, score_count, score_sum FROM memories WHERE number <= 3"
    ):
        assert (count, float(total)) == sums.get(number, (0, 0.0))
    insert_ids = [i for (i,) in rows(db, "SELECT insert_id FROM ratings")]
    assert len(insert_ids) == len(set(insert_ids))


async def test_sigkill_mid_stream_loses_nothing_and_a_resend_completes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "brain-data"
    db = data_dir / DATABASE_FILE_NAME
    # Given a server with three memories to rate
    with serve(data_dir) as server:
        async with Client(StreamableHttpTransport(server.url, auth=server.token)) as client:
            base = [memory_entry(kurzbeschreibung=f"basis-{i}") for i in range(BASE)]
            await client.call_tool("insert_brain_longterm_memory", insert_args(*base))
        # When a stream of batch inserts and ratings is cut by SIGKILL
        acked = await stream(server, db)
    lost = [number for number in range(CALLS) if number not in acked]
    assert acked and lost

    # Then after a restart on the same data directory every acknowledged write is there once
    texts = stored_texts(db)
    bookings = stored_bookings(db)
    half_stored = half_booked = 0
    with serve(data_dir) as server:
        async with Client(StreamableHttpTransport(server.url, auth=server.token)) as client:
            for number, envelope in acked.items():
                assert envelope["erfolg"] is True, envelope
                tool, _ = make_call(number)
                if tool == "insert_brain_longterm_memory":
                    ids = [entry["ID"] for entry in envelope["daten"]]
                    fetched = await client.call_tool(
                        "fetch_brain_memories",
                        {"inhalt": {"memories": {"longterm": ids}, "nutzer": 42, "agent": "a"}},
                    )
                    assert fetched.structured_content is not None
                    got = [
                        m["kurzbeschreibung"]
                        for m in fetched.structured_content["daten"]["longterm"]
                    ]
                    assert got == [f"c{number}-e{i}" for i in range(INSERT_ENTRIES)]
                    assert all(texts[text] == 1 for text in got)
                if tool == "ledger":
                    assert all(bookings[text] == 1 for text in booking_texts(number))
            per_call = ratings_per_call(db)
            for number in acked:
                if make_call(number)[0] == "rate_brain_memories":
                    assert {
                        k: v for k, v in per_call.items() if k[0] == number
                    } == expected_ratings(number)
            check_aggregates(db)
            for number in lost:
                prefix = f"c{number}-"
                present = sum(1 for text in texts if text.startswith(prefix))
                half_stored += 0 < present < INSERT_ENTRIES
                assert all(texts[f"{prefix}e{i}"] <= 1 for i in range(INSERT_ENTRIES))
                booked = sum(bookings[text] for text in booking_texts(number))
                half_booked += 0 < booked < LEDGER_ENTRIES
                assert all(bookings[text] <= 1 for text in booking_texts(number))

            # When every call that was not acknowledged is resent
            for number in lost:
                tool, arguments = make_call(number)
                resent = await client.call_tool(tool, arguments, raise_on_error=False)
                assert resent.structured_content is not None
                assert resent.structured_content["erfolg"] is True, resent.structured_content

    # Then each entry of every call is stored exactly once and the averages still match
    texts = stored_texts(db)
    inserts = [n for n in range(CALLS) if make_call(n)[0] == "insert_brain_longterm_memory"]
    assert all(texts[f"c{n}-e{i}"] == 1 for n in inserts for i in range(INSERT_ENTRIES))
    assert sum(texts.values()) == BASE + len(inserts) * INSERT_ENTRIES
    per_call = ratings_per_call(db)
    expected: Counter[tuple[int, int]] = Counter()
    for n in range(CALLS):
        if make_call(n)[0] == "rate_brain_memories":
            expected += expected_ratings(n)
    assert per_call == expected
    check_aggregates(db)
    ledger_calls = [n for n in range(CALLS) if make_call(n)[0] == "ledger"]
    bookings = stored_bookings(db)
    assert bookings == Counter(text for n in ledger_calls for text in booking_texts(n))
    with capsys.disabled():
        print(
            f"\ncrash test: {len(acked)} calls acknowledged, {len(lost)} cut off or unsent "
            f"({half_stored} insert batches half stored, {half_booked} ledger batches half "
            f"booked at the kill), all resent: {sum(texts.values())} memories, "
            f"{sum(per_call.values())} ratings, {sum(bookings.values())} bookings, each once"
        )
