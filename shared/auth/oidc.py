"""Verification of JWTs from any OIDC issuer (e.g. Cognito) against its JWKS.

PyJWT (with cryptography, ~70 ms of imports) loads with the first token verified, not when
the verifier is built: on Lambda, API Gateway's JWT authorizer verifies the tokens and this
verifier is only the router's and the REST function's fallback for a route without one.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Protocol

from shared.auth.claims import ClaimMapping, InvalidToken, principal_from_claims
from shared.auth.principal import Principal

# How long fetched signing keys are trusted before the JWKS is read again.
JWKS_CACHE_SECONDS = 300


class SigningKeys(Protocol):
    def get_signing_key_from_jwt(self, token: str) -> Any: ...


class RemoteSigningKeys:
    """The issuer's JWKS (PyJWT's `PyJWKClient`, keys cached), built on first use."""

    def __init__(self, jwks_url: str) -> None:
        self._url = jwks_url
        self._client: SigningKeys | None = None
        self._lock = threading.Lock()

    def get_signing_key_from_jwt(self, token: str) -> Any:
        with self._lock:
            if self._client is None:
                import jwt

                self._client = jwt.PyJWKClient(
                    self._url, cache_keys=True, lifespan=JWKS_CACHE_SECONDS, timeout=5
                )
        return self._client.get_signing_key_from_jwt(token)


class OidcVerifier:
    def __init__(
        self,
        *,
        issuer: str,
        audience: str,
        keys: SigningKeys,
        mapping: ClaimMapping,
        algorithms: Sequence[str] = ("RS256",),
        leeway_seconds: int = 30,
    ) -> None:
        self._issuer = issuer
        self._audience = audience
        self._keys = keys
        self._mapping = mapping
        self._algorithms = list(algorithms)
        self._leeway = leeway_seconds

    @classmethod
    def from_jwks_url(
        cls, *, jwks_url: str, issuer: str, audience: str, mapping: ClaimMapping
    ) -> OidcVerifier:
        keys = RemoteSigningKeys(jwks_url)
        return cls(issuer=issuer, audience=audience, keys=keys, mapping=mapping)

    def verify(self, token: str) -> Principal:
        import jwt

        try:
            signing_key = self._keys.get_signing_key_from_jwt(token)
            claims = jwt.decode(
                token,
                signing_key.key,
                algorithms=self._algorithms,
                issuer=self._issuer,
                leeway=self._leeway,
                options={"require": ["exp", "iss", "sub"], "verify_aud": False},
            )
        except jwt.PyJWTError as exc:  # includes PyJWKClientError (unknown kid, JWKS unreachable)
            raise InvalidToken(type(exc).__name__) from exc
        if not self._audience_matches(claims):
            raise InvalidToken("InvalidAudienceError")
        return principal_from_claims(claims, self._mapping)

    def _audience_matches(self, claims: dict[str, Any]) -> bool:
        """`aud` (ID tokens) or `client_id` (Cognito access tokens carry no `aud`)."""
        audience = claims.get("aud")
        audiences = audience if isinstance(audience, list) else [audience]
        return self._audience in audiences or claims.get("client_id") == self._audience
