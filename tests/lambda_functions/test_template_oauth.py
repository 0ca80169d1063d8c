"""The deployed authorization server, as `sam local invoke` would run it: the template's
OAuth, router and REST functions on moto (the OAuth state table and the signing secret from
the template), API Gateway's events built the way an HTTP API sends them, and the upstream
OIDC provider (Cognito on AWS) played by `oidc-provider-mock`.

A connector registers (DCR), the user signs in at the provider and consents, the connector
redeems the code, then calls a tool over MCP through the router (no JWT authorizer on /mcp:
the router verifies Brain's token) and reads the REST API with the same token."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from unittest import mock
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx2
import pytest
from oidc_provider_mock import run_server_in_thread

from shared.lambda_runtime import router as router_module
from tests.e2e.oauth_helpers import CLAUDE_AI_CALLBACK, Pkce, form_fields, provider_user
from tests.lambda_functions.conftest import FakeLambdaContext, LocalInvoker
from tests.lambda_functions.test_template_functions import (
    TEST_PARAMETERS,
    Handler,
    alias_arn,
    deploy,
    event,
)

HOST = "abc123.execute-api.eu-central-1.amazonaws.com"
ROOT = f"https://{HOST}"
ANNA = provider_user("anna-cognito", "vertrieb")


def http_event(
    method: str,
    path: str,
    query: dict[str, str] | None = None,
    *,
    form: list[tuple[str, str]] | None = None,
    json_body: Any = None,
    headers: dict[str, str] | None = None,
    cookies: dict[str, str] | None = None,
) -> dict[str, Any]:
    """An HTTP API (payload 2.0) event as API Gateway sends it to a route without authorizer."""
    sample = event("oauth")
    body = None
    extra = dict(headers or {})
    if form is not None:
        body = urlencode(form)
        extra["content-type"] = "application/x-www-form-urlencoded"
    elif json_body is not None:
        body = json.dumps(json_body)
        extra["content-type"] = "application/json"
    sample.update(
        routeKey=f"{method} {path}",
        rawPath=path,
        rawQueryString=urlencode(query or {}),
        headers={**sample["headers"], **extra},
        body=body,
    )
    if cookies:
        sample["cookies"] = [f"{name}={value}" for name, value in cookies.items()]
    sample["requestContext"].update(routeKey=f"{method} {path}")
    sample["requestContext"]["http"].update(method=method, path=path)
    return sample


class Browser:
    """The user's browser towards the OAuth function: its cookies, one event per request."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.cookies: dict[str, str] = {}

    def send(self, method: str, url: str, **kwargs: Any) -> dict[str, Any]:
        parts = urlsplit(url)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        answer: dict[str, Any] = self.handler(
            http_event(method, parts.path, query, cookies=self.cookies, **kwargs),
            FakeLambdaContext(),
        )
        for cookie in answer.get("cookies", []):
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return answer


@pytest.fixture
def upstream() -> Iterator[str]:
    with run_server_in_thread(user_claims=[ANNA]) as server:
        yield f"http://localhost:{server.server_port}"


