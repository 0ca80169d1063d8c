"""The caller of a REST request: the same resolver and the same answers as the MCP endpoint.

Locally the bearer token is verified in the app; behind API Gateway the JWT authorizer's
claims resolve the principal. No token or a bad one: 401, a missing scope: 403 — both with
the MCP endpoint's `WWW-Authenticate` challenge (RFC 6750 / RFC 9728 metadata URL).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from shared.auth.claims import InvalidToken
from shared.auth.hints import missing_scope_message
from shared.auth.principal import Principal, Scope
from shared.rest.problems import ApiProblem
from shared.server.auth_middleware import (
    AmbiguousCredentials,
    MissingCredentials,
    PrincipalResolver,
    insufficient_scope_challenge,
    unauthorized_challenge,
)
from shared.validation.errors import FieldError

logger = logging.getLogger("brain.auth")

MCP_PATH = "/mcp"  # the protected resource whose metadata the challenges name
RESOLVER_STATE = "principal_resolver"

# Documents the scheme in OpenAPI ("Authorize" on the page); the resolver does the checking.
bearer_scheme = HTTPBearer(
    auto_error=False,
    bearerFormat="JWT",
    description=(
        "Bearer-Token (JWT) wie für den MCP-Endpunkt; `brain serve` druckt eines aus. "
        "Scopes: memory:read (lesen), memory:write (schreiben). — The same bearer token as "
        "for the MCP endpoint."
    ),
)


def _resolver(request: Request) -> PrincipalResolver:
    resolver = getattr(request.app.state, RESOLVER_STATE, None)
    if not isinstance(resolver, PrincipalResolver):
        raise TypeError("REST app built without a principal resolver")
    return resolver


def current_principal(
    request: Request,
    _: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)],
) -> Principal:
    scope = request.scope
    try:
        return _resolver(request).resolve(scope)
    except MissingCredentials:
        error, description = "invalid_request", "Bearer-Token fehlt."
    except AmbiguousCredentials:
        # As the MCP endpoint: two Authorization headers are no credentials (401, not 500).
        error, description = "invalid_request", "Mehrere Authorization-Header."
    except InvalidToken as exc:
        logger.info("token rejected", extra={"reason": str(exc)})
        error, description = "invalid_token", "Token ungueltig oder abgelaufen."
    challenge = unauthorized_challenge(scope, MCP_PATH, error, description)
    message = {
        "Bearer-Token fehlt.": "Bearer-Token fehlt: Header 'Authorization: Bearer <token>' senden.",
        "Mehrere Authorization-Header.": (
            "Mehrere Authorization-Header: genau einen Header 'Authorization: Bearer <token>' "
            "senden."
        ),
    }.get(description, "Token ungültig oder abgelaufen.")
    raise ApiProblem(401, [FieldError("Authorization", message)], {"WWW-Authenticate": challenge})


def require(scope_needed: Scope) -> Callable[[Request, Principal], Principal]:
    """A dependency: the caller, who must hold `scope_needed` (403 otherwise)."""

    def dependency(
        request: Request, principal: Annotated[Principal, Depends(current_principal)]
    ) -> Principal:
        if principal.has_scope(scope_needed):
            return principal
        challenge = insufficient_scope_challenge(request.scope, MCP_PATH, scope_needed.value)
        message = missing_scope_message(scope_needed.value)
        raise ApiProblem(
            403, [FieldError("Authorization", message)], {"WWW-Authenticate": challenge}
        )

    return dependency
