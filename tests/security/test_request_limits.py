"""Issue 11 at the HTTP boundary: one body limit before parsing, JSON depth and number limits,
the help flag read from one definition, duplicate Authorization headers, forwarded headers,
slow bodies. Every refusal is a 4xx with a clean answer and writes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.config import Settings
from shared.storage.port import StoragePort
from shared.validation.json_body import MAX_BODY_BYTES, MAX_JSON_DEPTH
from tests.conftest import InProcessServer, running_app
from tests.e2e.helpers import insert_args, memory_entry
from tests.security.conftest import Tokens, stored_state
from tests.security.test_tokens import ACCEPT, tool_call

pytestmark = pytest.mark.anyio

IDENTITY = {"nutzer": "anna", "agent": "bot"}


def headers(token: str) -> dict[str, str]:
    return {
        "Authorization": f"Bearer {token}",
        "Accept": ACCEPT,
        "Content-Type": "application/json",
    }


def insert_body(**memory: Any) -> dict[str, Any]:
    return tool_call(
        "insert_brain_longterm_memory", insert_args(memory_entry(**IDENTITY, **memory), **IDENTITY)
    )


def assert_jsonrpc_error(response: Any, status: int) -> str:
    assert response.status_code == status
    body = response.json()
    assert body["jsonrpc"] == "2.0"
    message: str = body["error"]["message"]
    assert "Traceback" not in message and "Exceeds the limit" not in message
    return message


async def test_body_over_the_limit_is_a_jsonrpc_error_before_parsing(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens
) -> None:
    # Given a body one byte over the one limit (not even JSON: it must not be parsed)
    body = b"{" * (MAX_BODY_BYTES + 1)
    before = stored_state(backend)
    # When it is posted
    async with secure_server.http() as http:
        response = await http.post("/mcp", content=body, headers=headers(tokens.make()))
    # Then the answer is a JSON-RPC error with 413 naming the limit, and nothing is stored
    message = assert_jsonrpc_error(response, 413)
    assert str(MAX_BODY_BYTES) in message
    assert stored_state(backend) == before


async def test_a_batch_just_under_the_limit_reaches_the_tool(
    settings: Settings, backend: StoragePort, issuer: LocalTokenIssuer, tokens: Tokens
) -> None:
    # Given 100 entries whose body is just under the limit (the MCP SDK's 4 MiB cap agrees),
    # on a server whose time budget is out of the way: this checks the body limit, not the
    # machine's speed (~6 s of scrubbing here, more under load; tests/security/test_time_budget.py
    # checks the budget itself)
    size = (MAX_BODY_BYTES - 60_000) // 100
    entries = [memory_entry(**IDENTITY, memory="w " * (size // 2 - 200)) for _ in range(100)]
    body = tool_call("insert_brain_longterm_memory", insert_args(*entries, **IDENTITY))
    patient = settings.model_copy(update={"tool_time_budget_s": 100.0})
    # When it is posted
    async with running_app(backend, patient, issuer) as server, server.http() as http:
        response = await http.post("/mcp", json=body, headers=headers(tokens.make()))
    # Then the tool stored all of them
    assert response.status_code == 200
    assert response.json()["result"]["structuredContent"]["anzahl_erfolgreich"] == 100


@pytest.mark.parametrize(
    ("name", "body"),
    [
        (
            "976 nested [",
            b'{"jsonrpc":"2.0","id":1,"method":"x","params":' + b"[" * 976 + b"]" * 976 + b"}",
        ),
        ("976 nested {a:", b'{"a":' * 976 + b"1" + b"}" * 976),
        ("100000 nested [", b"[" * 100_000),
        (f"{MAX_JSON_DEPTH + 1} levels", b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1)),
        ("integer of 4301 digits", b'{"jsonrpc":"2.0","id":' + b"9" * 4301 + b',"method":"ping"}'),
        ("NaN literal", b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}'),
        ("Infinity literal", b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":-Infinity}}'),
        ("overflowing float", b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":1e999}}'),
        ("invalid UTF-8", b'{"jsonrpc":"2.0","id":1,"method":"\xff"}'),
        ("not JSON", b"{nope"),
    ],
)
async def test_malformed_bodies_are_400_parse_errors(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens, name: str, body: bytes
) -> None:
    # Given a body that breaks the JSON limits
    before = stored_state(backend)
    # When it is posted
    async with secure_server.http() as http:
        response = await http.post("/mcp", content=body, headers=headers(tokens.make()))
    # Then the answer is a 400 JSON-RPC parse error without internals, nothing stored
    assert_jsonrpc_error(response, 400)
    assert response.json()["error"]["code"] == -32700
    assert stored_state(backend) == before


async def test_nan_in_referenzfelder_is_refused_cleanly(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens
) -> None:
    # Given an insert whose referenzfelder hold NaN (Python's JSON would accept it)
    text = (
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fetch_brain_memories",'
        '"arguments":{"referenzfelder":{"k":NaN},"inhalt":{"nutzer":"anna","agent":"bot",'
        '"memories":{"longterm":["longterm_1"]}}}}}'
    )
    async with secure_server.http() as http:
        response = await http.post("/mcp", content=text.encode(), headers=headers(tokens.make()))
    # Then it is a 400, not "Tool result contains a non-finite float"
    message = assert_jsonrpc_error(response, 400)
    assert "non-finite" not in message


async def test_longterm_id_with_5000_digits_is_a_field_error(
    secure_server: InProcessServer, tokens: Tokens
) -> None:
    # Given a memory ID with 5,000 digits
    arguments = {"inhalt": {"memories": {"longterm": ["longterm_" + "9" * 5000]}, **IDENTITY}}
    async with secure_server.http() as http:
        response = await http.post(
            "/mcp",
            json=tool_call("fetch_brain_memories", arguments),
            headers=headers(tokens.make()),
        )
    # Then the tool answers with a German field error, not Python's conversion message
    assert response.status_code == 200
    envelope = response.json()["result"]["structuredContent"]
    assert envelope["erfolg"] is False
    assert envelope["fehler"][0]["feld"] == "inhalt.memories.longterm[0]"
    assert "Exceeds" not in str(response.json())


@pytest.mark.parametrize("help_value", ["true", "1.0", "1e0", '"1"', "2"])
async def test_only_integer_help_skips_the_scope_check(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens, help_value: str
) -> None:
    # Given a token without any scope and a help flag that is not the integer 1
    token = tokens.make(scopes=frozenset())
    text = (
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"upsert_brain",'
        f'"arguments":{{"help":{help_value},"inhalt":{{}}}}}}}}'
    )
    before = stored_state(backend)
    async with secure_server.http() as http:
        response = await http.post("/mcp", content=text.encode(), headers=headers(token))
    # Then the middleware refuses it like any other call (403), as the tool layer would
    assert response.status_code == 403
    assert stored_state(backend) == before


async def test_help_with_oversized_referenzfelder_is_refused_without_scrubbing(
    secure_server: InProcessServer, tokens: Tokens
) -> None:
    # Given the input: a help call without scopes whose referenzfelder are 12 KB of a
    # pattern that made the scrubber backtrack for 9.8 s
    token = tokens.make(scopes=frozenset())
    arguments = {
        "help": 1,
        "inhalt": {},
        "referenzfelder": {"k": "password ist" + " " * 12000 + ";"},
    }
    async with secure_server.http() as http:
        response = await http.post(
            "/mcp", json=tool_call("upsert_brain", arguments), headers=headers(token)
        )
    # Then the 4 KB limit answers first (no scrubbing of 12 KB)
    envelope = response.json()["result"]["structuredContent"]
    assert envelope["erfolg"] is False
    assert envelope["fehler"][0]["feld"] == "referenzfelder"
    assert "4096" in envelope["fehler"][0]["meldung"]


async def test_duplicate_authorization_headers_are_401(
    secure_server: InProcessServer, backend: StoragePort, tokens: Tokens
) -> None:
    # Given two Authorization headers, both valid
    token = tokens.make()
    before = stored_state(backend)
    async with secure_server.http() as http:
        response = await http.post(
            "/mcp",
            json=insert_body(),
            headers=[
                ("Authorization", f"Bearer {token}"),
                ("Authorization", f"Bearer {token}"),
                ("Accept", ACCEPT),
            ],
        )
    # Then neither wins: 401, nothing stored
    assert response.status_code == 401
    assert 'error="invalid_request"' in response.headers["www-authenticate"]
    assert stored_state(backend) == before


@pytest.mark.parametrize(
    "forwarded",
    [
        {"X-Forwarded-Proto": 'https", evil="x'},
        {"X-Forwarded-Proto": "javascript"},
        {"X-Forwarded-Host": 'a" b'},
    ],
)
async def test_forwarded_headers_are_validated_before_use(
    behind_proxy: InProcessServer, forwarded: dict[str, str]
) -> None:
    # Given a request without token but with malformed forwarded headers (from the proxy:
    # anyone else's are dropped anyway)
    async with behind_proxy.http() as http:
        response = await http.post("/mcp", json=insert_body(), headers=forwarded)
    # Then the challenge carries a well-formed http(s) URL and no injected quote
    assert response.status_code == 401
    challenge = response.headers["www-authenticate"]
    metadata = challenge.split('resource_metadata="', 1)[1]
    url = metadata[: metadata.index('"')]
    assert url.startswith(("http://", "https://"))
    assert challenge.count('"') == 6
    assert "evil" not in challenge and "javascript" not in challenge


@pytest.fixture
async def behind_proxy(
    settings: Settings, backend: StoragePort, issuer: LocalTokenIssuer
) -> AsyncIterator[InProcessServer]:
    """The app behind a reverse proxy at 127.0.0.1 (the in-process client's address)."""
    proxied = settings.model_copy(update={"trusted_proxies": ["127.0.0.0/8"]})
    async with running_app(backend, proxied, issuer) as running:
        yield running


FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "brain.example.com"}


