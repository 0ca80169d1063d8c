"""Brain's authorization server through the real ASGI app (MCP endpoint, REST API, OAuth
routes, Host checks) in-process: the authorization code flow as Claude's and ChatGPT's
connectors run it, and every refusal the spec asks for."""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx2
import jwt
import pytest

from shared.auth.local_tokens import LocalTokenIssuer, load_or_create_key
from shared.auth.oauth.factory import signing_key
from shared.auth.oauth.login import new_user
from shared.auth.oauth.records import GrantRecord, Identity
from shared.auth.oauth.server import OAuthServer
from shared.auth.oauth.tokens import AccessTokenSigner
from shared.cli_oauth import serving_auth
from shared.config import Settings
from shared.server.app import build_app
from shared.services.context import ServiceContext
from shared.storage.sqlite import SqliteStorage
from tests.conftest import BASE_URL, InProcessServer
from tests.e2e.oauth_helpers import (
    CHATGPT_CALLBACK,
    CLAUDE_AI_CALLBACK,
    CLAUDE_CODE_CIMD,
    CLAUDE_CODE_DOCUMENT,
    Pkce,
    authorize_url,
    browser_authorize,
    exchange,
    form_fields,
    query_of,
    refresh,
    register,
)

pytestmark = pytest.mark.anyio
MCP_URL = f"{BASE_URL}/mcp"


@contextmanager
def document_server(document: dict[str, Any]) -> Iterator[str]:
    """A loopback HTTP server answering the client metadata document at /metadata."""
    body = json.dumps(document).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200 if self.path == "/metadata" else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Cache-Control", "max-age=600")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/metadata"
    finally:
        httpd.shutdown()
        httpd.server_close()


@dataclasses.dataclass
class OAuthApp:
    server: InProcessServer
    oauth: OAuthServer
    dev_token: str

    def http(self) -> httpx2.AsyncClient:
        return self.server.http()


@asynccontextmanager
async def oauth_app(settings: Settings, storage: SqliteStorage) -> AsyncIterator[OAuthApp]:
    issuer = LocalTokenIssuer(load_or_create_key(settings.data_dir), settings.claim_mapping)
    resolver, oauth = serving_auth(settings, issuer, bootstrap=False)
    assert oauth is not None
    app = build_app(ServiceContext(storage, settings), resolver, settings, oauth=oauth)
    async with app.router.lifespan_context(app):  # type: ignore[attr-defined]
        yield OAuthApp(InProcessServer(app), oauth, issuer.development_token(3600))
    oauth.close()


@pytest.fixture
async def running(settings: Settings, sqlite_storage: SqliteStorage) -> AsyncIterator[OAuthApp]:
    async with oauth_app(settings, sqlite_storage) as app:
        yield app


async def connect(
    app: OAuthApp, redirect: str = CLAUDE_AI_CALLBACK, **extra: str
) -> dict[str, Any]:
    """Register by DCR, authorize with the dev token, exchange: the token response."""
    async with app.http() as http:
        client_id = await register(http, [redirect])
        pkce = Pkce.new()
        location = await browser_authorize(
            http,
            authorize_url(BASE_URL, client_id, redirect, pkce, resource=MCP_URL, **extra),
            token=app.dev_token,
        )
        code = query_of(location)["code"][0]
        answer = await exchange(http, client_id, code, redirect, pkce.verifier, resource=MCP_URL)
        assert answer.status_code == 200, answer.text
        return {"client_id": client_id, **answer.json()}


def claims_of(token: str) -> dict[str, Any]:
    return jwt.decode(token, options={"verify_signature": False})


async def test_metadata_advertises_what_claude_and_chatgpt_need(running: OAuthApp) -> None:
    async with running.http() as http:
        resource = (await http.get("/.well-known/oauth-protected-resource/mcp")).json()
        metadata = (await http.get("/.well-known/oauth-authorization-server")).json()
    # The resource is the MCP URL exactly, its authorization server this server itself
    assert resource["resource"] == MCP_URL
    assert resource["authorization_servers"] == [BASE_URL]
    assert metadata["issuer"] == BASE_URL
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert metadata["client_id_metadata_document_supported"] is True
    assert "none" in metadata["token_endpoint_auth_methods_supported"]
    assert metadata["authorization_response_iss_parameter_supported"] is True
    for endpoint in ("authorization", "token", "registration", "revocation"):
        assert metadata[f"{endpoint}_endpoint"].startswith(BASE_URL + "/")


