"""Who is calling, in front of the MCP endpoint (MCP authorization spec, RFC 9728).

The principal comes from a resolver: a bearer token verified here (local server, self-hosted
`--backend aws`), or the claims API Gateway's JWT authorizer already verified (Lambda).
"""

from __future__ import annotations

import json
import logging
from typing import Any, Protocol, runtime_checkable

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shared.auth.claims import InvalidToken, TokenVerifier
from shared.auth.principal import Principal
from shared.tools.catalog import TOOLS

logger = logging.getLogger("brain.auth")

METADATA_PATH = "/.well-known/oauth-protected-resource"
PRINCIPAL_KEY = "brain.principal"
# Larger request bodies are refused before parsing (100 entries with big embeddings fit).
MAX_BODY_BYTES = 32 * 1024 * 1024


def resource_metadata_url(scope: Scope, mcp_path: str) -> str:
    headers = Headers(scope=scope)
    host = headers.get("host", "localhost")
    scheme = headers.get("x-forwarded-proto", scope.get("scheme", "http"))
    return f"{scheme}://{host}{scope.get('root_path', '')}{METADATA_PATH}{mcp_path}"


def unauthorized_challenge(scope: Scope, mcp_path: str, error: str, description: str) -> str:
    """The `WWW-Authenticate` value of a 401 (MCP endpoint and REST API alike)."""
    metadata = resource_metadata_url(scope, mcp_path)
    return (
        f'Bearer error="{error}", error_description="{description}", resource_metadata="{metadata}"'
    )


def insufficient_scope_challenge(scope: Scope, mcp_path: str, needed: str) -> str:
    """The `WWW-Authenticate` value of a 403 for a missing scope."""
    metadata = resource_metadata_url(scope, mcp_path)
    return (
        f'Bearer error="insufficient_scope", scope="{needed}", '
        f'error_description="Token lacks scope {needed}", resource_metadata="{metadata}"'
    )


class MissingCredentials(Exception):
    """The request carries no credentials at all."""


@runtime_checkable
class PrincipalResolver(Protocol):
    def resolve(self, scope: Scope) -> Principal:
        """The caller of this request; MissingCredentials or InvalidToken otherwise."""
        ...


class BearerTokenResolver:
    """`Authorization: Bearer <token>`, verified by a TokenVerifier."""

    def __init__(self, verifier: TokenVerifier) -> None:
        self.verifier = verifier

    def resolve(self, scope: Scope) -> Principal:
        authorization = Headers(scope=scope).get("authorization", "")
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise MissingCredentials
        return self.verifier.verify(token.strip())


class AuthMiddleware:
    """Resolves the principal for requests to `mcp_path` and enforces tool scopes (403)
    before the MCP layer runs; other paths pass untouched."""

    def __init__(self, app: ASGIApp, resolver: PrincipalResolver, mcp_path: str) -> None:
        self.app = app
        self.resolver = resolver
        self.mcp_path = mcp_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].rstrip("/") != self.mcp_path:
            await self.app(scope, receive, send)
            return
        try:
            principal = self.resolver.resolve(scope)
        except MissingCredentials:
            await self._unauthorized(scope, receive, send, "invalid_request", "Bearer-Token fehlt.")
            return
        except InvalidToken as exc:
            logger.info("token rejected", extra={"reason": str(exc)})
            await self._unauthorized(
                scope, receive, send, "invalid_token", "Token ungueltig oder abgelaufen."
            )
            return
        scope.setdefault("state", {})[PRINCIPAL_KEY] = principal
        if scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        body = await _read_body(receive)
        if body is None:
            await JSONResponse({"error": "request_too_large"}, status_code=413)(
                scope, receive, send
            )
            return
        missing = missing_scope(body, principal)
        if missing is not None:
            await self._forbidden(scope, receive, send, missing)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _forbidden(self, scope: Scope, receive: Receive, send: Send, needed: str) -> None:
        description = f"Dem Token fehlt der Scope {needed}."
        challenge = insufficient_scope_challenge(scope, self.mcp_path, needed)
        response = JSONResponse(
            {"error": "insufficient_scope", "scope": needed, "error_description": description},
            status_code=403,
            headers={"WWW-Authenticate": challenge},
        )
        await response(scope, receive, send)

    async def _unauthorized(
        self, scope: Scope, receive: Receive, send: Send, error: str, description: str
    ) -> None:
        challenge = unauthorized_challenge(scope, self.mcp_path, error, description)
        response = JSONResponse(
            {"error": error, "error_description": description},
            status_code=401,
            headers={"WWW-Authenticate": challenge},
        )
        await response(scope, receive, send)


async def _read_body(receive: Receive) -> bytes | None:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body already read, then the client's own messages: a disconnect arrives only when
    the client really goes away (a listen stream must not be cancelled at once)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def missing_scope(body: bytes, principal: Principal) -> str | None:
    """The scope a `tools/call` in this JSON-RPC body needs and the principal lacks.

    Help calls (`help: 1`) need no scope. Bodies that are not JSON-RPC tool calls pass on:
    the MCP layer answers them with its own errors.
    """
    try:
        payload = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    messages = payload if isinstance(payload, list) else [payload]
    for message in messages:
        needed = _needed_scope(message)
        if needed is not None and needed not in principal.scopes:
            return needed
    return None


def _needed_scope(message: Any) -> str | None:
    if not isinstance(message, dict) or message.get("method") != "tools/call":
        return None
    params = message.get("params")
    if not isinstance(params, dict):
        return None
    spec = TOOLS.get(str(params.get("name")))
    arguments = params.get("arguments")
    if spec is None or (isinstance(arguments, dict) and arguments.get("help") == 1):
        return None
    return spec.needed_scope(arguments if isinstance(arguments, dict) else {}).value