async def test_well_formed_forwarded_headers_of_a_trusted_proxy_are_used(
    behind_proxy: InProcessServer,
) -> None:
    async with behind_proxy.http() as http:
        response = await http.post("/mcp", json=insert_body(), headers=FORWARDED)
        metadata = await http.get("/.well-known/oauth-protected-resource", headers=FORWARDED)
    expected = "https://brain.example.com/.well-known/oauth-protected-resource/mcp"
    assert f'resource_metadata="{expected}"' in response.headers["www-authenticate"]
    assert metadata.json()["resource"] == "https://brain.example.com/mcp"


async def test_forwarded_headers_of_anyone_else_are_ignored(
    secure_server: InProcessServer,
) -> None:
    # Given no trusted proxy (the default), When a client sends forwarded headers
    async with secure_server.http() as http:
        response = await http.post("/mcp", json=insert_body(), headers=FORWARDED)
        metadata = await http.get("/.well-known/oauth-protected-resource", headers=FORWARDED)
    # Then the challenge and the protected-resource metadata name the Host it addressed
    # (issue 20: X-Forwarded-Host steered resource_metadata from any client)
    assert "brain.example.com" not in response.headers["www-authenticate"]
    assert 'resource_metadata="http://127.0.0.1:8787/' in response.headers["www-authenticate"]
    assert metadata.json()["resource"] == "http://127.0.0.1:8787/mcp"


