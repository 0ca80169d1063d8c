"""Logs name the subject and tenant of a call, never its token or the memory text."""

from __future__ import annotations

import logging

import pytest

from tests.conftest import InProcessServer
from tests.e2e.helpers import call, insert_args, memory_entry
from tests.security.conftest import Tokens
from tests.security.test_tokens import ACCEPT, tool_call

pytestmark = pytest.mark.anyio

CLIENT_LOGGERS = ("mcp.client", "fastmcp.client", "httpx", "httpcore")
SECRET_TEXT = "Die Tresorkombination lautet 4711-0815"


async def test_logs_carry_identity_but_no_token_or_text(
    secure_server: InProcessServer, tokens: Tokens, caplog: pytest.LogCaptureFixture
) -> None:
    token = tokens.make(nutzer=("anna",))
    caplog.set_level(logging.DEBUG)
    # When a good call and a call with a broken token are made
    async with secure_server.client(token) as client:
        envelope = await call(
            client,
            "insert_brain_longterm_memory",
            insert_args(
                memory_entry(nutzer="anna", agent="bot", memory=SECRET_TEXT),
                nutzer="anna",
                agent="bot",
            ),
        )
        assert envelope["erfolg"] is True
    async with secure_server.http() as http:
        refused = await http.post(
            "/mcp",
            json=tool_call("fetch_brain_memories", {}),
            headers={"Authorization": f"Bearer {token}x", "Accept": ACCEPT},
        )
        assert refused.status_code == 401
    # Then the tool call is logged with tenant and subject
    tool_records = [r for r in caplog.records if r.name == "brain.tools"]
    assert tool_records, "the tool call must be logged"
    assert tool_records[0].__dict__["tenant"] == "acme"
    assert tool_records[0].__dict__["subject"] == "acme:anna"
    # And no server log line at any level contains the token or the memory text
    # (the test's own MCP client logs its requests at DEBUG: it is not the server)
    server_records = [r for r in caplog.records if not r.name.startswith(CLIENT_LOGGERS)]
    assert server_records
    for record in server_records:
        line = record.getMessage() + " " + " ".join(str(v) for v in record.__dict__.values())
        assert token not in line
        assert "4711-0815" not in line
