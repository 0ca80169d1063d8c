"""What retry safety costs per write on DynamoDB (DynamoDB Local, round trips by botocore hooks):
a write tool through `call_tool` against the same service call without it, and a resend."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.domain import MemoryType
from shared.services.context import ServiceContext
from shared.services.ledger import ledger
from shared.services.memories import insert_memories, rate_memories
from shared.services.memory_admin import delete_memories
from shared.storage.dynamo import DynamoStorage
from shared.tools.dispatch import call_tool
from shared.validation.requests import parse_fetch, parse_insert, parse_rate
from tests.contract.ledger_builders import ANNA, booking_entry, ledger_args
from tests.integration.conftest import CallRecorder

SETTINGS = Settings()
PRINCIPAL = Principal(
    tenant="tenant-idem",
    subject="test",
    nutzer=frozenset({"*"}),
    agents=frozenset({"*"}),
    scopes=ALL_SCOPES,
)
CALLER = {"nutzer": "anna", "agent": "bot"}
# What retry safety adds to a write: Powertools' in-progress PutItem, the entry-ID
# reservation PutItem after the counter step, Powertools' completion UpdateItem.
EXTRA = Counter({"PutItem": 2, "UpdateItem": 1})


def insert_args(n: int) -> dict[str, Any]:
    entry = {
        "kurzbeschreibung": f"Notiz {n}",
        "memory": "Rückruf am Vormittag.",
        "tags": [],
        "scope": "kunde",
        "scope_vk": "K-1",
        **CALLER,
    }
    return {"inhalt": {"memories": [entry], **CALLER}, "referenzfelder": {"n": n}}


def rate_args(n: int) -> dict[str, Any]:
    entry = {
        "typ": "longterm",
        "parameter": {"memory_ID": "longterm_1", "agent": "bot", "score": n % 11},
    }
    return {"inhalt": {"memories": [entry], **CALLER}, "referenzfelder": {"n": n}}


def test_retry_safety_adds_three_calls_and_three_round_trips_per_write(
    storage: DynamoStorage, recorder: CallRecorder, capsys: pytest.CaptureFixture[str]
) -> None:
    ctx = ServiceContext(storage, SETTINGS)
    rounds = 20
    for tool, args, plain in (
        (
            "insert_brain_longterm_memory",
            insert_args,
            lambda a: insert_memories(
                ctx,
                PRINCIPAL,
                parse_insert(a, SETTINGS.parse_options(), shortterm=False),
                MemoryType.LONGTERM,
            ),
        ),
        (
            "rate_brain_memories",
            rate_args,
            lambda a: rate_memories(ctx, PRINCIPAL, parse_rate(a, SETTINGS.parse_options())),
        ),
    ):
        # Given the same write once through the service alone and once through call_tool
        recorder.reset()
        assert plain(args(0))["erfolg"]
        bare, bare_rounds = recorder.operations(), recorder.sequential_round_trips()
        recorder.reset()
        assert call_tool(ctx, PRINCIPAL, tool, args(1))["erfolg"]
        safe, safe_rounds = recorder.operations(), recorder.sequential_round_trips()
        # Then retry safety adds exactly three calls, each its own round trip
        assert safe - bare == EXTRA and bare - safe == Counter(), (tool, safe, bare)
        assert safe_rounds - bare_rounds == 3
        # And a resend is answered from the record with one call, writing nothing
        recorder.reset()
        call_tool(ctx, PRINCIPAL, tool, args(1))
        resend = recorder.operations()
        assert sum(resend.values()) <= 2 and set(resend) <= {"PutItem", "GetItem"}, resend

        # Latency on DynamoDB Local (loopback; AWS adds ~3 x a DynamoDB write, ~5-10 ms each)
        started = time.perf_counter()
        for n in range(rounds):
            plain(args(100 + n))
        bare_ms = (time.perf_counter() - started) * 1000 / rounds
        started = time.perf_counter()
        for n in range(rounds):
            call_tool(ctx, PRINCIPAL, tool, args(200 + n))
        safe_ms = (time.perf_counter() - started) * 1000 / rounds
        started = time.perf_counter()
        for n in range(rounds):
            call_tool(ctx, PRINCIPAL, tool, args(200 + n))
        resend_ms = (time.perf_counter() - started) * 1000 / rounds
        with capsys.disabled():
            print(
                f"\n{tool}: {sum(bare.values())} calls/{bare_rounds} round trips bare, "
                f"{sum(safe.values())}/{safe_rounds} retry-safe, resend {dict(resend)}; "
                f"DynamoDB Local {bare_ms:.1f} ms bare, {safe_ms:.1f} ms retry-safe, "
                f"{resend_ms:.1f} ms resend"
            )


def test_a_retry_safe_ledger_booking_adds_two_calls_and_its_entry_key(
    storage: DynamoStorage, recorder: CallRecorder, capsys: pytest.CaptureFixture[str]
) -> None:
    ctx = ServiceContext(storage, SETTINGS)

    def booking(n: int) -> dict[str, Any]:
        return ledger_args("buchen", eintraege=[booking_entry(betrag=f"{n}.00")])

    # Given the same booking once through the service alone (no write key) and once
    # through call_tool
    recorder.reset()
    assert ledger(ctx, ANNA, booking(1))["erfolg"]
    bare, bare_rounds = recorder.operations(), recorder.sequential_round_trips()
    recorder.reset()
    assert call_tool(ctx, ANNA, "ledger", booking(2))["erfolg"]
    safe, safe_rounds = recorder.operations(), recorder.sequential_round_trips()
    # Then retry safety adds the in-progress PutItem and the completion UpdateItem; the
    # entry key is one more item inside the booking's transaction, not another call
    assert safe - bare == Counter({"PutItem": 1, "UpdateItem": 1}), (safe, bare)
    assert bare - safe == Counter()
    assert safe_rounds - bare_rounds == 2
    # And an identical resend is one call, booking nothing
    recorder.reset()
    call_tool(ctx, ANNA, "ledger", booking(2))
    resend = recorder.operations()
    assert sum(resend.values()) <= 2 and set(resend) <= {"PutItem", "GetItem"}, resend
    with capsys.disabled():
        print(
            f"\nledger buchen (1 entry): {sum(bare.values())} calls/{bare_rounds} round trips "
            f"bare, {sum(safe.values())}/{safe_rounds} retry-safe, resend {dict(resend)}"
        )


def test_a_retry_safe_delete_adds_its_records_and_one_write_mark(
    storage: DynamoStorage, recorder: CallRecorder, capsys: pytest.CaptureFixture[str]
) -> None:
    ctx = ServiceContext(storage, SETTINGS)
    for n in range(2):
        assert call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", insert_args(n))["erfolg"]

    def delete(memory_id: str) -> dict[str, Any]:
        return {"inhalt": {"memories": {"longterm": [memory_id]}, **CALLER}}

    # Given the same kind of delete once through the service alone and once via call_tool
    recorder.reset()
    assert delete_memories(ctx, PRINCIPAL, parse_fetch(delete("longterm_1")))["erfolg"]
    bare, bare_rounds = recorder.operations(), recorder.sequential_round_trips()
    recorder.reset()
    assert call_tool(ctx, PRINCIPAL, "delete_brain_memories", delete("longterm_2"))["erfolg"]
    safe, safe_rounds = recorder.operations(), recorder.sequential_round_trips()
    # Then retry safety adds the call's two record calls and the write mark's UpdateItem
    assert safe - bare == Counter({"PutItem": 1, "UpdateItem": 2}), (safe, bare)
    assert bare - safe == Counter()
    assert safe_rounds - bare_rounds == 3
    with capsys.disabled():
        print(
            f"\ndelete_brain_memories (1 ID): {sum(bare.values())} calls/{bare_rounds} round "
            f"trips bare, {sum(safe.values())}/{safe_rounds} retry-safe"
        )
