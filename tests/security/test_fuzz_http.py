"""Property-based fuzzing of the HTTP app (issue 11): thousands of malformed requests - raw
bytes, broken JSON-RPC, and every tool's own example with parts replaced by arbitrary JSON -
get no 5xx, never an exception's text, and a refused call stores nothing.

Runs on the real ASGI app (auth, JSON limits, MCP transport, tools) over SQLite; the counts
are printed (`pytest -s`) and asserted."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import given
from hypothesis import strategies as st

from shared.auth.local_tokens import LocalTokenIssuer
from shared.config import Settings
from shared.storage.sqlite import SqliteStorage
from shared.tools.catalog import TOOLS
from tests.conftest import InProcessServer, running_app
from tests.security.conftest import TENANT_A, Tokens, stored_state
from tests.security.fuzz_strategies import dumps, fuzz, json_values, mutated, raw_bodies
from tests.security.test_tokens import ACCEPT

COUNTS: Counter[str] = Counter()


LEAKS = ("Traceback", "Exceeds the limit", "Error calling tool", "RecursionError", "KeyError")


class App:
    """The app started once, called synchronously from hypothesis examples."""

    def __init__(self, portal: BlockingPortal, server: InProcessServer, token: str) -> None:
        self.portal = portal
        self.server = server
        self.headers = {
            "Authorization": f"Bearer {token}",
            "Accept": ACCEPT,
            "Content-Type": "application/json",
        }

    def post(self, body: bytes) -> httpx2.Response:
        async def send() -> httpx2.Response:
            async with self.server.http() as http:
                return await http.post("/mcp", content=body, headers=self.headers)

        return self.portal.call(send)


@pytest.fixture
def app(
    settings: Settings, sqlite_storage: SqliteStorage, issuer: LocalTokenIssuer
) -> Iterator[App]:
    token = Tokens(issuer).make(nutzer=("anna", "42"), agents=("bot", "support-agent", "23"))
    with start_blocking_portal() as portal:
        context = portal.wrap_async_context_manager(running_app(sqlite_storage, settings, issuer))
        with context as server:
            yield App(portal, server, token)


def check(app: App, body: bytes, storage: SqliteStorage, kind: str) -> None:
    """One request: no 5xx, no internals in the answer, a refused tool call stores nothing."""
    before = stored_state(storage, (TENANT_A,))
    response = app.post(body)
    COUNTS[kind] += 1
    COUNTS[f"status {response.status_code}"] += 1
    assert response.status_code < 500, (response.status_code, response.text[:300])
    assert not any(leak in response.text for leak in LEAKS), response.text[:300]
    try:
        payload = response.json()
    except json.JSONDecodeError:
        payload = None
    result = payload.get("result") if isinstance(payload, dict) else None
    envelope = result.get("structuredContent") if isinstance(result, dict) else None
    if isinstance(envelope, dict) and envelope.get("erfolg") is False:
        COUNTS["refused by a tool"] += 1
        if not envelope.get("anzahl_erfolgreich"):
            assert stored_state(storage, (TENANT_A,)) == before, envelope.get("fehler")


def tool_call(name: Any, arguments: Any, request_id: Any = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


TOOL_EXAMPLES = {name: spec.example for name, spec in TOOLS.items()}


def test_fuzz_tool_arguments(app: App, sqlite_storage: SqliteStorage) -> None:
    @fuzz(1200)
    @given(data=st.data(), name=st.sampled_from(sorted(TOOL_EXAMPLES)))
    def run(data: st.DataObject, name: str) -> None:
        arguments = data.draw(mutated(TOOL_EXAMPLES[name]))
        check(app, dumps(tool_call(name, arguments)), sqlite_storage, "tool arguments")

    run()
    assert COUNTS["tool arguments"] >= 1000


def test_fuzz_jsonrpc_envelopes(app: App, sqlite_storage: SqliteStorage) -> None:
    example = tool_call("insert_brain_longterm_memory", TOOL_EXAMPLES["recall"])

    @fuzz(300)
    @given(envelope=mutated(example) | json_values)
    def run(envelope: Any) -> None:
        check(app, dumps(envelope), sqlite_storage, "json-rpc envelopes")

    run()
    assert COUNTS["json-rpc envelopes"] >= 250


def test_fuzz_raw_bodies(app: App, sqlite_storage: SqliteStorage) -> None:
    @fuzz(300)
    @given(body=raw_bodies)
    def run(body: bytes) -> None:
        check(app, body, sqlite_storage, "raw bodies")

    run()
    assert COUNTS["raw bodies"] >= 250
    print("\nHTTP fuzz counts:", dict(sorted(COUNTS.items())))
