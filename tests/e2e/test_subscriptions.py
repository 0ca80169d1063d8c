"""`subscriptions/listen` (MCP 2026-07-28) through the real app: a real SDK client, raw HTTP,
and 2025-11-25 clients, which keep working without it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import pytest
from mcp.client.client import Client as SdkClient
from mcp.client.streamable_http import streamable_http_client
from mcp_types import SubscriptionFilter

from tests.conftest import BASE_URL, InProcessServer

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
}
SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"


def listen_request(request_id: Any, **notifications: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "subscriptions/listen",
        "params": {"_meta": META, "notifications": notifications},
    }


def modern_headers(token: str, method: str, accept: str) -> dict[str, str]:
    return {
        "Authorization": f"Bearer {token}",
        "Accept": accept,
        "MCP-Protocol-Version": MODERN,
        "Mcp-Method": method,
    }


@asynccontextmanager
async def sdk_client(server: InProcessServer, token: str, mode: str) -> AsyncIterator[SdkClient]:
    """The MCP SDK client with the bearer token, pinned to `mode` (a revision or "legacy")."""
    http = httpx2.AsyncClient(
        transport=httpx2.ASGITransport(app=server.app),
        base_url=BASE_URL,
        headers={"Authorization": f"Bearer {token}"},
    )
    transport = streamable_http_client(f"{BASE_URL}/mcp", http_client=http)
    async with http, SdkClient(transport, mode=mode) as client:
        yield client


def sse_messages(body: str) -> list[dict[str, Any]]:
    return [json.loads(line[5:]) for line in body.splitlines() if line.startswith("data:")]


async def test_listen_acknowledges_nothing_and_closes_gracefully(
    server: InProcessServer, dev_token: str
) -> None:
    # Given a 2026-07-28 client asking for every kind of change notification
    request = listen_request(
        "listen-7",
        toolsListChanged=True,
        promptsListChanged=True,
        resourcesListChanged=True,
        resourceSubscriptions=["brain://x"],
    )
    headers = modern_headers(
        dev_token, "subscriptions/listen", "application/json, text/event-stream"
    )
    # When it opens a listen stream
    async with server.http() as http:
        response = await http.post("/mcp", json=request, headers=headers)
    # Then the stream acknowledges first, honours none of it, and ends with the graceful result
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    ack, closure = sse_messages(response.text)
    assert ack["method"] == "notifications/subscriptions/acknowledged"
    assert ack["params"]["notifications"] == {}
    assert ack["params"]["_meta"][SUBSCRIPTION_ID] == "listen-7"
    assert closure["id"] == "listen-7"
    assert closure["result"]["resultType"] == "complete"
    assert closure["result"]["_meta"][SUBSCRIPTION_ID] == "listen-7"


async def test_discover_advertises_no_change_notifications(
    server: InProcessServer, dev_token: str
) -> None:
    # Given the listen method is served
    discover = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": META}}
    headers = modern_headers(dev_token, "server/discover", "application/json, text/event-stream")
    # When a client discovers the server
    async with server.http() as http:
        response = await http.post("/mcp", json=discover, headers=headers)
    # Then no list-changed or subscribe capability is claimed (none is delivered)
    capabilities = response.json()["result"]["capabilities"]
    assert capabilities["tools"] == {"listChanged": False}
    for name in ("prompts", "resources"):
        flags = capabilities.get(name, {})
        assert not flags.get("listChanged") and not flags.get("subscribe"), capabilities


async def test_listen_without_event_stream_accept_is_406(
    server: InProcessServer, dev_token: str
) -> None:
    headers = modern_headers(dev_token, "subscriptions/listen", "application/json")
    async with server.http() as http:
        response = await http.post("/mcp", json=listen_request(3), headers=headers)
    assert response.status_code == 406


async def test_sdk_client_listen_ends_cleanly(server: InProcessServer, dev_token: str) -> None:
    # Given the MCP SDK client pinned to 2026-07-28 with the bearer token
    http = httpx2.AsyncClient(
        transport=httpx2.ASGITransport(app=server.app),
        base_url=BASE_URL,
        headers={"Authorization": f"Bearer {dev_token}"},
    )
    async with (
        http,
        SdkClient(
            streamable_http_client(f"{BASE_URL}/mcp", http_client=http), mode=MODERN
        ) as client,
    ):
        # When it listens for tool list changes
        async with client.listen(tools_list_changed=True) as subscription:
            events = [event async for event in subscription]
        # Then the server honours nothing, delivers nothing and ends the stream gracefully
        assert subscription.honored == SubscriptionFilter()
        assert events == []
        # And the same client still calls tools
        tools = await client.list_tools()
        assert "select_brain" in {tool.name for tool in tools.tools}


async def test_listen_is_not_a_2025_11_25_method(server: InProcessServer, dev_token: str) -> None:
    # Given a 2025-11-25 client (initialize handshake, no per-request _meta)
    request = {"jsonrpc": "2.0", "id": 5, "method": "subscriptions/listen", "params": {}}
    headers = {
        "Authorization": f"Bearer {dev_token}",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-11-25",
    }
    async with server.http() as http:
        response = await http.post("/mcp", json=request, headers=headers)
    # Then the method does not exist on that wire
    assert response.json()["error"]["code"] == -32601
    # And the SDK client in the 2025-11-25 handshake still lists the tools
    http = httpx2.AsyncClient(
        transport=httpx2.ASGITransport(app=server.app),
        base_url=BASE_URL,
        headers={"Authorization": f"Bearer {dev_token}"},
    )
    url = f"{BASE_URL}/mcp"
    async with (
        http,
        SdkClient(streamable_http_client(url, http_client=http), mode="legacy") as client,
    ):
        assert client.protocol_version == "2025-11-25"
        tools = await client.list_tools()
    assert "select_brain" in {tool.name for tool in tools.tools}
