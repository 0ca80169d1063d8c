"""Choose the token verifier from the settings: OIDC issuer if configured, else local keys.

Each verifier's module is imported when it is chosen: a Lambda function with an OIDC issuer
never loads the local keys' code (nor PyJWT, which the OIDC verifier loads on first use)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shared.auth.claims import TokenVerifier
    from shared.auth.local_tokens import LocalTokenIssuer
    from shared.config import Settings


def local_issuer(settings: Settings) -> LocalTokenIssuer:
    from shared.auth.local_tokens import LocalTokenIssuer, load_or_create_key

    return LocalTokenIssuer(load_or_create_key(settings.data_dir), settings.claim_mapping)


def build_verifier(settings: Settings) -> TokenVerifier:
    if settings.oidc_issuer and settings.oidc_audience and settings.jwks_url:
        from shared.auth.oidc import OidcVerifier

        return OidcVerifier.from_jwks_url(
            jwks_url=settings.jwks_url,
            issuer=settings.oidc_issuer,
            audience=settings.oidc_audience,
            mapping=settings.claim_mapping,
        )
    return local_issuer(settings)
