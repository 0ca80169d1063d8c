"""A fresh `brain serve` added the way Claude Code adds a custom connector, with nothing but
its URL: the MCP Python SDK's OAuth client (`OAuthClientProvider`) with Claude Code's client
ID metadata document (`https://claude.ai/oauth/claude-code-client-metadata`, its real shape,
served from a loopback endpoint) and an ephemeral loopback callback, the user's part
(sign-in, consent) in headless Chromium over the DevTools protocol.

discovery (401 → RFC 9728 → RFC 8414) → CIMD → /authorize → sign-in → consent (screenshot,
both languages) → code + state + iss → token → MCP calls → refresh (rotation) → revocation.
The consent page's screenshot is kept in test-artifacts/ (BRAIN_UPDATE_SCREENSHOTS=1 also
writes docs/img/consent-de.png and consent-en.png)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import httpx2
import jwt
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from mcp.client.auth import OAuthClientProvider
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)

from tests.e2e.oauth_helpers import CLAUDE_CODE_CIMD, CLAUDE_CODE_DOCUMENT
from tests.e2e.test_docs_page_browser import ARTIFACTS, ROOT, Page, browser_page
from tests.e2e.test_local_server import serve
from tests.e2e.test_oauth_flow import document_server

pytestmark = pytest.mark.anyio
DOCS_IMG = ROOT / "docs" / "img"


class MemoryStorage:
    """The client's token storage (Claude Code keeps it in the keychain)."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class LoopbackCallback:
    """Claude Code's local callback listener: an ephemeral loopback port, /callback."""

    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}/callback"
        self.received: list[str] = []
        self.arrived = threading.Event()

    async def result(self) -> AuthorizationCodeResult:
        """The authorization response, once the browser arrived (the SDK's callback)."""
        assert await anyio.to_thread.run_sync(self.arrived.wait, 60)
        query = httpx2.URL(self.received[0]).params
        return AuthorizationCodeResult(
            code=query["code"], state=query.get("state"), iss=query.get("iss")
        )


@contextmanager
def loopback_callback() -> Iterator[LoopbackCallback]:
    listener: LoopbackCallback | None = None

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            assert listener is not None
            listener.received.append(self.path)
            listener.arrived.set()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"Authentication complete. You can close this window.")

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    listener = LoopbackCallback(httpd.server_address[1])
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield listener
    finally:
        httpd.shutdown()
        httpd.server_close()


def wait_load(page: Page) -> None:
    while json.loads(page.socket.recv(timeout=60)).get("method") != "Page.loadEventFired":
        pass


def screenshot(page: Page, name: str) -> Path:
    height = page.run(
        "return Math.ceil(document.querySelector('main').getBoundingClientRect().bottom) + 48;"
    )
    clip = {"x": 0, "y": 0, "width": 760, "height": height, "scale": 1}
    shot = page.send("Page.captureScreenshot", format="png", clip=clip)
    data = base64.b64decode(shot["data"])
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = ARTIFACTS / name
    target.write_bytes(data)
    if os.environ.get("BRAIN_UPDATE_SCREENSHOTS") == "1":
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        (DOCS_IMG / name).write_bytes(data)
    return target


def user_signs_in_and_allows(profile: Path, url: str, token: str) -> dict[str, Any]:
    """In Chromium: sign in with the Brain token, read the consent page in English and
    German (screenshots), allow. What the pages showed."""
    with browser_page(profile, url) as page:
        page.send(
            "Emulation.setDeviceMetricsOverride",
            width=760,
            height=1080,
            deviceScaleFactor=1,
            mobile=False,
        )
        login = page.run("return [location.pathname, document.title];")
        assert login[0] == "/oauth/login", login
        page.run(
            "document.querySelector('#token-login textarea').value = " + json.dumps(token) + ";"
            "setTimeout(() => document.querySelector('#token-login').submit(), 0); return 1;"
        )
        wait_load(page)
        shown = page.run(
            "return {path: location.pathname, lang: document.documentElement.lang,"
            " text: document.querySelector('main').innerText,"
            " scopes: [...document.querySelectorAll('input[name=scope]')].map(e => e.value)};"
        )
        english = screenshot(page, "consent-en.png")
        page.run("setTimeout(() => document.querySelector('nav a').click(), 0); return 1;")
        wait_load(page)
        german = page.run("return document.querySelector('main').innerText;")
        screenshot(page, "consent-de.png")
        page.run("setTimeout(() => document.querySelector('#allow').click(), 0); return 1;")
        wait_load(page)
        done = page.run("return document.body.innerText;")
    return {**shown, "german": german, "done": done, "shot": english}


