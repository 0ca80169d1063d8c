"""Bearer-token check in front of the MCP endpoint (MCP authorization spec, RFC 9728)."""

from __future__ import annotations

import logging
from typing import Protocol

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from shared.auth.local_tokens import InvalidToken
from shared.auth.principal import Principal

logger = logging.getLogger("brain.auth")

METADATA_PATH = "/.well-known/oauth-protected-resource"
PRINCIPAL_KEY = "brain.principal"


class TokenVerifier(Protocol):
    def verify(self, token: str) -> Principal: ...


def resource_metadata_url(scope: Scope, mcp_path: str) -> str:
    headers = Headers(scope=scope)
    host = headers.get("host", "localhost")
    scheme = headers.get("x-forwarded-proto", scope.get("scheme", "http"))
    return f"{scheme}://{host}{METADATA_PATH}{mcp_path}"


class BearerAuthMiddleware:
    """Resolves the principal for requests to `mcp_path`; other paths pass untouched."""

    def __init__(self, app: ASGIApp, verifier: TokenVerifier, mcp_path: str) -> None:
        self.app = app
        self.verifier = verifier
        self.mcp_path = mcp_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].rstrip("/") != self.mcp_path:
            await self.app(scope, receive, send)
            return
        authorization = Headers(scope=scope).get("authorization", "")
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            await self._unauthorized(scope, receive, send, "invalid_request", "Bearer-Token fehlt.")
            return
        try:
            principal = self.verifier.verify(token.strip())
        except InvalidToken as exc:
            logger.info("token rejected", extra={"reason": str(exc)})
            await self._unauthorized(
                scope, receive, send, "invalid_token", "Token ungueltig oder abgelaufen."
            )
            return
        scope.setdefault("state", {})[PRINCIPAL_KEY] = principal
        await self.app(scope, receive, send)

    async def _unauthorized(
        self, scope: Scope, receive: Receive, send: Send, error: str, description: str
    ) -> None:
        metadata = resource_metadata_url(scope, self.mcp_path)
        challenge = (
            f'Bearer error="{error}", error_description="{description}", '
            f'resource_metadata="{metadata}"'
        )
        response = JSONResponse(
            {"error": error, "error_description": description},
            status_code=401,
            headers={"WWW-Authenticate": challenge},
        )
        await response(scope, receive, send)
