"""Choose the token verifier from the settings: OIDC issuer if configured, else local keys."""

from __future__ import annotations

from shared.auth.claims import TokenVerifier
from shared.auth.local_tokens import LocalTokenIssuer, load_or_create_key
from shared.auth.oidc import OidcVerifier
from shared.config import Settings


def local_issuer(settings: Settings) -> LocalTokenIssuer:
    return LocalTokenIssuer(load_or_create_key(settings.data_dir), settings.claim_mapping)


def build_verifier(settings: Settings) -> TokenVerifier:
    if settings.oidc_issuer and settings.oidc_audience and settings.jwks_url:
        return OidcVerifier.from_jwks_url(
            jwks_url=settings.jwks_url,
            issuer=settings.oidc_issuer,
            audience=settings.oidc_audience,
            mapping=settings.claim_mapping,
        )
    return local_issuer(settings)
