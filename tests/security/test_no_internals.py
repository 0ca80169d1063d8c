"""Unexpected exceptions (issue 11): answered without their text (fastmcp's
mask_error_details), logged by type only."""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping
from typing import Any

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from shared.auth.principal import Principal
from shared.config import Settings
from shared.logs import JsonFormatter, configure_logging
from shared.server.app import build_app
from tests.conftest import InProcessServer
from tests.security.conftest import Tokens
from tests.security.test_tokens import ACCEPT, tool_call

pytestmark = pytest.mark.anyio
INTERNALS = "interne Details: /srv/brain.sqlite3 Zeile 42"


class ExplodingDispatcher:
    async def dispatch(
        self, principal: Principal, tool: str, arguments: Mapping[str, Any]
    ) -> dict[str, Any]:
        raise RuntimeError(INTERNALS)


async def test_an_unexpected_exception_is_answered_without_its_text(
    settings: Settings, issuer: LocalTokenIssuer
) -> None:
    # Given a server whose tool layer fails unexpectedly
    app = build_app(ExplodingDispatcher(), issuer, settings)
    headers = {"Authorization": f"Bearer {Tokens(issuer).make()}", "Accept": ACCEPT}
    lifespan = app.router.lifespan_context(app)  # type: ignore[attr-defined]
    async with lifespan, InProcessServer(app).http() as http:
        response = await http.post(
            "/mcp", json=tool_call("recall", {"query": "x"}), headers=headers
        )
    # Then the client gets a tool error without the exception's text, and no 5xx
    assert response.status_code == 200
    assert response.json()["result"]["isError"] is True
    assert INTERNALS not in response.text
    assert "RuntimeError" not in response.text


def test_mcp_layer_logs_exceptions_by_type_only() -> None:
    # Given the service's logging
    configure_logging("INFO")
    # When the MCP layer logs an exception
    handler = logging.getLogger("fastmcp").handlers[0]
    record = logging.LogRecord("fastmcp", logging.ERROR, __file__, 1, "Error", (), None)
    try:
        raise RuntimeError(INTERNALS)
    except RuntimeError:
        record.exc_info = sys.exc_info()
    line = handler.format(record)
    # Then the line names the type, never the text
    assert isinstance(handler.formatter, JsonFormatter)
    assert '"exception": "RuntimeError"' in line
    assert INTERNALS not in line
