"""Bearer tokens at the HTTP boundary: every bad token is a 401 that writes nothing."""

from __future__ import annotations

import time
from typing import Any

import jwt
import pytest

from shared.auth.local_tokens import ALGORITHM, AUDIENCE, ISSUER, LocalTokenIssuer
from shared.storage.port import StoragePort
from tests.conftest import BASE_URL, InProcessServer
from tests.e2e.helpers import insert_args, memory_entry
from tests.security.conftest import Tokens, stored_state

pytestmark = pytest.mark.anyio

ACCEPT = "application/json, text/event-stream"


def tool_call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


def claims(**overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    base = {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": "mallory",
        "iat": now,
        "exp": now + 600,
        "tenant": "acme",
        "nutzer": ["*"],
        "agent": ["*"],
        "scope": "memory:read memory:write brain:read brain:write",
    }
    base.update(overrides)
    return base


def signed(key: bytes, **overrides: Any) -> str:
    return jwt.encode(claims(**overrides), key, algorithm=ALGORITHM)


def bad_tokens(issuer: LocalTokenIssuer) -> dict[str, str | None]:
    own_key = issuer._key  # the server's key, to prove only the claims are at fault
    return {
        "missing": None,
        "garbage": "garbage",
        "not a jwt but three parts": "a.b.c",
        "expired": signed(own_key, exp=int(time.time()) - 120),
        "other key": signed(b"k" * 32),
        "wrong audience": signed(own_key, aud="someone-else"),
        "wrong issuer": signed(own_key, iss="https://evil.example"),
        "no tenant": signed(own_key, tenant=""),
        "alg none": jwt.encode(claims(), None, algorithm="none"),
    }


CASES = [
    "missing",
    "garbage",
    "not a jwt but three parts",
    "expired",
    "other key",
    "wrong audience",
    "wrong issuer",
    "no tenant",
    "alg none",
]


@pytest.mark.parametrize("case", CASES)
async def test_bad_tokens_get_401_with_metadata_and_write_nothing(
    secure_server: InProcessServer, backend: StoragePort, issuer: LocalTokenIssuer, case: str
) -> None:
    # Given a token that is bad in one way
    token = bad_tokens(issuer)[case]
    before = stored_state(backend)
    headers = {"Accept": ACCEPT}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    # When it tries to insert a memory
    async with secure_server.http() as http:
        response = await http.post(
            "/mcp",
            json=tool_call("insert_brain_longterm_memory", insert_args(memory_entry())),
            headers=headers,
        )
    # Then the answer is 401 with a Bearer challenge pointing at the RFC 9728 metadata
    assert response.status_code == 401
    challenge = response.headers["www-authenticate"]
    assert challenge.startswith("Bearer ")
    assert f'resource_metadata="{BASE_URL}/.well-known/oauth-protected-resource/mcp"' in challenge
    assert token is None or token not in response.text
    # And nothing was written
    assert stored_state(backend) == before


async def test_valid_token_is_accepted(secure_server: InProcessServer, tokens: Tokens) -> None:
    # The control case for the table above: the same request with a good token succeeds.
    async with secure_server.http() as http:
        response = await http.post(
            "/mcp",
            json=tool_call(
                "insert_brain_longterm_memory",
                insert_args(memory_entry(nutzer="anna", agent="bot"), nutzer="anna", agent="bot"),
            ),
            headers={"Authorization": f"Bearer {tokens.make()}", "Accept": ACCEPT},
        )
    assert response.status_code == 200
    assert response.json()["result"]["structuredContent"]["erfolg"] is True


async def test_protected_resource_metadata(secure_server: InProcessServer) -> None:
    async with secure_server.http() as http:
        for path in (
            "/.well-known/oauth-protected-resource/mcp",
            "/.well-known/oauth-protected-resource",
        ):
            response = await http.get(path)
            assert response.status_code == 200
            body = response.json()
            assert body["resource"] == f"{BASE_URL}/mcp"
            assert body["bearer_methods_supported"] == ["header"]
            assert set(body["scopes_supported"]) == {
                "memory:read",
                "memory:write",
                "brain:read",
                "brain:write",
            }
            assert body["authorization_servers"] == []
