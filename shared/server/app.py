"""The MCP server: fastmcp, Streamable HTTP, stateless, JSON responses, Host/Origin checks."""

from __future__ import annotations

import json
import logging
import time
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from fastmcp import FastMCP
from fastmcp.server.dependencies import get_http_request
from fastmcp.server.middleware import CallNext, MiddlewareContext
from fastmcp.server.middleware import Middleware as McpMiddleware
from fastmcp.tools.base import Tool, ToolResult
from mcp import MCPError
from mcp_types import INVALID_PARAMS, CallToolRequestParams, TextContent, ToolAnnotations
from pydantic import PrivateAttr
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp

from shared.auth.claims import TokenVerifier
from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.server.auth_middleware import (
    METADATA_PATH,
    PRINCIPAL_KEY,
    AuthMiddleware,
    BearerTokenResolver,
    PrincipalResolver,
    public_root,
)
from shared.server.forwarded import TrustedForwarding
from shared.server.subscriptions import install_subscriptions
from shared.server.tool_bridge import InProcessDispatcher, ToolDispatcher
from shared.services import responses
from shared.services.context import ServiceContext
from shared.tools.catalog import TOOLS, ToolSpec

MCP_PATH = "/mcp"
SERVER_NAME = "brain"
INSTRUCTIONS = (
    "Brain: gemeinsames Gedächtnis für Agenten. Erinnerungen speichern "
    "(insert_brain_longterm_memory, insert_brain_shortterm_memory, remember), laden "
    "(fetch_brain_memories), suchen (search_memory, recall, recall_context), bewerten "
    "(rate_brain_memories), ändern (update_brain_memories), vergessen (delete_brain_memories) "
    "und Kontextwissen durchsuchen (select_brain) oder pflegen (upsert_brain). Jedes "
    'Brain-Tool erklärt sich mit {"inhalt": {}, "help": 1}.'
)

if TYPE_CHECKING:  # the authorization server's modules load only where it runs
    from shared.auth.oauth.server import OAuthServer

logger = logging.getLogger("brain.tools")


def envelope_result(envelope: dict[str, Any]) -> ToolResult:
    """The envelope as structured content and as JSON text; `isError` only when nothing was
    stored (see `responses.is_error`): clients raise on it, so a partly stored batch must not."""
    # Memory OS tools answer with a sentence for people and models (seed 004); the others
    # with the envelope itself as JSON text.
    text = envelope.get("text") or json.dumps(envelope, ensure_ascii=False)
    return ToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=envelope,
        is_error=responses.is_error(envelope),
    )


class BrainTool(Tool):
    """A contract tool: publishes its seed schema verbatim, validates with our own models."""

    _spec: ToolSpec = PrivateAttr()
    _dispatcher: ToolDispatcher = PrivateAttr()

    @classmethod
    def for_spec(cls, spec: ToolSpec, dispatcher: ToolDispatcher) -> BrainTool:
        tool = cls(
            name=spec.name,
            title=spec.title,
            description=spec.published_description,
            parameters=spec.input_schema,
            annotations=ToolAnnotations(
                read_only_hint=spec.read_only,
                destructive_hint=spec.destructive,
                idempotent_hint=spec.read_only or spec.idempotent,
                open_world_hint=False,
            ),
        )
        tool._spec = spec
        tool._dispatcher = dispatcher
        return tool

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        principal = get_http_request().scope.get("state", {}).get(PRINCIPAL_KEY)
        if not isinstance(principal, Principal):
            # The auth middleware guards every route that reaches a tool.
            raise RuntimeError("tool called without an authenticated principal")
        started = time.perf_counter()
        envelope = await self._dispatcher.dispatch(principal, self._spec.name, arguments)
        # Serialising a large answer is CPU work too: off the event loop.
        result = await anyio.to_thread.run_sync(envelope_result, envelope)
        logger.info(
            "tool call",
            extra={
                "tool": self._spec.name,
                "tenant": principal.tenant,
                "subject": principal.subject,
                "erfolg": envelope["erfolg"],
                "dauer_ms": round((time.perf_counter() - started) * 1000, 1),
            },
        )
        return result


def unknown_tool_message(name: str) -> str:
    return f"Unbekanntes Tool {name!r}: tools/list nennt die Tools dieses Servers."


