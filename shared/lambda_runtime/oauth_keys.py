"""Bearer tokens behind API Gateway once Brain is its own authorization server.

The MCP and REST routes have no JWT authorizer (it accepts one issuer; Brain has two: its own
authorization server and the OIDC provider of pasted tokens), so the functions verify here:
Brain's access tokens with the OAuth signing key (Secrets Manager, read on first use, after
any SnapStart restore), every other token with the OIDC verifier (JWKS). A route that still
has the JWT authorizer passes its claims on as before.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from shared.auth.oauth.resource import OAuthAwareResolver
from shared.auth.verifiers import build_verifier
from shared.config import Settings
from shared.lambda_runtime.gateway_auth import GatewayClaimsResolver
from shared.lambda_runtime.snapstart import aws_session
from shared.server.auth_middleware import BearerTokenResolver, PrincipalResolver

if TYPE_CHECKING:
    from shared.auth.oauth.tokens import AccessTokenSigner


def self_authorizing(settings: Settings) -> bool:
    """Brain's authorization server is deployed (its signing secret is configured)."""
    return settings.oauth_enabled and bool(settings.oauth_signing_secret_arn)


@cache
def signer() -> AccessTokenSigner:
    """The signer of the access tokens, built with the first one verified (PyJWT with it)."""
    from shared.auth.oauth.factory import signing_key
    from shared.auth.oauth.tokens import AccessTokenSigner

    settings = Settings()
    key = signing_key(settings, aws_session().client("secretsmanager"))
    return AccessTokenSigner(key, settings.claim_mapping)


def reset() -> None:
    """Forget the key (tests)."""
    signer.cache_clear()


def bearer_resolver(settings: Settings) -> GatewayClaimsResolver:
    verifier = build_verifier(settings) if settings.oidc_issuer else None
    fallback: PrincipalResolver | None = None
    if self_authorizing(settings):
        fallback = OAuthAwareResolver(signer, verifier)
    elif verifier is not None:
        fallback = BearerTokenResolver(verifier)
    return GatewayClaimsResolver(settings.claim_mapping, fallback)
