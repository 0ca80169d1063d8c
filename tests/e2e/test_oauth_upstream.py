"""`brain serve` in front of an upstream OpenID Connect provider (as Cognito on AWS), played
by the maintained mock `oidc-provider-mock`: the MCP SDK's OAuth client registers by DCR
(the way ChatGPT does), the user signs in at the provider, Brain verifies its ID token and
maps its claims (tenant, nutzer, teams) through the claim mapping into the access token."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urljoin

import httpx2
import jwt
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from mcp.client.auth import OAuthClientProvider
from mcp.shared.auth import OAuthClientMetadata
from oidc_provider_mock import run_server_in_thread

from tests.e2e.oauth_helpers import form_fields, provider_user
from tests.e2e.test_local_server import serve
from tests.e2e.test_oauth_claude_code import MemoryStorage, loopback_callback

pytestmark = pytest.mark.anyio
ANNA = provider_user("anna-0815", "kern")


async def user_at_the_provider_then_consent(url: str, subject: str) -> str:
    """The browser: Brain's /authorize → the provider's login (choose the subject) → Brain's
    callback → consent (allow). Returns the final redirect to the client."""
    async with httpx2.AsyncClient(follow_redirects=False, timeout=20) as browser:
        answer = await browser.get(url)
        upstream = answer.headers["location"]
        assert "/oauth2/authorize" in upstream, upstream
        page = await browser.get(upstream)
        assert page.status_code == 200 and "Authorize Client" in page.text
        answer = await browser.post(upstream, data={"sub": subject})
        callback = answer.headers["location"]
        assert "/oauth/callback" in callback, callback
        answer = await browser.get(callback)
        consent_url = urljoin(url, answer.headers["location"])
        assert "/oauth/consent" in consent_url, (answer.status_code, answer.text[:300])
        page = await browser.get(consent_url)
        assert "anna@acme.example" in page.text and "teams/kern" in page.text
        fields = form_fields(page.text, "consent")
        chosen = re.findall(r'name="scope" value="([^"]+)"', page.text)
        body = [*fields.items(), ("decision", "allow"), *(("scope", s) for s in chosen)]
        answer = await browser.post(
            urljoin(url, "/oauth/consent"),
            content=urlencode(body),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        location: str = answer.headers["location"]
        await browser.get(location)  # the client's loopback callback
        return location


@pytest.mark.timeout(300)  # a server, a browser or a provider to start
async def test_sign_in_through_the_upstream_provider(tmp_path: Path) -> None:
    with (
        run_server_in_thread(user_claims=[ANNA]) as provider_server,
        loopback_callback() as callback,
    ):
        issuer = f"http://localhost:{provider_server.server_port}"
        env = {
            "BRAIN_OAUTH_UPSTREAM_ISSUER": issuer,
            "BRAIN_OAUTH_UPSTREAM_CLIENT_ID": "brain-test",
            "BRAIN_OAUTH_UPSTREAM_CLIENT_SECRET": "brain-test-secret",
        }
        with serve(tmp_path / "data", env) as server:
            seen: dict[str, Any] = {}

            async def open_browser(url: str) -> None:
                seen["final"] = await user_at_the_provider_then_consent(url, ANNA.sub)

            storage = MemoryStorage()
            oauth = OAuthClientProvider(
                server_url=server.url,
                client_metadata=OAuthClientMetadata(
                    client_name="ChatGPT-like client",
                    redirect_uris=[callback.url],  # type: ignore[list-item]
                    grant_types=["authorization_code", "refresh_token"],
                    response_types=["code"],
                    token_endpoint_auth_method="none",
                ),
                storage=storage,
                redirect_handler=open_browser,
                callback_handler=callback.result,
            )
            async with Client(StreamableHttpTransport(server.url, auth=oauth)) as client:
                stored = await client.call_tool(
                    "remember", {"content": "Über den Anmeldedienst.", "path": "teams/kern/x"}
                )
            assert stored.structured_content["erfolg"] is True
            # The client registered by DCR, not CIMD
            assert storage.client is not None and storage.client.client_id.startswith("brc_")
            assert storage.tokens is not None
            claims = jwt.decode(storage.tokens.access_token, options={"verify_signature": False})
            assert claims["sub"] == "anna-0815" and claims["tenant"] == "acme"
            assert claims["nutzer"] == ["anna"] and claims["teams"] == ["kern"]
            assert claims["aud"] == server.url
            # The upstream ID token named none of Brain's scopes: the default set
            assert set(claims["scope"].split()) == {
                "memory:read",
                "memory:write",
                "brain:read",
                "brain:write",
            }
            assert seen["final"].startswith(callback.url + "?")
