"""How the MCP server reaches the tools: in-process (local server) or one Lambda per tool."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, Protocol

import anyio.to_thread

from shared.auth.principal import Principal
from shared.services.context import ServiceContext
from shared.tools.dispatch import call_tool


class ToolDispatcher(Protocol):
    async def dispatch(
        self, principal: Principal, tool: str, arguments: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The contract envelope of one tool call."""
        ...


class InProcessDispatcher:
    """Runs the tool in this process, off the event loop (storage calls block)."""

    def __init__(self, context: ServiceContext) -> None:
        self.context = context

    async def dispatch(
        self, principal: Principal, tool: str, arguments: Mapping[str, Any]
    ) -> dict[str, Any]:
        return await anyio.to_thread.run_sync(
            partial(call_tool, self.context, principal, tool, arguments)
        )
