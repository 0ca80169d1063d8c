"""Signing in to the console with a Brain account (OAuth, client `brain-console`, PKCE S256)
through the real apps in-process: `brain serve`'s app (console, REST API and authorization
server in one), and the AWS shape — the REST function and the OAuth function as two apps
behind one HTTP API. A browser with a cookie jar follows the redirects and fills the login
form as a person would (tests/e2e/oauth_helpers.py); the headless-Chromium run of the same
flow is test_console_oauth_browser.py.

Refusals: a callback with another state, without or with another `iss`, with an error, a
second use, and a code whose PKCE challenge is another session's — none signs anyone in."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx2
import pytest
from starlette.applications import Starlette
from starlette.requests import Request

from shared.auth.local_tokens import LocalTokenIssuer, load_or_create_key
from shared.auth.oauth.login import new_user
from shared.auth.oauth.records import LocalUser
from shared.auth.oauth.routes import oauth_routes
from shared.auth.principal import ALL_SCOPES
from shared.cli_oauth import serving_auth
from shared.config import Settings
from shared.console.oauth_client import ENDPOINT_STATE, GatewayEndpoint
from shared.console.session import COOKIE, KEY_FILE, Session, SessionCipher
from shared.rest.app import build_rest_app
from shared.services.context import ServiceContext
from shared.storage.sqlite import SqliteStorage
from tests.conftest import BASE_URL
from tests.e2e.oauth_helpers import browser_authorize, query_of
from tests.e2e.test_oauth_flow import OAuthApp, oauth_app

pytestmark = pytest.mark.anyio
PASSWORD = "rueckruf-vormittags-42"
AWS_ROOT = "https://brain.example"


def alice() -> LocalUser:
    """The local user of `brain user add alice` (all scopes, nutzer alice)."""
    return new_user(
        "alice", PASSWORD, tenant="local", nutzer=["alice"], agents=["*"], scopes=ALL_SCOPES
    )


@pytest.fixture
async def running(settings: Settings, sqlite_storage: SqliteStorage) -> AsyncIterator[OAuthApp]:
    async with oauth_app(settings, sqlite_storage) as app:
        app.oauth.state.put_user(alice())
        yield app


def alice_token(data_dir: Path) -> str:
    """Alice's own token (as `brain token` would mint it), to store a memory over REST."""
    issuer = LocalTokenIssuer(load_or_create_key(data_dir))
    return issuer.issue(
        tenant="local",
        subject="local:alice",
        nutzer=["alice"],
        agents=["support-bot"],
        scopes=("memory:read", "memory:write"),
        ttl_seconds=600,
    )


def browser(app: Any, base: str = BASE_URL) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=base)


def session_of(http: httpx2.AsyncClient, settings: Settings) -> Session | None:
    cipher = SessionCipher(load_or_create_key(settings.data_dir, KEY_FILE))
    return cipher.open(http.cookies.get(COOKIE))


def set_session(http: httpx2.AsyncClient, settings: Settings, session: Session) -> None:
    cipher = SessionCipher(load_or_create_key(settings.data_dir, KEY_FILE))
    host = urlsplit(str(http.base_url)).hostname or ""
    http.cookies.set(COOKIE, cipher.seal(session), domain=host, path="/console/")


async def start_flow(http: httpx2.AsyncClient) -> str:
    """From the sign-in page's account link to the authorization server's login."""
    page = await http.get("/console/anmelden")
    link = re.search(r'id="konto-anmelden" href="([^"]+)"', page.text)
    assert link is not None, page.text[:800]
    started = await http.get(link.group(1).replace("&amp;", "&"))
    assert started.status_code == 303
    return started.headers["location"]


async def callback_url(http: httpx2.AsyncClient) -> str:
    """The console's callback with code, state and iss, as the server redirects the browser."""
    authorize = await start_flow(http)
    params = query_of(authorize)
    assert params["client_id"] == ["brain-console"]
    assert params["code_challenge_method"] == ["S256"]
    assert params["redirect_uri"] == [f"{BASE_URL}/console/callback"]
    assert params["resource"] == [f"{BASE_URL}/api"]
    path = authorize.removeprefix(BASE_URL)
    location = await browser_authorize(http, path, password=("alice", PASSWORD))
    assert location.startswith(f"{BASE_URL}/console/callback?"), location
    return location


async def test_signing_in_with_an_account_searches_renews_and_signs_out(
    running: OAuthApp, settings: Settings
) -> None:
    async with browser(running.server.app) as http:
        stored = await http.post(
            "/api/memory",
            json={"kurzbeschreibung": "Rückruf vormittags", "memory": "Kundin ruft vormittags."},
            headers={"Authorization": f"Bearer {alice_token(settings.data_dir)}"},
        )
        assert stored.status_code == 201, stored.text
        # When alice signs in with her account (no consent page: the console is first party)
        location = await callback_url(http)
        landed = await http.get(location.removeprefix(BASE_URL))
        assert landed.status_code == 303, landed.text
        # Then she is signed in as herself, and a search finds her memory
        found = await http.get("/console/suche", params={"q": "vormittags"})
        assert found.status_code == 200
        assert "Rückruf vormittags" in found.text and "alice" in found.text
        session = session_of(http, settings)
        assert session is not None and session.nutzer == "alice" and session.refresh
        assert session.token is not None and session.token not in found.text
        assert session.oauth == {}
        # When the access token is no longer accepted (expired), the next page renews it
        # with the refresh token, which rotates
        set_session(http, settings, replace(session, token="abgelaufen." + "x" * 40))
        again = await http.get("/console/suche", params={"q": "vormittags"})
        assert again.status_code == 200 and "Rückruf vormittags" in again.text
        renewed = session_of(http, settings)
        assert renewed is not None and renewed.refresh and renewed.refresh != session.refresh
        assert renewed.token not in (session.token, "abgelaufen." + "x" * 40)
        # When she signs out, the connection ends at the authorization server too
        csrf = re.search(r'name="csrf" value="([^"]+)"', again.text)
        assert csrf is not None
        out = await http.post(
            "/console/abmelden", data={"csrf": csrf.group(1)}, headers={"Origin": BASE_URL}
        )
        assert out.status_code == 303
        assert running.oauth.state.all_grants(int(time.time())) == []
        refused = await http.post(
            "/token",
            data={
                "grant_type": "refresh_token",
                "refresh_token": renewed.refresh,
                "client_id": "brain-console",
            },
        )
        assert refused.status_code == 400
        assert (await http.get("/console/suche")).status_code == 303