@pytest.mark.timeout(300)  # a server, a browser or a provider to start
def test_a_connector_signs_in_through_the_upstream_and_calls_router_and_rest(
    upstream: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.infra.cfn import load_template

    template = load_template()
    with mock.patch.dict(TEST_PARAMETERS, {"OidcIssuer": upstream}), deploy(template) as fns:
        oauth = fns["OAuthFunction"]
        # The metadata is answered from the sample event (cold), for the API's own URL
        metadata = json.loads(oauth(event("oauth"), FakeLambdaContext())["body"])
        assert metadata["issuer"] == ROOT
        assert metadata["client_id_metadata_document_supported"] is True
        # A connector registers (DCR) with Claude's hosted callback
        registered = oauth(
            http_event(
                "POST",
                "/register",
                json_body={
                    "redirect_uris": [CLAUDE_AI_CALLBACK],
                    "token_endpoint_auth_method": "none",
                    "client_name": "Claude",
                },
            ),
            FakeLambdaContext(),
        )
        assert registered["statusCode"] == 201, registered
        client_id = json.loads(registered["body"])["client_id"]
        # The user: /authorize sends the browser to the provider
        browser = Browser(oauth)
        pkce = Pkce.new()
        started = browser.send(
            "GET",
            "/authorize?"
            + urlencode(
                {
                    "response_type": "code",
                    "client_id": client_id,
                    "redirect_uri": CLAUDE_AI_CALLBACK,
                    "state": "s1",
                    "code_challenge": pkce.challenge,
                    "code_challenge_method": "S256",
                    "resource": f"{ROOT}/mcp",
                }
            ),
        )
        provider_url = started["headers"]["location"]
        assert provider_url.startswith(upstream + "/oauth2/authorize?")
        # ... the user signs in there, the provider redirects back to Brain's callback
        signed = httpx2.post(provider_url, data={"sub": ANNA.sub})
        callback = signed.headers["location"]
        assert callback.startswith(f"{ROOT}/oauth/callback?")
        consent = browser.send("GET", callback)
        assert consent["statusCode"] == 303, consent
        page = browser.send("GET", consent["headers"]["location"])
        assert "anna@acme.example" in page["body"] and "teams/vertrieb" in page["body"]
        fields = form_fields(page["body"], "consent")
        scopes = re.findall(r'name="scope" value="([^"]+)"', page["body"])
        done = browser.send(
            "POST",
            "/oauth/consent",
            form=[*fields.items(), ("decision", "allow"), *(("scope", s) for s in scopes)],
        )
        redirect = done["headers"]["location"]
        assert redirect.startswith(CLAUDE_AI_CALLBACK + "?")
        query = parse_qs(urlsplit(redirect).query)
        assert query["iss"] == [ROOT] and query["state"] == ["s1"]
        # The connector redeems the code
        answer = oauth(
            http_event(
                "POST",
                "/token",
                form=[
                    ("grant_type", "authorization_code"),
                    ("code", query["code"][0]),
                    ("redirect_uri", CLAUDE_AI_CALLBACK),
                    ("code_verifier", pkce.verifier),
                    ("client_id", client_id),
                ],
            ),
            FakeLambdaContext(),
        )
        assert answer["statusCode"] == 200, answer
        tokens = json.loads(answer["body"])
        bearer = {"authorization": f"Bearer {tokens['access_token']}"}

        # Then the router accepts the token on /mcp (no authorizer claims in the event)
        alias = template["Globals"]["Function"]["AutoPublishAlias"]
        invoker = LocalInvoker(
            {alias_arn(name, alias): handler for name, handler in fns.items()},
            FakeLambdaContext(),
        )
        monkeypatch.setattr(router_module, "BotoInvoker", lambda client_factory: invoker)
        call = event("mcp_router")
        del call["requestContext"]["authorizer"]
        call["headers"].update(bearer)
        call["body"] = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {
                    "name": "remember",
                    "arguments": {"content": "Über Cognito verbunden.", "path": "teams/vertrieb/x"},
                },
            }
        )
        routed = fns["McpRouterFunction"](call, FakeLambdaContext())
        assert routed["statusCode"] == 200, routed
        result = json.loads(routed["body"])["result"]["structuredContent"]
        assert result["erfolg"] is True, result
        # And without a token the router answers 401 naming the metadata (discovery)
        call["headers"].pop("authorization")
        anonymous = fns["McpRouterFunction"](call, FakeLambdaContext())
        assert anonymous["statusCode"] == 401
        assert "resource_metadata=" in anonymous["headers"]["www-authenticate"]
        # And the REST function serves the same caller
        listed = fns["MemoryApiFunction"](
            http_event("GET", "/api/memory", {"team": "vertrieb"}, headers=bearer),
            FakeLambdaContext(),
        )
        assert listed["statusCode"] == 200, listed
        assert [m["memory"] for m in json.loads(listed["body"])["eintraege"]] == [
            "Über Cognito verbunden."
        ]
        # And the user sees the connection, the connector's refresh rotates
        connections = oauth(
            http_event("GET", "/api/oauth/connections", headers=bearer), FakeLambdaContext()
        )
        (connection,) = json.loads(connections["body"])["verbindungen"]
        assert connection["client_name"] == "Claude" and connection["profile"] == "claude"
        renewed = oauth(
            http_event(
                "POST",
                "/token",
                form=[
                    ("grant_type", "refresh_token"),
                    ("refresh_token", tokens["refresh_token"]),
                    ("client_id", client_id),
                ],
            ),
            FakeLambdaContext(),
        )
        assert renewed["statusCode"] == 200, renewed
        assert json.loads(renewed["body"])["refresh_token"] != tokens["refresh_token"]
