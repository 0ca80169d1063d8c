"""The OAuth Lambda: Brain's authorization server (metadata, /authorize, sign-in through the
upstream OIDC provider — Cognito —, consent, /token, /register, /revoke, the user's
connections) under Mangum, its state in the DynamoDB table every function shares.

SnapStart: the snapshot holds the imported modules only; the server (DynamoDB and Secrets
Manager clients, the signing key) is built on the first request of each restored environment.
An event that is not an HTTP API (payload 2.0) request is answered 400 without internals.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Final

from aws_lambda_powertools.utilities.typing import LambdaContext
from mangum import Mangum
from starlette.applications import Starlette

from shared.auth.oauth import api_routes, browser_routes
from shared.auth.oauth.dynamo_state import DynamoOAuthState
from shared.auth.oauth.factory import build_oauth_server, signing_key
from shared.auth.oauth.routes import oauth_routes
from shared.auth.oauth.server import OAuthServer
from shared.config import Settings
from shared.lambda_runtime.oauth_keys import bearer_resolver
from shared.lambda_runtime.observability import logger
from shared.lambda_runtime.snapstart import aws_session, on_snapshot
from shared.logs import silence_payload_loggers
from shared.storage.aws import client_config

BAD_EVENT: Final = (
    "Ungültige Anfrage: Das Ereignis ist keine HTTP-API-Anfrage von API Gateway "
    "(Payload-Version 2.0)."
)

silence_payload_loggers()


@cache
def _server() -> OAuthServer:
    settings = Settings()
    session = aws_session()
    state = DynamoOAuthState(
        session.client("dynamodb", config=client_config(settings)), settings.oauth_table
    )
    key = signing_key(settings, session.client("secretsmanager"))
    return build_oauth_server(
        settings, state, key, token_login=None, resolver=bearer_resolver(settings)
    )


@cache
def _app() -> Mangum:
    settings = Settings()
    app: Any = Starlette(routes=oauth_routes(_server()))
    return Mangum(app, lifespan="off", api_gateway_base_path=settings.api_base_path)


def reset() -> None:
    """Forget the server and the app (tests; after a restore: new clients)."""
    _app.cache_clear()
    _server.cache_clear()


def _warm() -> object:
    """Before the snapshot: the route modules are imported; nothing holds a client yet."""
    return (api_routes.ApiRoutes, browser_routes.BrowserRoutes)


on_snapshot("oauth", _warm, reset)


def _bad_event() -> dict[str, Any]:
    return {
        "statusCode": 400,
        "headers": {"content-type": "application/json"},
        "body": json.dumps({"error": "invalid_request", "error_description": BAD_EVENT}),
        "isBase64Encoded": False,
    }


@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    http = (event.get("requestContext") or {}).get("http") if isinstance(event, dict) else None
    if event.get("version") != "2.0" or not isinstance(http, dict):
        logger.warning("event refused")
        return _bad_event()
    lambda_context: Any = context
    response: dict[str, Any] = _app()(event, lambda_context)
    return response
