"""How the MCP server reaches the tools: in-process (local server) or one Lambda per tool."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, Protocol

import anyio.to_thread

from shared.auth.principal import Principal
from shared.services.context import ServiceContext


class ToolDispatcher(Protocol):
    async def dispatch(
        self, principal: Principal, tool: str, arguments: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The contract envelope of one tool call."""
        ...


class InProcessDispatcher:
    """Runs the tool in this process, off the event loop (storage calls block)."""

    def __init__(self, context: ServiceContext) -> None:
        # The tools' dispatch (envelope checks, idempotency): loaded by the in-process server
        # only; the router Lambda uses this module's protocol and forwards calls instead.
        from shared.tools.dispatch import call_tool

        self.context = context
        self._call_tool = call_tool

    async def dispatch(
        self, principal: Principal, tool: str, arguments: Mapping[str, Any]
    ) -> dict[str, Any]:
        return await anyio.to_thread.run_sync(
            partial(self._call_tool, self.context, principal, tool, arguments)
        )
