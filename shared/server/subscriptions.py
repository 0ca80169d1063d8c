"""`subscriptions/listen` (MCP 2026-07-28, SEP-2575) for a stateless server.

On the 2026-07-28 wire a client asks for change notifications with a `subscriptions/listen`
request whose response is an SSE stream. Invariants of Brain's answer, on the local server
and on the router Lambda alike (both build their app with `shared.server.app.build_app`):

* Brain delivers no change notifications, and says so once: `DELIVERED` is the empty filter.
  Its tool list is fixed for a deployment (a new tool set is a new deployment), it has no
  prompts and no resources, and no state crosses requests (the Lambda router holds nothing
  between invocations), so there is no event a stream could carry. The acknowledgement
  honours `requested ∩ DELIVERED`, and `server/discover` advertises `listChanged` and
  `resources.subscribe` from the same constant (all false), never more than is delivered.
* The stream carries exactly two messages, both tagged with
  `_meta["io.modelcontextprotocol/subscriptionId"]` = the listen request's JSON-RPC id:
  first `notifications/subscriptions/acknowledged` (the spec's MUST), then the graceful
  closure, the `SubscriptionsListenResult` the revision lets a server send when it ends a
  subscription on its own initiative. A client that receives it knows the stream ended
  cleanly rather than dropped, so it need not re-listen. This is what a Lambda behind
  API Gateway can do (the response is buffered; no stream stays open), and the local server
  answers the same way, so clients see one behaviour.
* The SDK's transport does the rest: envelope and header validation, SSE framing (a listen
  response is a stream even in JSON-response mode, and it needs `Accept: text/event-stream`).
  2025-11-25 clients never get here: the method does not exist on their wire (-32601).
"""

from __future__ import annotations

from typing import Any, Final

from fastmcp import FastMCP
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import SUBSCRIPTION_ID_META_KEY
from mcp_types import (
    INVALID_REQUEST,
    DiscoverResult,
    ServerCapabilities,
    SubscriptionFilter,
    SubscriptionsAcknowledgedNotification,
    SubscriptionsAcknowledgedNotificationParams,
    SubscriptionsListenRequestParams,
    SubscriptionsListenResult,
)

LISTEN_METHOD: Final = "subscriptions/listen"
DISCOVER_METHOD: Final = "server/discover"

DELIVERED: Final = SubscriptionFilter()
"""The change notifications Brain delivers on a listen stream: none (see the module doc)."""


def honored(
    requested: SubscriptionFilter, delivered: SubscriptionFilter = DELIVERED
) -> SubscriptionFilter:
    """The subset of `requested` the server agreed to honour; types it does not deliver are
    omitted (not echoed as false)."""
    uris = set(delivered.resource_subscriptions or ())
    subscribed = [uri for uri in requested.resource_subscriptions or () if uri in uris]
    return SubscriptionFilter(
        tools_list_changed=bool(requested.tools_list_changed and delivered.tools_list_changed)
        or None,
        prompts_list_changed=bool(requested.prompts_list_changed and delivered.prompts_list_changed)
        or None,
        resources_list_changed=bool(
            requested.resources_list_changed and delivered.resources_list_changed
        )
        or None,
        resource_subscriptions=subscribed or None,
    )


def advertised(
    capabilities: ServerCapabilities, delivered: SubscriptionFilter = DELIVERED
) -> ServerCapabilities:
    """`capabilities` with the subscription-delivered flags taken from `delivered`."""
    update: dict[str, Any] = {}
    if capabilities.tools is not None:
        update["tools"] = capabilities.tools.model_copy(
            update={"list_changed": bool(delivered.tools_list_changed)}
        )
    if capabilities.prompts is not None:
        update["prompts"] = capabilities.prompts.model_copy(
            update={"list_changed": bool(delivered.prompts_list_changed)}
        )
    if capabilities.resources is not None:
        update["resources"] = capabilities.resources.model_copy(
            update={
                "list_changed": bool(delivered.resources_list_changed),
                "subscribe": bool(delivered.resource_subscriptions),
            }
        )
    return capabilities.model_copy(update=update)


async def listen(
    ctx: ServerRequestContext[Any, Any], params: SubscriptionsListenRequestParams
) -> SubscriptionsListenResult:
    """Acknowledge the honoured subset, then end the subscription gracefully."""
    if ctx.request_id is None:
        raise MCPError(INVALID_REQUEST, "subscriptions/listen requires a request id")
    meta: dict[str, Any] = {SUBSCRIPTION_ID_META_KEY: ctx.request_id}
    acknowledgement = SubscriptionsAcknowledgedNotification(
        params=SubscriptionsAcknowledgedNotificationParams(
            notifications=honored(params.notifications), _meta=meta
        )
    )
    await ctx.session.send_notification(acknowledgement, related_request_id=ctx.request_id)
    return SubscriptionsListenResult(_meta=meta)


def install_subscriptions(mcp: FastMCP) -> None:
    """Serve `subscriptions/listen` on `mcp` and keep `server/discover` honest about it.

    Registering a listen handler makes the SDK advertise every `listChanged` flag at
    2026-07-28; the discover handler is wrapped so the flags say what `DELIVERED` says.
    """
    server = mcp._mcp_server  # fastmcp's low-level SDK server; its own mixins register here
    discover_entry = server.get_request_handler(DISCOVER_METHOD)
    if discover_entry is None:
        raise RuntimeError("the MCP SDK no longer serves server/discover")
    default_discover = discover_entry.handler

    async def discover(ctx: ServerRequestContext[Any, Any], params: Any) -> Any:
        result = await default_discover(ctx, params)
        if not isinstance(result, DiscoverResult):
            return result
        return result.model_copy(update={"capabilities": advertised(result.capabilities)})

    server.add_request_handler(DISCOVER_METHOD, discover_entry.params_type, discover)
    server.add_request_handler(LISTEN_METHOD, SubscriptionsListenRequestParams, listen)
