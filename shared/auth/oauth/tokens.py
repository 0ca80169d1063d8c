"""Access tokens of the authorization server: HS256 JWTs of type `at+jwt` (RFC 9068).

Claims: `iss` (the server's public root), `aud` (the resource, RFC 8707), `sub`, `client_id`,
`jti`, `iat`, `exp`, `scope`, the grant (`gid`, for revocation by access token) and Brain's
identity model under the configured claim names (`principal_from_claims` reads them back).
The key is the data directory's `oauth-signing.key` (local) or a Secrets Manager secret
(AWS), shared by the authorization function and every function that verifies.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Collection
from typing import Any, Final

import jwt

from shared.auth.claims import ClaimMapping, InvalidToken, principal_from_claims
from shared.auth.oauth.records import GrantRecord
from shared.auth.oauth.resource import ACCESS_TOKEN_TYPE, is_access_token
from shared.auth.principal import Principal

ALGORITHM: Final = "HS256"
KEY_FILE: Final = "oauth-signing.key"
MIN_KEY_BYTES: Final = 32


def new_secret(prefix: str) -> str:
    """A fresh code, refresh token, client secret or transaction id (256 random bits)."""
    return f"{prefix}{secrets.token_urlsafe(32)}"


class AccessTokenSigner:
    def __init__(self, key: bytes, mapping: ClaimMapping) -> None:
        if len(key) < MIN_KEY_BYTES:
            raise ValueError("OAuth signing key must have at least 32 bytes")
        self._key = key
        self._mapping = mapping

    def issue(self, grant: GrantRecord, ttl_seconds: int, now: int | None = None) -> str:
        now = int(time.time()) if now is None else now
        identity = grant.identity
        names = self._mapping
        claims: dict[str, Any] = {
            "iss": grant.issuer,
            "aud": grant.resource,
            "iat": now,
            "exp": now + ttl_seconds,
            "jti": secrets.token_urlsafe(16),
            "client_id": grant.client_id,
            "gid": grant.grant_id,
            names.subject: identity.subject,
            names.tenant: identity.tenant,
            names.nutzer: list(identity.nutzer),
            names.agent: list(identity.agents),
            names.teams: list(identity.teams),
            names.projects: list(identity.projects),
            names.scope: " ".join(grant.scopes),
            names.account: identity.account,
            names.device: f"oauth:{grant.client_name or grant.client_id}"[:200],
        }
        if grant.profile:
            claims[names.profile] = grant.profile
        return jwt.encode(
            claims, self._key, algorithm=ALGORITHM, headers={"typ": ACCESS_TOKEN_TYPE}
        )

    def claims(
        self, token: str, issuers: Collection[str], audiences: Collection[str]
    ) -> dict[str, Any]:
        """The verified claims of an access token for one of `audiences` from one of
        `issuers`; InvalidToken otherwise (wrong audience included)."""
        if not is_access_token(token):
            raise InvalidToken("not an access token")
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                self._key,
                algorithms=[ALGORITHM],
                options={"require": ["exp", "iss", "aud", "sub"], "verify_aud": False},
            )
        except jwt.PyJWTError as exc:
            raise InvalidToken(type(exc).__name__) from exc
        if claims.get("iss") not in issuers:
            raise InvalidToken("InvalidIssuerError")
        audience = claims.get("aud")
        named = audience if isinstance(audience, list) else [audience]
        if not any(item in audiences for item in named):
            raise InvalidToken("InvalidAudienceError")
        return claims

    def verify(self, token: str, issuers: Collection[str], audiences: Collection[str]) -> Principal:
        return principal_from_claims(self.claims(token, issuers, audiences), self._mapping)


SESSION_TYPE: Final = "brain-session+jwt"
SESSION_AUDIENCE: Final = "brain-oauth-session"


class SessionSigner:
    """The sign-in session cookie: a short-lived JWT holding the signed-in identity, so a
    second authorization in the same browser needs no second login. Its own type and audience:
    it is never accepted as an access token, nor an access token as a session."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def issue(self, identity_doc: dict[str, Any], issuer: str, ttl_seconds: int) -> str:
        now = int(time.time())
        claims = {
            "iss": issuer,
            "aud": SESSION_AUDIENCE,
            "iat": now,
            "exp": now + ttl_seconds,
            "idn": identity_doc,
        }
        return jwt.encode(claims, self._key, algorithm=ALGORITHM, headers={"typ": SESSION_TYPE})

    def identity_doc(self, token: str, issuer: str) -> dict[str, Any] | None:
        try:
            header = jwt.get_unverified_header(token)
            if header.get("typ") != SESSION_TYPE:
                return None
            claims = jwt.decode(
                token,
                self._key,
                algorithms=[ALGORITHM],
                audience=SESSION_AUDIENCE,
                issuer=issuer,
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.PyJWTError:
            return None
        doc = claims.get("idn")
        return doc if isinstance(doc, dict) else None
