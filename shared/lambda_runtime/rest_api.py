"""The REST Lambda: the same FastAPI app as `brain serve`'s `/api/...`, under Mangum, on the
container's DynamoDB storage, with the principal from API Gateway's JWT authorizer. The
documentation page and the OpenAPI document are public routes of the same function.

SnapStart: the app (FastAPI, routes, models) and the container are built before the
snapshot; the app reads the container per request, so the container's renewal after a
restore (new AWS clients) is all a restored environment needs."""

from __future__ import annotations

from functools import cache
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from mangum import Mangum

from shared.auth.verifiers import build_verifier
from shared.lambda_runtime.container import container, logger, use_snapstart
from shared.lambda_runtime.gateway_auth import GatewayClaimsResolver
from shared.lambda_runtime.snapstart import on_snapshot
from shared.rest.app import DeclaredSizeLimit, build_rest_app
from shared.server.auth_middleware import BearerTokenResolver
from shared.services.context import ServiceContext


def _context() -> ServiceContext:
    return container().context


@cache
def _app() -> Mangum:
    settings = container().settings
    fallback = BearerTokenResolver(build_verifier(settings)) if settings.oidc_issuer else None
    resolver = GatewayClaimsResolver(settings.claim_mapping, fallback)
    app = build_rest_app(_context, resolver, settings.api_base_path)
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
    lambda_context: Any = context
    response: dict[str, Any] = _app()(event, lambda_context)
    return response