@pytest.mark.timeout(300)  # a server, a browser or a provider to start
async def test_claude_code_adds_a_fresh_brain_serve_by_url_alone(tmp_path: Path) -> None:
    with (
        document_server(CLAUDE_CODE_DOCUMENT) as document_url,
        loopback_callback() as callback,
        serve(
            tmp_path / "data",
            {"BRAIN_OAUTH_CIMD_TEST_DOCUMENTS": json.dumps({CLAUDE_CODE_CIMD: document_url})},
        ) as server,
    ):
        shown: dict[str, Any] = {}

        async def open_browser(authorization_url: str) -> None:
            shown.update(
                await anyio.to_thread.run_sync(
                    user_signs_in_and_allows,
                    tmp_path / "chromium",
                    authorization_url,
                    server.token,
                )
            )

        storage = MemoryStorage()
        provider = OAuthClientProvider(
            server_url=server.url,
            client_metadata=OAuthClientMetadata.model_validate(
                {**CLAUDE_CODE_DOCUMENT, "redirect_uris": [callback.url]}
            ),
            storage=storage,
            redirect_handler=open_browser,
            callback_handler=callback.result,
            client_metadata_url=CLAUDE_CODE_CIMD,
        )
        # When the client connects with nothing but the URL
        async with Client(StreamableHttpTransport(server.url, auth=provider)) as client:
            tools = {tool.name for tool in await client.list_tools()}
            stored = await client.call_tool(
                "remember", {"content": "Claude Code ist verbunden.", "path": "users/dev/oauth"}
            )
            assert stored.structured_content["erfolg"] is True
            refused = await client.call_tool(
                "remember",
                {"content": "x", "path": "projects/neu/x", "create_project": True},
                raise_on_error=False,
            )
            assert storage.tokens is not None
            first = storage.tokens
            # And the access token expires: the client refreshes on its own
            provider.context.token_expiry_time = time.time() - 1
            found = await client.call_tool("search_memory", {"query": "verbunden"})
        # Then the user saw the consent page naming the client, its scopes and areas
        assert shown["path"] == "/oauth/consent" and shown["lang"] == "en"
        assert "Claude Code" in shown["text"] and CLAUDE_CODE_CIMD in shown["text"]
        assert "Metadata document on claude.ai (verified)" in shown["text"]
        assert "users/*" in shown["text"] and "create_project is not allowed" in shown["text"]
        assert sorted(shown["scopes"]) == [
            "brain:read",
            "brain:write",
            "memory:read",
            "memory:write",
        ]
        assert "Zugriff erlauben?" in shown["german"] and "Erlauben" in shown["german"]
        assert "Authentication complete" in shown["done"]
        assert shown["shot"].stat().st_size > 10_000
        # The authorization response carried code, state and the issuer (RFC 9207)
        assert "iss=" in callback.received[0] and "code=" in callback.received[0]
        # The tokens: for the MCP URL as typed, Claude's profile, rotated on refresh
        claims = jwt.decode(first.access_token, options={"verify_signature": False})
        assert claims["aud"] == server.url and claims["client_id"] == CLAUDE_CODE_CIMD
        assert claims["profile"] == "claude"
        assert storage.tokens.access_token != first.access_token
        assert storage.tokens.refresh_token != first.refresh_token
        assert {"remember", "search_memory", "recall"} <= tools
        assert "create_project" in json.dumps(refused.structured_content, ensure_ascii=False)
        assert "verbunden" in json.dumps(found.structured_content, ensure_ascii=False)
        base = server.url.removesuffix("/mcp")
        async with httpx2.AsyncClient(base_url=base) as http:
            # The spent refresh token is refused, and reusing it ended the connection
            spent = await http.post(
                "/token",
                data={
                    "grant_type": "refresh_token",
                    "client_id": CLAUDE_CODE_CIMD,
                    "refresh_token": first.refresh_token,
                },
            )
            assert spent.status_code == 400 and spent.json()["error"] == "invalid_grant"
            listed = await http.get(
                "/api/oauth/connections", headers={"Authorization": f"Bearer {server.token}"}
            )
            assert listed.json() == {"verbindungen": []}
