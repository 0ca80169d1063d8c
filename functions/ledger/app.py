"""Lambda handler of the `ledger` tool (the code lives in the core layer)."""

from shared.lambda_runtime.tool_handler import make_tool_handler

handler = make_tool_handler("ledger")
