"""HTTP semantics of the MCP endpoint: both protocol revisions, bearer auth, Host checks."""

from __future__ import annotations

import pytest

from tests.conftest import BASE_URL, InProcessServer

pytestmark = pytest.mark.anyio

ACCEPT = "application/json, text/event-stream"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
DISCOVER_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Accept": ACCEPT}


async def test_initialize_answers_2025_11_25(server: InProcessServer, dev_token: str) -> None:
    async with server.http() as http:
        response = await http.post("/mcp", json=INITIALIZE, headers=auth(dev_token))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    result = response.json()["result"]
    assert result["protocolVersion"] == "2025-11-25"
    assert result["serverInfo"]["name"] == "brain"
    assert "tools" in result["capabilities"]


async def test_server_discover_answers_2026_07_28(server: InProcessServer, dev_token: str) -> None:
    # Given a 2026-07-28 client: no initialize, version in the header and in _meta
    headers = {**auth(dev_token), "MCP-Protocol-Version": "2026-07-28"}
    async with server.http() as http:
        discover = await http.post(
            "/mcp",
            json={
                "jsonrpc": "2.0",
                "id": 1,
                "method": "server/discover",
                "params": {"_meta": DISCOVER_META},
            },
            headers={**headers, "Mcp-Method": "server/discover"},
        )
        listed = await http.post(
            "/mcp",
            json={
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/list",
                "params": {"_meta": DISCOVER_META},
            },
            headers={**headers, "Mcp-Method": "tools/list"},
        )
    # Then the server describes itself and lists the tools in single exchanges
    assert discover.status_code == 200, discover.text
    assert "2026-07-28" in discover.text
    assert listed.status_code == 200, listed.text
    names = {tool["name"] for tool in listed.json()["result"]["tools"]}
    assert "select_brain" in names


@pytest.mark.parametrize(
    ("authorization", "error"),
    [
        (None, "invalid_request"),
        ("Bearer not-a-jwt", "invalid_token"),
        ("Basic abc", "invalid_request"),
    ],
)
async def test_missing_or_bad_token_is_401_with_resource_metadata(
    server: InProcessServer, authorization: str | None, error: str
) -> None:
    headers = {"Accept": ACCEPT}
    if authorization:
        headers["Authorization"] = authorization
    async with server.http() as http:
        response = await http.post("/mcp", json=INITIALIZE, headers=headers)
    assert response.status_code == 401
    challenge = response.headers["www-authenticate"]
    assert challenge.startswith("Bearer ")
    assert f'error="{error}"' in challenge
    assert f'resource_metadata="{BASE_URL}/.well-known/oauth-protected-resource/mcp"' in challenge


async def test_protected_resource_metadata_is_public(server: InProcessServer) -> None:
    async with server.http() as http:
        for path in (
            "/.well-known/oauth-protected-resource/mcp",
            "/.well-known/oauth-protected-resource",
        ):
            response = await http.get(path)
            assert response.status_code == 200
            body = response.json()
            assert body["resource"] == f"{BASE_URL}/mcp"
            assert "memory:write" in body["scopes_supported"]


async def test_foreign_host_and_origin_are_refused(server: InProcessServer, dev_token: str) -> None:
    async with server.http() as http:
        bad_host = await http.post(
            "/mcp", json=INITIALIZE, headers={**auth(dev_token), "Host": "evil.example"}
        )
        bad_origin = await http.post(
            "/mcp", json=INITIALIZE, headers={**auth(dev_token), "Origin": "https://evil.example"}
        )
    assert bad_host.status_code == 421
    assert bad_origin.status_code == 403
