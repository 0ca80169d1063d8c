"""Who is calling, in front of the MCP endpoint (MCP authorization spec, RFC 9728).

The principal comes from a resolver: a bearer token verified here (local server, self-hosted
`--backend aws`), or the claims API Gateway's JWT authorizer already verified (Lambda).
"""

from __future__ import annotations

import logging
import re
from typing import Any, Final, Protocol, runtime_checkable

import anyio
import anyio.to_thread
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shared.auth.claims import InvalidToken, TokenVerifier
from shared.auth.hints import missing_scope_message
from shared.auth.principal import Principal
from shared.tools.catalog import TOOLS
from shared.validation.help_flag import requests_help
from shared.validation.json_body import BodyRejected, check_size, parse_json

logger = logging.getLogger("brain.auth")

METADATA_PATH = "/.well-known/oauth-protected-resource"
PRINCIPAL_KEY = "brain.principal"
BODY_TIMEOUT: Final = "Zeitüberschreitung: Der Rumpf der Anfrage kam nicht rechtzeitig an."
# Forwarded headers are used only when they look like what they claim to be.
_SCHEMES: Final = frozenset({"http", "https"})
_HOST_RE: Final = re.compile(r"(?:[A-Za-z0-9-]{1,63}\.)*[A-Za-z0-9-]{1,63}(?::[0-9]{1,5})?")
_ROOT_PATH_RE: Final = re.compile(r"[A-Za-z0-9/._~-]{0,200}")
_IPV6_HOST_RE: Final = re.compile(r"\[[0-9A-Fa-f:.]{2,45}\](?::[0-9]{1,5})?")


def valid_host(value: str) -> bool:
    return len(value) <= 255 and bool(_HOST_RE.fullmatch(value) or _IPV6_HOST_RE.fullmatch(value))


def public_base_url(scope: Scope) -> str:
    """`scheme://host` of this server as the client addressed it. `X-Forwarded-Proto` and
    `X-Forwarded-Host`/`Host` are used only when well-formed, so nothing a client sends is
    copied unchecked into a header or a document."""
    headers = Headers(scope=scope)
    scheme = str(scope.get("scheme", "http"))
    forwarded_proto = headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    if forwarded_proto in _SCHEMES:
        scheme = forwarded_proto
    if scheme not in _SCHEMES:
        scheme = "http"
    host = "localhost"
    for candidate in (headers.get("x-forwarded-host", ""), headers.get("host", "")):
        candidate = candidate.split(",")[0].strip()
        if candidate and valid_host(candidate):
            host = candidate
            break
    return f"{scheme}://{host}"


def public_root(scope: Scope) -> str:
    """The public base URL plus the app's root path (a stage prefix), both validated."""
    root = str(scope.get("root_path", "")).rstrip("/")
    if not _ROOT_PATH_RE.fullmatch(root):
        root = ""
    return public_base_url(scope) + root


def resource_metadata_url(scope: Scope, mcp_path: str) -> str:
    return f"{public_root(scope)}{METADATA_PATH}{mcp_path}"


def jsonrpc_error(status: int, code: int, message: str) -> JSONResponse:
    """A JSON-RPC error answer for a request the MCP layer never saw (no id is known)."""
    return JSONResponse(
        {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}},
        status_code=status,
    )


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


class AmbiguousCredentials(Exception):
    """The request carries more than one Authorization header."""


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
        values = Headers(scope=scope).getlist("authorization")
        if len(values) > 1:
            raise AmbiguousCredentials
        authorization = values[0] if values else ""
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise MissingCredentials
        return self.verifier.verify(token.strip())


class AuthMiddleware:
    """Resolves the principal for requests to `mcp_path` and enforces tool scopes (403)
    before the MCP layer runs; other paths pass untouched."""

    def __init__(
        self,
        app: ASGIApp,
        resolver: PrincipalResolver,
        mcp_path: str,
        body_timeout_s: float,
    ) -> None:
        self.app = app
        self.resolver = resolver
        self.mcp_path = mcp_path
        self.body_timeout_s = body_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].rstrip("/") != self.mcp_path:
            await self.app(scope, receive, send)
            return
        try:
            principal = self.resolver.resolve(scope)
        except MissingCredentials:
            await self._unauthorized(scope, receive, send, "invalid_request", "Bearer-Token fehlt.")
            return
        except AmbiguousCredentials:
            await self._unauthorized(
                scope, receive, send, "invalid_request", "Mehrere Authorization-Header."
            )
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
        try:
            body = await self._read_body(scope, receive)
            payload = await anyio.to_thread.run_sync(parse_json, body)
        except BodyRejected as rejected:
            code = -32700 if rejected.status == 400 else -32600
            await jsonrpc_error(rejected.status, code, rejected.message)(scope, receive, send)
            return
        missing = missing_scope(payload, principal)
        if missing is not None:
            await self._forbidden(scope, receive, send, missing)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes:
        return await read_body_within(scope, receive, self.body_timeout_s)

    async def _forbidden(self, scope: Scope, receive: Receive, send: Send, needed: str) -> None:
        description = missing_scope_message(needed)
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


async def read_body_within(scope: Scope, receive: Receive, timeout_s: float) -> bytes:
    """The whole body: refused when declared or found too large (BodyRejected 413), or when it
    has not arrived within `timeout_s` (BodyRejected 408: a slow client holds no connection)."""
    declared = Headers(scope=scope).get("content-length", "")
    if declared.isdigit():
        check_size(int(declared))
    body: bytes | None = None
    with anyio.move_on_after(timeout_s):
        body = await _read_limited(receive)
    if body is None:
        raise BodyRejected(BODY_TIMEOUT, status=408)
    return body


def replay_body(body: bytes, receive: Receive) -> Receive:
    """`receive` that hands out `body` (read already) first."""
    return _replay(body, receive)


async def _read_limited(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        check_size(size)
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


def missing_scope(payload: Any, principal: Principal) -> str | None:
    """The scope a `tools/call` in this parsed JSON-RPC body needs and the principal lacks.

    Help calls (the shared help flag) need no scope. Messages that are not tool calls pass
    on: the MCP layer answers them with its own errors.
    """
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
    if spec is None or requests_help(arguments):
        return None
    return spec.needed_scope(arguments if isinstance(arguments, dict) else {}).value
