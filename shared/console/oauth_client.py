"""The console's calls to Brain's own OAuth token endpoint as the public client `brain-console`
(issue 23): exchange a code, renew with a refresh token (it rotates), revoke on sign-out.

Invariants:
- The endpoint is always this deployment's own, chosen by whoever builds the app, never by a
  request: `brain serve` hands the console its own app (`InProcessEndpoint`, an ASGI call,
  no socket); the REST Lambda, whose token endpoint is another function behind the same
  HTTP API, gets `GatewayEndpoint`, which posts to `scheme://<Host><stage>/token` — the
  `Host` API Gateway routed this request by, never `X-Forwarded-Host` or any other header a
  client chooses freely, and only a well-formed host. No request can aim the server's own
  call at another host (no SSRF).
- An answer is a token response only with a string `access_token`; anything else (refusal,
  network failure, non-JSON) is None: the caller shows its own German refusal and names
  nothing of the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Protocol

import httpx2
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import ASGIApp

from shared.rest.common import public_base
from shared.server.auth_middleware import public_base_url, valid_host

CLIENT_ID: Final = "brain-console"
CALLBACK_PATH: Final = "/console/callback"
SCOPES: Final = "memory:read memory:write brain:read brain:write"
TIMEOUT_S: Final = 10.0
ENDPOINT_STATE: Final = "console_token_endpoint"


class TokenEndpoint(Protocol):
    async def post(self, request: Request, path: str, form: dict[str, str]) -> Any: ...


@dataclass(frozen=True)
class InProcessEndpoint:
    """`brain serve`: the app that serves the OAuth routes, called in-process as the origin
    the browser used (the authorization server derives its issuer from it)."""

    app: ASGIApp

    async def post(
        self, request: Request, path: str, form: dict[str, str]
    ) -> httpx2.Response | None:
        transport = httpx2.ASGITransport(app=self.app)
        base = public_base_url(request.scope)
        async with httpx2.AsyncClient(transport=transport, base_url=base) as client:
            return await client.post(path, data=form)


@dataclass(frozen=True)
class GatewayEndpoint:
    """The REST Lambda: the OAuth function behind the same HTTP API, over HTTPS."""

    transport: httpx2.AsyncBaseTransport | None = None  # tests: the OAuth app in-process

    @staticmethod
    def root(request: Request) -> str | None:
        host = Headers(scope=request.scope).get("host", "").strip()
        if not host or not valid_host(host):
            return None
        scheme = "https" if request.url.scheme == "https" else "http"
        return f"{scheme}://{host}{public_base(request)}"

    async def post(
        self, request: Request, path: str, form: dict[str, str]
    ) -> httpx2.Response | None:
        root = self.root(request)
        if root is None:
            return None
        async with httpx2.AsyncClient(timeout=TIMEOUT_S, transport=self.transport) as client:
            try:
                return await client.post(root + path, data=form)
            except httpx2.HTTPError:
                return None


def endpoint(request: Request) -> TokenEndpoint | None:
    """This deployment's token endpoint; None where there is no authorization server."""
    found: TokenEndpoint | None = getattr(request.app.state, ENDPOINT_STATE, None)
    return found


async def tokens(request: Request, form: dict[str, str]) -> dict[str, Any] | None:
    """The token endpoint's answer to `form` (plus the client id); None if refused."""
    target = endpoint(request)
    if target is None:
        return None
    answer = await target.post(request, "/token", {**form, "client_id": CLIENT_ID})
    if answer is None or answer.status_code != 200:
        return None
    try:
        body = answer.json()
    except ValueError:
        return None
    if not isinstance(body, dict) or not isinstance(body.get("access_token"), str):
        return None
    return body


async def revoke(request: Request, token: str) -> None:
    """The refresh token ends (RFC 7009 answers 200 whatever it was); the session ends anyway."""
    target = endpoint(request)
    if target is not None and token:
        await target.post(request, "/revoke", {"token": token, "client_id": CLIENT_ID})
