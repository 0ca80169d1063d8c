"""`subscriptions/listen` (MCP 2026-07-28) through the router Lambda under Mangum: API Gateway
buffers the response, so the stream is the acknowledgement plus the graceful closure."""

from __future__ import annotations

import json
from typing import Any

from shared.config import Settings
from shared.lambda_runtime.router import build_router
from tests.lambda_functions.conftest import FakeLambdaContext, LocalInvoker
from tests.lambda_functions.test_router import router_event

MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
}


def test_router_acknowledges_listen_and_ends_the_stream_in_one_response() -> None:
    # Given the router Lambda (no tool Lambda is needed for the protocol itself)
    invoker = LocalInvoker({}, FakeLambdaContext())
    router: Any = build_router(Settings(), invoker)
    listen = {
        "jsonrpc": "2.0",
        "id": 41,
        "method": "subscriptions/listen",
        "params": {"_meta": META, "notifications": {"toolsListChanged": True}},
    }
    event = router_event(listen)
    event["headers"] = {
        **event["headers"],
        "mcp-protocol-version": MODERN,
        "mcp-method": "subscriptions/listen",
    }
    # When a 2026-07-28 client opens a listen stream
    response = router(event, FakeLambdaContext())
    # Then one buffered SSE response carries the acknowledgement and the graceful closure
    assert response["statusCode"] == 200, response
    assert response["headers"]["content-type"].startswith("text/event-stream")
    messages = [
        json.loads(line[5:]) for line in response["body"].splitlines() if line.startswith("data:")
    ]
    ack, closure = messages
    assert ack["method"] == "notifications/subscriptions/acknowledged"
    assert ack["params"] == {
        "_meta": {"io.modelcontextprotocol/subscriptionId": 41},
        "notifications": {},
    }
    assert closure["id"] == 41
    assert closure["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == 41
    assert invoker.calls == []
