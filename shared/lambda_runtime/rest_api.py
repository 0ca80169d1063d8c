"""The REST Lambda: the same FastAPI app as `brain serve`'s `/api/...`, under Mangum, on the
container's DynamoDB storage, with the caller's bearer token verified in the function
(`oauth_keys`). The documentation page and the OpenAPI document are public routes of the same
function.

SnapStart: the app (FastAPI, routes, models) and the container are built before the
snapshot; the app reads the container per request, so the container's renewal after a
restore (new AWS clients) is all a restored environment needs.

Every event is checked against the shape of an HTTP API (payload 2.0) request before Mangum
reads it (`RestEvent`, Powertools' parser model narrowed to what this function serves): any
other shape — a direct invoke, a REST API (1.0) event, missing or mistyped fields, text that
is not UTF-8 — is answered with a 400 problem document naming no internals.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Final, Literal, Self

from aws_lambda_powertools.utilities.parser.models import APIGatewayProxyEventV2Model
from aws_lambda_powertools.utilities.typing import LambdaContext
from mangum import Mangum
from pydantic import StrictBool, ValidationError, model_validator

from shared.console.oauth_client import ENDPOINT_STATE, GatewayEndpoint
from shared.lambda_runtime.container import container, logger, use_snapstart
from shared.lambda_runtime.oauth_keys import bearer_resolver, self_authorizing
from shared.lambda_runtime.snapstart import on_snapshot
from shared.rest.app import DeclaredSizeLimit, build_rest_app
from shared.rest.problems import PROBLEM_MEDIA_TYPE, problem_body
from shared.services.context import ServiceContext
from shared.validation.errors import FieldError

BAD_EVENT: Final = (
    "Ungültige Anfrage: Das Ereignis ist keine HTTP-API-Anfrage von API Gateway "
    "(Payload-Version 2.0 mit requestContext.http, headers, rawPath und rawQueryString)."
)


class RestEvent(APIGatewayProxyEventV2Model):
    """What Mangum reads of an HTTP API request: version 2.0 only, a real boolean for
    isBase64Encoded, and every text it encodes (path, query, headers, cookies, body) UTF-8."""

    version: Literal["2.0"]
    isBase64Encoded: StrictBool | None = False

    @model_validator(mode="after")
    def _encodable(self) -> Self:
        body = self.body if isinstance(self.body, str) else ""
        texts = [self.rawQueryString, self.requestContext.http.path, body]
        texts += [*self.headers, *self.headers.values(), *(self.cookies or [])]
        for text in texts:
            text.encode("utf-8")  # UnicodeEncodeError is a ValueError: a validation error
        return self


def bad_event() -> dict[str, Any]:
    """The answer to an event this function cannot serve (HTTP API 2.0 response)."""
    return {
        "statusCode": 400,
        "headers": {"content-type": PROBLEM_MEDIA_TYPE},
        "body": json.dumps(problem_body(400, [FieldError("", BAD_EVENT)]), ensure_ascii=False),
        "isBase64Encoded": False,
    }


def _context() -> ServiceContext:
    return container().context


@cache
def _app() -> Mangum:
    settings = container().settings
    app = build_rest_app(_context, bearer_resolver(settings), settings.api_base_path)
    if self_authorizing(settings):
        # The console signs in at the OAuth function behind the same HTTP API.
        setattr(app.state, ENDPOINT_STATE, GatewayEndpoint())
    # Starlette's and Mangum's ASGI type aliases differ only in spelling.
    asgi_app: Any = DeclaredSizeLimit(app)
    return Mangum(asgi_app, lifespan="off", api_gateway_base_path=settings.api_base_path)


def reset() -> None:
    """Forget the app (tests: a fresh environment per test)."""
    _app.cache_clear()


def _keep() -> None:
    """After a restore the app stays: it holds no client (the container is renewed)."""


use_snapstart()
on_snapshot("memory_api", _app, _keep)


@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    try:
        RestEvent.model_validate(event)
    except ValidationError as exc:
        logger.warning("event refused", extra={"fehler": exc.error_count()})
        return bad_event()
    lambda_context: Any = context
    response: dict[str, Any] = _app()(event, lambda_context)
    return response
