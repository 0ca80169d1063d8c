"""The router's own path: the ASGI lifespan runs once per environment (not around every
invocation, as Mangum does), and the Lambda client is built once, not per call."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from shared.lambda_runtime.asgi import LambdaAsgi
from shared.lambda_runtime.router import BotoInvoker

EVENT = json.loads((Path(__file__).resolve().parents[2] / "events" / "mcp_router.json").read_text())


class CountingApp:
    """An ASGI app that counts lifespan startups and shutdowns and echoes its state."""

    def __init__(self) -> None:
        self.startups = 0
        self.shutdowns = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    self.startups += 1
                    scope["state"]["started"] = self.startups
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    self.shutdowns += 1
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = json.dumps({"started": scope["state"]["started"], "path": scope["path"]})
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body.encode()})


def test_lifespan_starts_once_for_many_invocations() -> None:
    # Given an app under the Lambda adapter (built in the init phase)
    app = CountingApp()
    handler = LambdaAsgi(app)
    assert app.startups == 1
    # When three invocations arrive
    answers = [handler(copy.deepcopy(EVENT), None) for _ in range(3)]
    # Then each was answered with the lifespan state, and the app started only once
    assert [a["statusCode"] for a in answers] == [200, 200, 200]
    assert [json.loads(a["body"]) for a in answers] == [{"started": 1, "path": "/mcp"}] * 3
    assert (app.startups, app.shutdowns) == (1, 0)
    # And closing runs the shutdown once
    handler.close()
    assert app.shutdowns == 1


class FakeLambdaClient:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def invoke(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(kwargs["FunctionName"])

        class Payload:
            def read(self) -> bytes:
                return b'{"erfolg": true}'

        return {"Payload": Payload()}


def test_invoker_builds_its_client_once_for_many_calls() -> None:
    # Given the router's invoker with a counting client factory
    built: list[FakeLambdaClient] = []

    def factory() -> FakeLambdaClient:
        built.append(FakeLambdaClient())
        return built[-1]

    invoker = BotoInvoker(factory)
    # When it invokes three times
    for _ in range(3):
        assert invoker.invoke("arn:f:live", b"{}").payload == b'{"erfolg": true}'
    # Then one client served all three, and only renew (SnapStart restore) builds another
    assert len(built) == 1 and built[0].calls == ["arn:f:live"] * 3
    invoker.renew()
    assert len(built) == 2
