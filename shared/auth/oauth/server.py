"""The authorization server as one object: its state, keys, clients and login methods, and
what every route derives from the request (issuer, resources, cookies).

The issuer is this server's public root as the client addressed it (`public_root`: scheme,
validated host, stage path), so the metadata a client discovers, the `iss` of the
authorization response and of the tokens, and the token audience (the MCP URL the user typed,
RFC 8707) all agree. Resources of this server: `<root>/mcp` (the MCP endpoint, the default)
and `<root>/api` (the REST API); a token for one of them is accepted by both, a token for any
other audience by neither.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response

from shared.auth.claims import TokenVerifier
from shared.auth.oauth.clients import ClientDirectory
from shared.auth.oauth.grants import AuthorizationService
from shared.auth.oauth.records import Identity, from_doc, to_doc
from shared.auth.oauth.state import OAuthState
from shared.auth.oauth.tokens import SessionSigner
from shared.auth.oauth.upstream import UpstreamProvider
from shared.server.auth_middleware import PrincipalResolver, public_root

BROWSER_COOKIE: Final = "brain_oauth_browser"
SESSION_COOKIE: Final = "brain_oauth_session"
BROWSER_COOKIE_S: Final = 24 * 3600
MAX_FORM_BYTES: Final = 64 * 1024


def issuer_of(request: Request) -> str:
    return public_root(request.scope)


@dataclass
class OAuthServer:
    state: OAuthState
    directory: ClientDirectory
    service: AuthorizationService
    sessions: SessionSigner
    # Signing in: local users (passwords), Brain bearer tokens, or the upstream provider.
    token_login: TokenVerifier | None = None
    upstream: UpstreamProvider | None = None
    local_users: bool = True
    # Who calls the connections API (the same resolver as the MCP endpoint and REST API).
    resolver: PrincipalResolver | None = None
    session_s: int = 8 * 3600
    on_close: list[Callable[[], None]] = field(default_factory=list)

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """A state call off the event loop (SQLite and boto3 block)."""
        return await anyio.to_thread.run_sync(function, *args)

    def set_cookie(
        self, request: Request, response: Response, name: str, value: str, max_age: int
    ) -> None:
        response.set_cookie(
            name,
            value,
            max_age=max_age,
            path="/",
            httponly=True,
            samesite="lax",
            secure=issuer_of(request).startswith("https://"),
        )

    def session_identity(self, request: Request) -> Identity | None:
        cookie = request.cookies.get(SESSION_COOKIE, "")
        if not cookie or len(cookie) > 8192:
            return None
        doc = self.sessions.identity_doc(cookie, issuer_of(request))
        if doc is None:
            return None
        try:
            return from_doc(Identity, doc)
        except (TypeError, ValueError):
            return None

    def remember_session(self, request: Request, response: Response, identity: Identity) -> None:
        token = self.sessions.issue(to_doc(identity), issuer_of(request), self.session_s)
        self.set_cookie(request, response, SESSION_COOKIE, token, self.session_s)

    def close(self) -> None:
        for hook in self.on_close:
            hook()
