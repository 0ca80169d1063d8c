"""Lambda handler of the MCP router (the code lives in the core layer)."""

from shared.lambda_runtime.router import handler

__all__ = ["handler"]