async def test_claude_connector_flow_issues_audience_bound_tokens_that_refresh(
    running: OAuthApp,
) -> None:
    tokens = await connect(running)
    # The access token: for the MCP URL, short-lived, Brain's identity, Claude's profile
    claims = claims_of(tokens["access_token"])
    assert claims["aud"] == MCP_URL and claims["iss"] == BASE_URL
    assert claims["exp"] - claims["iat"] == 900 and tokens["expires_in"] == 900
    assert claims["tenant"] == "local" and claims["nutzer"] == ["*"]
    assert claims["profile"] == "claude"
    assert set(tokens["scope"].split()) == {
        "memory:read",
        "memory:write",
        "brain:read",
        "brain:write",
    }
    # It works on the MCP endpoint, and the plugin profile refuses create_project (seed 004)
    async with running.server.client(tokens["access_token"]) as client:
        result = await client.call_tool(
            "remember",
            {"content": "OAuth works", "path": "projects/neu/notes", "create_project": True},
            raise_on_error=False,
        )
        assert "create_project" in json.dumps(result.structured_content, ensure_ascii=False)
        stored = await client.call_tool(
            "remember", {"content": "OAuth verbindet Claude.", "path": "users/dev/oauth"}
        )
        assert stored.structured_content["erfolg"] is True
    async with running.http() as http:
        # Refresh rotates: a new pair, the old refresh token is spent
        renewed = await refresh(http, tokens["client_id"], tokens["refresh_token"])
        assert renewed.status_code == 200, renewed.text
        fresh = renewed.json()
        assert fresh["refresh_token"] != tokens["refresh_token"]
        assert fresh["access_token"] != tokens["access_token"]
        reused = await refresh(http, tokens["client_id"], tokens["refresh_token"])
        assert reused.status_code == 400 and reused.json()["error"] == "invalid_grant"
        # Reuse revokes the connection: the newer refresh token is dead too
        after = await refresh(http, tokens["client_id"], fresh["refresh_token"])
        assert after.json()["error"] == "invalid_grant"


async def test_authorization_response_carries_code_state_and_iss(running: OAuthApp) -> None:
    async with running.http() as http:
        client_id = await register(http, [CLAUDE_AI_CALLBACK])
        location = await browser_authorize(
            http,
            authorize_url(BASE_URL, client_id, CLAUDE_AI_CALLBACK, Pkce.new()),
            token=running.dev_token,
        )
    assert location.startswith(CLAUDE_AI_CALLBACK + "?")
    query = query_of(location)
    assert query["state"] == ["st-1"] and query["iss"] == [BASE_URL] and len(query["code"]) == 1


async def test_a_reused_code_is_invalid_grant_and_ends_the_connection(running: OAuthApp) -> None:
    async with running.http() as http:
        client_id = await register(http, [CLAUDE_AI_CALLBACK])
        pkce = Pkce.new()
        location = await browser_authorize(
            http,
            authorize_url(BASE_URL, client_id, CLAUDE_AI_CALLBACK, pkce),
            token=running.dev_token,
        )
        code = query_of(location)["code"][0]
        first = await exchange(http, client_id, code, CLAUDE_AI_CALLBACK, pkce.verifier)
        second = await exchange(http, client_id, code, CLAUDE_AI_CALLBACK, pkce.verifier)
        assert first.status_code == 200
        assert second.status_code == 400 and second.json()["error"] == "invalid_grant"
        # The tokens the code produced are revoked with it
        again = await refresh(http, client_id, first.json()["refresh_token"])
        assert again.json()["error"] == "invalid_grant"


async def test_pkce_is_required_and_checked(running: OAuthApp) -> None:
    async with running.http() as http:
        client_id = await register(http, [CLAUDE_AI_CALLBACK])
        # Missing PKCE: the client is told by redirect (invalid_request), with state and iss
        missing = await http.get(authorize_url(BASE_URL, client_id, CLAUDE_AI_CALLBACK, None))
        query = query_of(missing.headers["location"])
        assert query["error"] == ["invalid_request"] and query["iss"] == [BASE_URL]
        assert "PKCE" in query["error_description"][0]
        plain = await http.get(
            authorize_url(
                BASE_URL,
                client_id,
                CLAUDE_AI_CALLBACK,
                None,
                code_challenge="x" * 43,
                code_challenge_method="plain",
            )
        )
        assert query_of(plain.headers["location"])["error"] == ["invalid_request"]
        # A wrong verifier at the token endpoint is invalid_grant
        pkce = Pkce.new()
        location = await browser_authorize(
            http,
            authorize_url(BASE_URL, client_id, CLAUDE_AI_CALLBACK, pkce),
            token=running.dev_token,
        )
        code = query_of(location)["code"][0]
        wrong = await exchange(http, client_id, code, CLAUDE_AI_CALLBACK, Pkce.new().verifier)
        assert wrong.json()["error"] == "invalid_grant"


