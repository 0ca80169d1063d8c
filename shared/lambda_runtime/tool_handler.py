"""One Lambda per tool: the same dispatcher as the local server, behind two entry shapes."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from shared import scrubbing
from shared.auth.claims import InvalidToken
from shared.auth.principal import ALL_SCOPES, Principal
from shared.lambda_runtime.container import container, logger, metrics, use_snapstart
from shared.lambda_runtime.payloads import (
    EventRejected,
    http_body,
    http_principal,
    is_http_api_event,
    parse_router_invocation,
)
from shared.lambda_runtime.snapstart import on_snapshot
from shared.services import responses
from shared.services.context import ServiceContext
from shared.services.outcomes import envelope_status
from shared.tools.catalog import TOOLS
from shared.tools.dispatch import call_tool
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.json_body import BodyRejected, check_document

if TYPE_CHECKING:
    from shared.storage.port import StoragePort

Handler = Callable[[dict[str, Any], LambdaContext], dict[str, Any]]
JSON_HEADERS = {"content-type": "application/json; charset=utf-8"}


def _refused(message: str) -> dict[str, Any]:
    metrics.add_metric(name="EventRefused", unit=MetricUnit.Count, value=1)
    return responses.failure([FieldError("event", message)], {})


def _http_response(status: int, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "statusCode": status,
        "headers": JSON_HEADERS,
        "body": json.dumps(body, ensure_ascii=False),
        "isBase64Encoded": False,
    }


def _run(
    tool: str, principal: Principal, arguments: dict[str, Any], context: LambdaContext
) -> dict[str, Any]:
    logger.append_keys(tool=tool, tenant=principal.tenant, subject=principal.subject)
    # The context bounds a write's in-progress mark by this invocation's remaining time.
    envelope = call_tool(container().context, principal, tool, arguments, context)
    metrics.add_dimension(name="tool", value=tool)
    metrics.add_metric(name="ToolCall", unit=MetricUnit.Count, value=1)
    metrics.add_metric(
        name="ToolFailure", unit=MetricUnit.Count, value=0 if envelope["erfolg"] else 1
    )
    logger.info("tool call", extra={"erfolg": envelope["erfolg"]})
    return envelope


def _handle_http(tool: str, event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    try:
        principal = http_principal(event, container().settings.claim_mapping)
    except InvalidToken:
        metrics.add_metric(name="EventRefused", unit=MetricUnit.Count, value=1)
        return _http_response(401, {"error": "invalid_token"})
    try:
        body = http_body(event)
    except BodyRejected as rejected:
        return _http_response(rejected.status, _refused(rejected.message))
    if not isinstance(body, dict):
        return _http_response(400, _refused("Der Rumpf muss ein JSON-Objekt sein."))
    envelope = _run(tool, principal, body, context)
    return _http_response(http_status(envelope), envelope)


def http_status(envelope: dict[str, Any]) -> int:
    """The status of a tool's answer: the one mapping of service outcomes."""
    return envelope_status(envelope)


class NoStorage:
    """The storage of the warm-up: any use is a bug (the warm-up must not touch AWS)."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"the warm-up must not use the storage ({name})")


WARMUP_PRINCIPAL = Principal(
    tenant="warmup", subject="warmup", nutzer=frozenset(), agents=frozenset(), scopes=ALL_SCOPES
)


def warm_tool(tool: str) -> None:
    """Before the snapshot: load what the tool's first call would load — its parser and
    service modules, their pydantic validators, the scrubbing patterns, the idempotency
    layer of a writing tool (the storage parts: `container.prime`) — by running its
    handler on an empty request, which the parser refuses before any storage call."""
    scrubbing.warm()
    if TOOLS[tool].idempotent:  # its calls run through the retry layer
        from shared.tools import retry  # noqa: F401
    context = ServiceContext(cast("StoragePort", NoStorage()), container().settings)
    try:
        TOOLS[tool].handler(context, WARMUP_PRINCIPAL, {})
    except RequestRejected:
        return
    raise RuntimeError(f"the warm-up of {tool} was not refused by its parser")


def make_tool_handler(tool: str) -> Handler:
    if tool not in TOOLS:
        raise ValueError(f"unknown tool {tool!r}")
    use_snapstart()
    on_snapshot(f"tool:{tool}", partial(warm_tool, tool), _nothing_to_renew)

    @logger.inject_lambda_context(clear_state=True)
    @metrics.log_metrics
    def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        if not isinstance(event, dict):
            return _refused("Unbekanntes Ereignis: erwartet ein JSON-Objekt.")
        try:
            check_document(event)
        except BodyRejected as rejected:
            return _refused(rejected.message)
        try:
            invocation = parse_router_invocation(event)
        except EventRejected as exc:
            logger.warning("event refused", extra={"reason": str(exc)})
            return _refused("Ungültiger Router-Aufruf.")
        if invocation is not None:
            if invocation.tool != tool:
                return _refused(f"Diese Funktion bedient nur {tool}.")
            return _run(tool, invocation.principal.principal(), invocation.arguments, context)
        if is_http_api_event(event):
            return _handle_http(tool, event, context)
        logger.warning("event refused", extra={"reason": "unknown event shape"})
        return _refused("Unbekanntes Ereignis: erwartet Router-Aufruf oder HTTP-API-Anfrage.")

    return handler


def _nothing_to_renew() -> None:
    """The warm-up holds no client, credential or seed: nothing to re-create."""