@pytest.fixture
async def slow_body_server(
    settings: Settings, backend: StoragePort, issuer: LocalTokenIssuer
) -> AsyncIterator[InProcessServer]:
    quick = settings.model_copy(update={"http_body_timeout_s": 0.5})
    async with running_app(backend, quick, issuer) as running:
        yield running


async def test_a_body_that_arrives_too_slowly_is_408(
    slow_body_server: InProcessServer, backend: StoragePort, tokens: Tokens
) -> None:
    # Given a client that sends its body one byte at a time, slower than the timeout
    import anyio

    async def trickle() -> AsyncIterator[bytes]:
        for byte in b'{"jsonrpc":"2.0","id":1,"method":"ping"}':
            await anyio.sleep(0.1)
            yield bytes([byte])

    before = stored_state(backend)
    async with slow_body_server.http() as http:
        response = await http.post("/mcp", content=trickle(), headers=headers(tokens.make()))
    # Then the server stops waiting: 408 as a JSON-RPC error, nothing stored
    assert_jsonrpc_error(response, 408)
    assert stored_state(backend) == before


def test_the_body_limit_is_within_the_mcp_sdks_own_cap() -> None:
    # One limit: ours answers first, so the SDK's plain-text 413 is never reached.
    from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE

    assert MAX_BODY_BYTES <= DEFAULT_MAX_REQUEST_BODY_SIZE