async def refused_callback(http: httpx2.AsyncClient, location: str) -> None:
    answer = await http.get(location.removeprefix(BASE_URL))
    assert answer.status_code == 400, answer.text[:300]
    assert "Die Anmeldung mit dem Brain-Konto hat nicht geklappt" in answer.text
    assert (await http.get("/console/suche")).status_code == 303  # not signed in


def altered(location: str, **params: str) -> str:
    query = {k: v[0] for k, v in query_of(location).items()} | params
    query = {k: v for k, v in query.items() if v != ""}
    return f"{BASE_URL}/console/callback?{urlencode(query)}"


@pytest.mark.parametrize(
    "change",
    [{"state": "fremd"}, {"iss": "http://evil.example"}, {"iss": ""}, {"error": "access_denied"}],
    ids=["other-state", "other-iss", "no-iss", "error"],
)
async def test_a_callback_that_is_not_this_sessions_signs_nobody_in(
    running: OAuthApp, change: dict[str, str]
) -> None:
    async with browser(running.server.app) as http:
        location = await callback_url(http)
        await refused_callback(http, altered(location, **change))
        # The pending sign-in was used up: even the right callback now is refused
        await refused_callback(http, location)


async def test_a_code_of_another_session_fails_its_pkce_check(running: OAuthApp) -> None:
    async with browser(running.server.app) as mallory, browser(running.server.app) as victim:
        # Given a code issued to one session's flow (its PKCE challenge)
        stolen = await callback_url(mallory)
        # When another session that started its own flow receives that code with its state
        own = query_of(await start_flow(victim))
        forged = altered(stolen, state=own["state"][0])
        # Then the token endpoint refuses the exchange (verifier ≠ challenge): nobody signed in
        await refused_callback(victim, forged)
    async with browser(running.server.app) as http:
        await refused_callback(http, f"{BASE_URL}/console/callback?code=x&state=y")


class Gateway(httpx2.AsyncBaseTransport):
    """API Gateway's routing of one HTTP API: OAuth paths to the OAuth function's app, the
    rest to the REST function's app; records every URL the REST function calls itself."""

    def __init__(self, rest: Any, oauth: Any) -> None:
        self.rest = httpx2.ASGITransport(app=rest)
        self.oauth = httpx2.ASGITransport(app=oauth)
        self.calls: list[str] = []

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        path = request.url.path
        if path in ("/token", "/revoke", "/authorize") or path.startswith("/oauth/"):
            return await self.oauth.handle_async_request(request)
        return await self.rest.handle_async_request(request)


class Recording(httpx2.AsyncBaseTransport):
    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        self.gateway.calls.append(str(request.url))
        return await self.gateway.handle_async_request(request)


async def test_on_aws_the_rest_function_signs_in_at_the_oauth_function(
    settings: Settings, sqlite_storage: SqliteStorage
) -> None:
    # Given the REST function's app and the OAuth function's app as two apps behind one API
    issuer = LocalTokenIssuer(load_or_create_key(settings.data_dir), settings.claim_mapping)
    resolver, oauth = serving_auth(settings, issuer, bootstrap=False)
    assert oauth is not None
    oauth.state.put_user(alice())
    rest = build_rest_app(ServiceContext(sqlite_storage, settings), resolver)
    gateway = Gateway(rest, Starlette(routes=oauth_routes(oauth)))
    setattr(rest.state, ENDPOINT_STATE, GatewayEndpoint(Recording(gateway)))
    try:
        async with httpx2.AsyncClient(transport=gateway, base_url=AWS_ROOT) as http:
            authorize = await start_flow(http)
            assert authorize.startswith(f"{AWS_ROOT}/authorize?")
            location = await browser_authorize(
                http, authorize.removeprefix(AWS_ROOT), password=("alice", PASSWORD)
            )
            # Then the code is exchanged at this API's own /token (from Host, over HTTPS)
            landed = await http.get(location.removeprefix(AWS_ROOT))
            assert landed.status_code == 303, landed.text
            assert gateway.calls == [f"{AWS_ROOT}/token"]
            assert (await http.get("/console/suche", params={"q": "x"})).status_code == 200
    finally:
        oauth.close()


def request_with(headers: dict[str, str]) -> Request:
    scope = {
        "type": "http",
        "method": "GET",
        "scheme": "https",
        "path": "/console/callback",
        "root_path": "",
        "query_string": b"",
        "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
        "app": Starlette(),
    }
    return Request(scope)


def test_the_token_endpoint_is_the_host_api_gateway_routed_by_never_a_forwarded_one() -> None:
    forwarded = {"host": "brain.example", "x-forwarded-host": "169.254.169.254"}
    assert GatewayEndpoint.root(request_with(forwarded)) == AWS_ROOT
    assert GatewayEndpoint.root(request_with({"host": "evil.example/@x"})) is None
    assert GatewayEndpoint.root(request_with({})) is None
