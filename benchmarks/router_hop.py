"""What a `tools/call` costs through the MCP router compared with calling the tool function.

In-process emulation of `lambda:Invoke`, DynamoDB on DynamoDB Local (AWS's own engine,
`tests/dynamodb_local`; S3 Vectors, which has no local engine, on moto): the router Lambda's
handler (Mangum, fastmcp, auth, the LambdaDispatcher) receives an API Gateway event with a
`tools/call` and invokes the tool function's handler with the payload carried as JSON both
ways, as the Lambda service would; the direct path calls the same tool handler with the
same invoke payload.

- warm: medians over many calls in one process (router and tool built);
- router only: the router's own path, its invoke answered at once by a stub (no tool work);
- cold: fresh interpreters; the first call through a cold router to a cold tool function
  (both inits in one process here; in AWS they are two environments that start one after the
  other) against the first call to a cold tool function.

Not measured (needs AWS): the Lambda service's own invoke latency between the two functions.

Run: .venv/bin/python benchmarks/router_hop.py [--calls 200] [--cold-runs 5]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
TOOL = "fetch_brain_memories"
FUNCTION = "arn:aws:lambda:eu-central-1:123456789012:function:brain-fetch:live"
ENV = {
    "AWS_DEFAULT_REGION": "eu-central-1",
    "AWS_ACCESS_KEY_ID": "hop",
    "AWS_SECRET_ACCESS_KEY": "hop",
    "BRAIN_BACKEND": "aws",
    "BRAIN_TABLE_NAME": "brain-hop",
    "BRAIN_BUCKET_NAME": "brain-hop-embeddings",
    "BRAIN_AWS_MAX_PARALLEL": "1",
    "BRAIN_TOOL_FUNCTIONS": json.dumps({TOOL: FUNCTION}),
    "FASTMCP_ENABLE_RICH_LOGGING": "false",
    "POWERTOOLS_SERVICE_NAME": "brain",
    "POWERTOOLS_METRICS_NAMESPACE": "Brain",
    "POWERTOOLS_LOG_LEVEL": "WARNING",
    "BRAIN_LOG_LEVEL": "WARNING",
}
ARGUMENTS = {
    "inhalt": {"memories": {"longterm": ["longterm_1"]}, "nutzer": "anna", "agent": "support-bot"}
}


class Context:
    function_name = "brain-hop"
    memory_limit_in_mb = 1024
    invoked_function_arn = FUNCTION
    aws_request_id = "hop"

    def get_remaining_time_in_millis(self) -> int:
        return 29_000


def router_event() -> dict[str, Any]:
    event: dict[str, Any] = json.loads((ROOT / "events" / "mcp_router.json").read_text())
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": TOOL, "arguments": ARGUMENTS},
    }
    event["body"] = json.dumps(call)
    return event


def tool_payload(principal: Any) -> dict[str, Any]:
    from shared.lambda_runtime.payloads import PrincipalPayload

    return {
        "source": "brain-router",
        "tool": TOOL,
        "arguments": ARGUMENTS,
        "principal": PrincipalPayload.of(principal).model_dump(),
    }


class JsonInvoker:
    """lambda:Invoke in process: JSON bytes in, the handler's answer as JSON bytes out."""

    def __init__(self, handler: Any) -> None:
        self.handler = handler

    def invoke(self, function_name: str, payload: bytes) -> Any:
        from shared.lambda_runtime.router import InvokeResult

        answer = self.handler(json.loads(payload), Context())
        return InvokeResult(json.dumps(answer).encode())


class StubInvoker:
    """Answers every invoke at once with a fixed envelope: the router's own path only."""

    answer = json.dumps({"erfolg": True, "daten": {}, "referenzfelder": {}}).encode()

    def invoke(self, function_name: str, payload: bytes) -> Any:
        from shared.lambda_runtime.router import InvokeResult

        return InvokeResult(self.answer)


def setup_storage() -> None:
    from shared.config import Settings
    from shared.storage.aws import make_clients
    from shared.storage.dynamo.schema import bootstrap

    settings = Settings()
    bootstrap(make_clients(settings), settings.table_name, settings.bucket_name)


def timed(calls: dict[str, Any], count: int) -> dict[str, float]:
    """Median ms per path; the paths take turns, so load on the machine hits all alike."""
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(count):
        for name, call in calls.items():
            started = time.perf_counter()
            call()
            samples[name].append(time.perf_counter() - started)
    return {name: statistics.median(values) * 1000 for name, values in samples.items()}