class UnknownTool(McpMiddleware):
    """A `tools/call` naming no tool of this server is a JSON-RPC error -32602 (invalid
    params, MCP 2026-07-28 / SEP-2164) with the name in `data`, not a tool result (fastmcp
    answers one with `isError`). The router Lambda serves the same app: the same answer."""

    async def on_call_tool(
        self,
        context: MiddlewareContext[CallToolRequestParams],
        call_next: CallNext[CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        name = context.message.name
        if name not in TOOLS:
            raise MCPError(INVALID_PARAMS, unknown_tool_message(name), {"name": name})
        return await call_next(context)


def build_mcp(dispatcher: ToolDispatcher) -> FastMCP:
    # Unexpected exceptions are logged by fastmcp and answered without their text.
    mcp = FastMCP(SERVER_NAME, instructions=INSTRUCTIONS, mask_error_details=True)
    mcp.add_middleware(UnknownTool())
    for spec in TOOLS.values():
        mcp.add_tool(BrainTool.for_spec(spec, dispatcher))
    install_subscriptions(mcp)
    return mcp


def protected_resource_metadata(
    request: Request, authorization_servers: list[str] | None
) -> Response:
    """RFC 9728: the resource is the MCP URL as the client addressed it; the authorization
    server is this server itself (its own root) when it is one, else the configured issuer."""
    base = public_root(request.scope)
    return JSONResponse(
        {
            "resource": f"{base}{MCP_PATH}",
            "authorization_servers": [base]
            if authorization_servers is None
            else authorization_servers,
            "scopes_supported": sorted(ALL_SCOPES),
            "bearer_methods_supported": ["header"],
            "resource_name": "Brain MCP",
        }
    )


def build_app(
    dispatcher: ToolDispatcher | ServiceContext,
    auth: TokenVerifier | PrincipalResolver,
    settings: Settings,
    authorization_servers: list[str] | None = None,
    oauth: OAuthServer | None = None,
    self_authorizing: bool = False,
) -> ASGIApp:
    """`oauth`: this server is also the OAuth authorization server of its MCP endpoint and
    REST API (its routes are served here). `self_authorizing` (implied by `oauth`): the
    metadata names this server's own root as authorization server (the router Lambda, whose
    OAuth routes another function serves)."""
    context = dispatcher if isinstance(dispatcher, ServiceContext) else None
    if isinstance(dispatcher, ServiceContext):
        dispatcher = InProcessDispatcher(dispatcher)
    resolver = auth if isinstance(auth, PrincipalResolver) else BearerTokenResolver(auth)
    mcp = build_mcp(dispatcher)
    servers: list[str] | None = authorization_servers
    if oauth is not None or self_authorizing:
        servers = None  # this server's own root, per request
    elif servers is None:
        servers = [settings.oidc_issuer] if settings.oidc_issuer else []

    async def metadata(request: Request) -> Response:
        return protected_resource_metadata(request, servers)

    for path in (METADATA_PATH, METADATA_PATH + MCP_PATH):
        mcp.custom_route(path, methods=["GET"])(metadata)

    app = mcp.http_app(
        path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        host_origin_protection=True,
        allowed_hosts=settings.allowed_hosts or None,
        allowed_origins=settings.allowed_origins or None,
        middleware=[
            Middleware(TrustedForwarding, trusted_proxies=settings.trusted_proxies),
            Middleware(
                AuthMiddleware,
                resolver=resolver,
                mcp_path=MCP_PATH,
                body_timeout_s=settings.http_body_timeout_s,
            ),
        ],
    )
    if oauth is not None:
        # Before the REST API's prefix route: /api/oauth/... belongs to the OAuth server.
        from shared.auth.oauth.routes import oauth_routes

        app.router.routes.extend(oauth_routes(oauth))
    if context is not None:
        # The REST API (/api/..., /docs/api/...) on the same port, behind the same Host/Origin
        # checks, with the same resolver. (On Lambda the router forwards tool calls only; the
        # REST API has its own function.)
        from shared.rest.app import PrefixRoute, build_rest_app

        rest = build_rest_app(context, resolver)
        if oauth is not None:
            # The console signs in at this app's own /token, in-process (no socket).
            from shared.console.oauth_client import ENDPOINT_STATE, InProcessEndpoint

            setattr(rest.state, ENDPOINT_STATE, InProcessEndpoint(app))
        app.router.routes.append(PrefixRoute(rest, body_timeout_s=settings.http_body_timeout_s))
    return app
