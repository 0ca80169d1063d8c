"""The caller behind API Gateway: the claims its JWT authorizer verified (router and REST)."""

from __future__ import annotations

from starlette.types import Scope

from shared.auth.claims import ClaimMapping, principal_from_claims
from shared.auth.principal import Principal
from shared.lambda_runtime.payloads import authorizer_claims
from shared.server.auth_middleware import MissingCredentials, PrincipalResolver


class GatewayClaimsResolver:
    """The principal from the claims API Gateway's JWT authorizer verified; without them
    (a route without authorizer), an optional in-app bearer verification."""

    def __init__(self, mapping: ClaimMapping, fallback: PrincipalResolver | None) -> None:
        self.mapping = mapping
        self.fallback = fallback

    def resolve(self, scope: Scope) -> Principal:
        claims = authorizer_claims(scope.get("aws.event") or {})
        if claims is not None:
            return principal_from_claims(claims, self.mapping)
        if self.fallback is not None:
            return self.fallback.resolve(scope)
        raise MissingCredentials