def warm(calls: int) -> dict[str, float]:
    from shared.auth.claims import principal_from_claims
    from shared.config import Settings
    from shared.lambda_runtime.router import build_router
    from shared.lambda_runtime.tool_handler import make_tool_handler
    from tests.dynamodb_local import dynamodb_env, moto_env

    with moto_env(), dynamodb_env() as local, mock.patch.dict(os.environ, local):
        setup_storage()
        settings = Settings()
        tool = make_tool_handler(TOOL)
        event = router_event()
        claims = event["requestContext"]["authorizer"]["jwt"]["claims"]
        payload = tool_payload(principal_from_claims(claims, settings.claim_mapping))
        routed = build_router(settings, JsonInvoker(tool))
        stubbed = build_router(settings, StubInvoker())
        # Each path answers correctly before it is timed.
        first = tool(payload, Context())
        assert first["erfolg"] is True, first
        body = json.loads(routed(router_event(), Context())["body"])
        assert body["result"]["structuredContent"]["erfolg"] is True, body
        with contextlib.redirect_stdout(io.StringIO()):
            for _ in range(20):  # warm-up
                tool(payload, Context())
                routed(router_event(), Context())
                stubbed(router_event(), Context())
        encoded = json.dumps(payload)
        # EMF metrics go to stdout, as in Lambda; here into a buffer.
        with contextlib.redirect_stdout(io.StringIO()):
            timings = timed(
                {
                    "direct": lambda: tool(json.loads(encoded), Context()),
                    "via router": lambda: routed(dict(event), Context()),
                    "router only": lambda: stubbed(dict(event), Context()),
                },
                calls,
            )
        for router in (routed, stubbed):
            close = getattr(router, "close", None)  # the app's lifespan, if it has one
            if close is not None:
                close()
        return timings


COLD_PROBE = """
import json, os, sys, time
t0 = time.perf_counter()
sys.path[:0] = [{root!r}]
from moto import mock_aws
sys.path.insert(0, {benchmarks!r})
import router_hop as hop
with mock_aws():
    # moto sets fake credentials when it starts; DynamoDB goes to the parent's DynamoDB Local.
    os.environ.update(json.loads({local!r}))
    hop.setup_storage()
    t0 = time.perf_counter()
    from shared.lambda_runtime.tool_handler import make_tool_handler
    tool = make_tool_handler(hop.TOOL)
    if {through_router}:
        from shared.config import Settings
        from shared.lambda_runtime.router import build_router
        router = build_router(Settings(), hop.JsonInvoker(tool))
        answer = json.loads(router(hop.router_event(), hop.Context())["body"])
        ok = answer["result"]["structuredContent"]["erfolg"]
    else:
        from shared.auth.claims import principal_from_claims
        from shared.config import Settings
        claims = hop.router_event()["requestContext"]["authorizer"]["jwt"]["claims"]
        principal = principal_from_claims(claims, Settings().claim_mapping)
        ok = tool(hop.tool_payload(principal), hop.Context())["erfolg"]
    assert ok is True
    print(time.perf_counter() - t0)
"""


def cold(runs: int) -> dict[str, float]:
    """First call in a fresh interpreter (imports, init, call); moto's own import and the
    table's creation excluded. Each interpreter gets a database of its own."""
    from tests.dynamodb_local import dynamodb_env

    env = {**os.environ, **ENV}
    results: dict[str, list[float]] = {"direct": [], "via router": []}
    for _ in range(runs):
        for name, through_router in (("direct", False), ("via router", True)):
            with dynamodb_env() as local:
                code = COLD_PROBE.format(
                    root=str(ROOT),
                    benchmarks=str(ROOT / "benchmarks"),
                    through_router=through_router,
                    local=json.dumps(local),
                )
                out = subprocess.run(
                    [sys.executable, "-c", code],
                    capture_output=True,
                    text=True,
                    env=env,
                    check=True,
                )
            results[name].append(float(out.stdout.split()[-1]) * 1000)
    return {name: statistics.median(values) for name, values in results.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--cold-runs", type=int, default=5)
    args = parser.parse_args()
    os.environ.update(ENV)
    sys.path.insert(0, str(ROOT))  # tests.dynamodb_local
    from tests.dynamodb_local import stop

    try:
        hot = warm(args.calls)
        first = cold(args.cold_runs) if args.cold_runs else None
    finally:
        stop()
    print(f"{TOOL}, 1 ID, DynamoDB Local; medians (warm: {args.calls} calls)")
    print(f"warm  direct to the tool function   {hot['direct']:7.2f} ms")
    print(f"warm  through the router            {hot['via router']:7.2f} ms")
    print(f"warm  hop (difference)              {hot['via router'] - hot['direct']:7.2f} ms")
    print(f"warm  router's own path (stub tool) {hot['router only']:7.2f} ms")
    if first is not None:
        print(f"cold  direct: first call            {first['direct']:7.0f} ms")
        print(f"cold  through the router: first call {first['via router']:6.0f} ms")
        hop = first["via router"] - first["direct"]
        print(f"cold  hop (difference)              {hop:7.0f} ms")


if __name__ == "__main__":
    main()
