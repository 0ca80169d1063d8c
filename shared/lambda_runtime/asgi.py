"""An ASGI app as a Lambda handler, its lifespan started once per execution environment.

Mangum runs the ASGI lifespan (startup and shutdown) around every single invocation. For the
fastmcp app that means starting and stopping the stateless session manager and its task group
on every request: about a third of the router's own warm path (benchmarks/router_hop.py).
`LambdaAsgi` keeps Mangum's event translation but enters the lifespan once, when it is built
(in the init phase, so it is part of the SnapStart snapshot), and reuses the event loop Mangum
runs every invocation on.
"""

from __future__ import annotations

from typing import Any

from mangum import Mangum
from mangum.protocols.http import HTTPCycle
from mangum.protocols.lifespan import LifespanCycle


class LambdaAsgi:
    def __init__(self, app: Any, api_gateway_base_path: str = "/") -> None:
        self.app = app
        self.adapter = Mangum(app, lifespan="off", api_gateway_base_path=api_gateway_base_path)
        # "on": an app whose startup fails must fail the init, not answer requests half-built.
        self.lifespan = LifespanCycle(app, "on")
        self.lifespan.__enter__()

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        handler = self.adapter.infer(event, context)
        scope = handler.scope  # built anew on every access
        scope["state"] = self.lifespan.lifespan_state.copy()
        response = HTTPCycle(scope, handler.body)(self.app)
        result: dict[str, Any] = handler(response)
        return result

    def close(self) -> None:
        """Run the app's shutdown (tests; Lambda simply freezes or ends the environment)."""
        self.lifespan.__exit__(None, None, None)
