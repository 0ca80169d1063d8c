"""Lambda handler of the `fetch_brain_memories` tool (the code lives in the core layer)."""

from shared.lambda_runtime.tool_handler import make_tool_handler

handler = make_tool_handler("fetch_brain_memories")