async def test_a_foreign_redirect_uri_gets_an_error_page_never_a_redirect(
    running: OAuthApp,
) -> None:
    async with running.http() as http:
        client_id = await register(http, [CLAUDE_AI_CALLBACK])
        foreign = "https://evil.example/callback"
        answer = await http.get(authorize_url(BASE_URL, client_id, foreign, Pkce.new()))
        assert answer.status_code == 400 and "location" not in answer.headers
        assert "redirect_uri" in answer.text and "evil.example" not in answer.text
        # Registration refuses what may never be a redirect (plain http off loopback)
        refused = await http.post("/register", json={"redirect_uris": ["http://evil.example/cb"]})
        assert refused.status_code == 400 and refused.json()["error"] == "invalid_redirect_uri"


async def test_tokens_for_another_audience_are_refused(
    running: OAuthApp, settings: Settings
) -> None:
    async with running.http() as http:
        client_id = await register(http, [CLAUDE_AI_CALLBACK])
        # A resource that is not this server's is refused at /authorize (RFC 8707)
        answer = await http.get(
            authorize_url(
                BASE_URL,
                client_id,
                CLAUDE_AI_CALLBACK,
                Pkce.new(),
                resource="https://other.example/mcp",
            )
        )
        assert query_of(answer.headers["location"])["error"] == ["invalid_target"]
    # A token signed by this server's key but for another audience is refused at /mcp
    tokens = await connect(running)
    grant = running.oauth.state.list_grants("local", "dev", running.oauth.service.now())[0]
    foreign = dataclasses.replace(grant, resource="https://other.example/mcp")
    key = signing_key(settings)
    forged = AccessTokenSigner(key, settings.claim_mapping).issue(foreign, 300)
    async with running.http() as http:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        headers = {"Accept": "application/json, text/event-stream"}
        denied = await http.post(
            "/mcp", json=body, headers={**headers, "Authorization": f"Bearer {forged}"}
        )
        allowed = await http.post(
            "/mcp",
            json=body,
            headers={**headers, "Authorization": f"Bearer {tokens['access_token']}"},
        )
    assert (
        denied.status_code == 401 and 'error="invalid_token"' in denied.headers["www-authenticate"]
    )
    assert allowed.status_code == 200


async def test_an_expired_refresh_token_is_invalid_grant(running: OAuthApp) -> None:
    tokens = await connect(running)
    service = running.oauth.service
    later = service.now() + 31 * 24 * 3600
    service.clock = lambda: later
    async with running.http() as http:
        answer = await refresh(http, tokens["client_id"], tokens["refresh_token"])
    assert answer.status_code == 400 and answer.json()["error"] == "invalid_grant"


async def test_a_deleted_client_is_invalid_client_401(running: OAuthApp) -> None:
    tokens = await connect(running)
    running.oauth.state.delete_client(tokens["client_id"])
    async with running.http() as http:
        answer = await refresh(http, tokens["client_id"], tokens["refresh_token"])
    assert answer.status_code == 401 and answer.json()["error"] == "invalid_client"


async def test_consent_denied_returns_access_denied(running: OAuthApp) -> None:
    async with running.http() as http:
        client_id = await register(http, [CHATGPT_CALLBACK])
        location = await browser_authorize(
            http,
            authorize_url(BASE_URL, client_id, CHATGPT_CALLBACK, Pkce.new()),
            token=running.dev_token,
            decision="deny",
        )
    query = query_of(location)
    assert query["error"] == ["access_denied"] and query["state"] == ["st-1"]
    assert "code" not in query


async def test_chatgpt_redirect_gives_the_chatgpt_profile_and_unknown_scopes_are_ignored(
    running: OAuthApp,
) -> None:
    # ChatGPT sometimes asks for no scope, Claude for `claudeai`: all of Brain's are offered
    tokens = await connect(running, redirect=CHATGPT_CALLBACK, scope="claudeai")
    assert claims_of(tokens["access_token"])["profile"] == "chatgpt"
    assert len(tokens["scope"].split()) == 4


async def test_chosen_scopes_narrow_the_token(running: OAuthApp) -> None:
    async with running.http() as http:
        client_id = await register(http, [CLAUDE_AI_CALLBACK])
        pkce = Pkce.new()
        location = await browser_authorize(
            http,
            authorize_url(BASE_URL, client_id, CLAUDE_AI_CALLBACK, pkce),
            token=running.dev_token,
            scopes=["memory:read"],
        )
        answer = await exchange(
            http, client_id, query_of(location)["code"][0], CLAUDE_AI_CALLBACK, pkce.verifier
        )
    tokens = answer.json()
    assert tokens["scope"] == "memory:read"
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "remember", "arguments": {"content": "nein", "path": "users/dev/x"}},
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "Authorization": f"Bearer {tokens['access_token']}",
    }
    async with running.http() as http:
        answer = await http.post("/mcp", json=call, headers=headers)
    assert (
        answer.status_code == 403 and 'scope="memory:write"' in answer.headers["www-authenticate"]
    )


async def test_local_users_sign_in_with_their_password(running: OAuthApp) -> None:
    running.oauth.state.put_user(
        new_user(
            "anna",
            "geheim-genug-123",
            tenant="acme",
            nutzer=["anna"],
            agents=["*"],
            scopes=["memory:read", "memory:write"],
            teams=["kern"],
        )
    )
    async with running.http() as http:
        client_id = await register(http, [CLAUDE_AI_CALLBACK])
        url = authorize_url(BASE_URL, client_id, CLAUDE_AI_CALLBACK, Pkce.new())
        # A wrong password: the login page again, 401, no hint which part was wrong
        start = await http.get(url)
        page = (await http.get(start.headers["location"])).text
        fields = form_fields(page, "password-login") | {"username": "anna", "password": "falsch"}
        wrong = await http.post("/oauth/login", data=fields)
        assert wrong.status_code == 401 and "Anmeldung fehlgeschlagen" in wrong.text
        pkce = Pkce.new()
        location = await browser_authorize(
            http,
            authorize_url(BASE_URL, client_id, CLAUDE_AI_CALLBACK, pkce),
            password=("anna", "geheim-genug-123"),
        )
        answer = await exchange(
            http, client_id, query_of(location)["code"][0], CLAUDE_AI_CALLBACK, pkce.verifier
        )
    claims = claims_of(answer.json()["access_token"])
    assert (
        claims["tenant"] == "acme" and claims["nutzer"] == ["anna"] and claims["teams"] == ["kern"]
    )
    assert claims["sub"] == "acme:anna"
    # The user's scopes cap what the client gets
    assert answer.json()["scope"] == "memory:read memory:write"


async def test_users_list_and_revoke_their_connections_over_rest(running: OAuthApp) -> None:
    tokens = await connect(running)
    auth = {"Authorization": f"Bearer {tokens['access_token']}"}
    async with running.http() as http:
        listed = (await http.get("/api/oauth/connections", headers=auth)).json()["verbindungen"]
        assert [c["client_id"] for c in listed] == [tokens["client_id"]]
        assert listed[0]["client_name"] == "Test client"
        gone = await http.delete(f"/api/oauth/connections/{listed[0]['id']}", headers=auth)
        assert gone.status_code == 204
        missing = await http.delete(f"/api/oauth/connections/{listed[0]['id']}", headers=auth)
        assert missing.status_code == 404
        after = await refresh(http, tokens["client_id"], tokens["refresh_token"])
        assert after.json()["error"] == "invalid_grant"
        anonymous = await http.get("/api/oauth/connections")
        assert anonymous.status_code == 401


async def test_revocation_ends_the_connection(running: OAuthApp) -> None:
    tokens = await connect(running)
    async with running.http() as http:
        answer = await http.post(
            "/revoke", data={"token": tokens["refresh_token"], "client_id": tokens["client_id"]}
        )
        assert answer.status_code == 200
        after = await refresh(http, tokens["client_id"], tokens["refresh_token"])
    assert after.json()["error"] == "invalid_grant"


async def test_a_cimd_client_is_fetched_and_its_loopback_redirect_takes_any_port(
    settings: Settings, sqlite_storage: SqliteStorage
) -> None:
    with document_server(CLAUDE_CODE_DOCUMENT) as url:
        configured = settings.model_copy(
            update={"oauth_cimd_test_documents": {CLAUDE_CODE_CIMD: url}}
        )
        async with oauth_app(configured, sqlite_storage) as app, app.http() as http:
            redirect = "http://127.0.0.1:54321/callback"  # a port the document does not name
            pkce = Pkce.new()
            location = await browser_authorize(
                http,
                authorize_url(BASE_URL, CLAUDE_CODE_CIMD, redirect, pkce),
                token=app.dev_token,
            )
            assert location.startswith(redirect + "?")
            answer = await exchange(
                http, CLAUDE_CODE_CIMD, query_of(location)["code"][0], redirect, pkce.verifier
            )
            assert claims_of(answer.json()["access_token"])["profile"] == "claude"
            # Another host than the document's loopback names is refused
            other = await http.get(
                authorize_url(BASE_URL, CLAUDE_CODE_CIMD, "http://192.168.1.5:1/callback", pkce)
            )
            assert other.status_code == 400


async def test_pasted_bearer_tokens_keep_working(running: OAuthApp) -> None:
    async with running.server.client(running.dev_token) as client:
        tools = await client.list_tools()
    assert any(tool.name == "remember" for tool in tools)


def test_identity_areas_name_users_teams_and_projects() -> None:
    identity = Identity("t", "s", ("anna",), ("*",), ("memory:read",), ("kern",), ("p1",))
    assert identity.areas() == ["users/anna", "teams/kern", "projects/p1"]
    assert GrantRecord.__dataclass_fields__["refresh_hash"].default == ""
