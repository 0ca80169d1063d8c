"""Login through an upstream OpenID Connect provider (Cognito, or any OIDC issuer).

Brain is an ordinary confidential (or public, without secret) client of the provider: the
authorization code flow with PKCE S256, `state` = the pending authorization's id, a `nonce`;
the callback `<root>/oauth/callback` exchanges the code server-side and verifies the ID token
(signature against the provider's JWKS, `iss`, `aud` = our client id, `exp`, `nonce`). Its
claims become Brain's identity through the configured claim mapping; when they name none of
Brain's scopes, the identity holds `default_scopes`. Upstream tokens are not kept: a
connection lives by Brain's own refresh tokens until `oauth_grant_max_age_s`.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import quote, urlencode

import anyio.to_thread
import httpx2

from shared.auth.claims import ClaimMapping, InvalidToken, principal_from_claims
from shared.auth.oauth.login import LoginRefused
from shared.auth.oauth.records import Identity
from shared.auth.oidc import RemoteSigningKeys
from shared.auth.principal import ALL_SCOPES

TIMEOUT_S: Final = 5.0
METADATA_CACHE_S: Final = 3600
CALLBACK_PATH: Final = "/oauth/callback"


@dataclass(frozen=True)
class UpstreamConfig:
    issuer: str
    client_id: str
    client_secret: str = ""
    scopes: str = "openid email profile"
    default_scopes: tuple[str, ...] = tuple(sorted(ALL_SCOPES))


@dataclass(frozen=True)
class UpstreamStart:
    url: str
    verifier: str
    nonce: str


class UpstreamProvider:
    def __init__(self, config: UpstreamConfig, mapping: ClaimMapping) -> None:
        self.config = config
        self.mapping = mapping
        self._metadata: dict[str, Any] | None = None
        self._metadata_at = 0.0
        self._keys: RemoteSigningKeys | None = None

    async def metadata(self) -> dict[str, Any]:
        if self._metadata is not None and time.monotonic() - self._metadata_at < METADATA_CACHE_S:
            return self._metadata
        url = self.config.issuer.rstrip("/") + "/.well-known/openid-configuration"
        try:
            async with httpx2.AsyncClient(timeout=TIMEOUT_S, follow_redirects=False) as client:
                response = await client.get(url)
            response.raise_for_status()
            metadata = response.json()
        except (httpx2.HTTPError, ValueError) as exc:
            raise LoginRefused("Der Anmeldedienst ist gerade nicht erreichbar.") from exc
        if not isinstance(metadata, dict) or metadata.get("issuer") != self.config.issuer:
            raise LoginRefused("Der Anmeldedienst meldet einen anderen Aussteller (issuer).")
        for field in ("authorization_endpoint", "token_endpoint", "jwks_uri"):
            if not isinstance(metadata.get(field), str):
                raise LoginRefused("Dem Anmeldedienst fehlen Endpunkte in seinen Metadaten.")
        self._metadata, self._metadata_at = metadata, time.monotonic()
        self._keys = RemoteSigningKeys(str(metadata["jwks_uri"]))
        return metadata

    async def start(self, tx_id: str, redirect_uri: str) -> UpstreamStart:
        metadata = await self.metadata()
        verifier = secrets.token_urlsafe(48)
        nonce = secrets.token_urlsafe(24)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
        query = urlencode(
            {
                "response_type": "code",
                "client_id": self.config.client_id,
                "redirect_uri": redirect_uri,
                "scope": self.config.scopes,
                "state": tx_id,
                "nonce": nonce,
                "code_challenge": challenge.decode().rstrip("="),
                "code_challenge_method": "S256",
            }
        )
        endpoint = str(metadata["authorization_endpoint"])
        joiner = "&" if "?" in endpoint else "?"
        return UpstreamStart(f"{endpoint}{joiner}{query}", verifier, nonce)

    async def finish(self, code: str, verifier: str, nonce: str, redirect_uri: str) -> Identity:
        metadata = await self.metadata()
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect_uri,
            "code_verifier": verifier,
            "client_id": self.config.client_id,
        }
        headers: dict[str, str] = {}
        if self.config.client_secret:  # client_secret_basic (RFC 6749 §2.3.1)
            client_id, secret = (
                quote(part, safe="") for part in (self.config.client_id, self.config.client_secret)
            )
            pair = f"{client_id}:{secret}"
            headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
        try:
            async with httpx2.AsyncClient(timeout=TIMEOUT_S, follow_redirects=False) as client:
                response = await client.post(
                    str(metadata["token_endpoint"]), data=form, headers=headers
                )
            tokens = response.json()
        except (httpx2.HTTPError, ValueError) as exc:
            raise LoginRefused("Der Anmeldedienst hat die Anmeldung nicht bestätigt.") from exc
        id_token = tokens.get("id_token") if isinstance(tokens, dict) else None
        if response.status_code != 200 or not isinstance(id_token, str):
            raise LoginRefused("Der Anmeldedienst hat die Anmeldung nicht bestätigt.")
        claims = await anyio.to_thread.run_sync(self._verified, id_token, nonce)
        return self.identity(claims)

    def _verified(self, id_token: str, nonce: str) -> dict[str, Any]:
        import jwt

        assert self._keys is not None
        try:
            key = self._keys.get_signing_key_from_jwt(id_token)
            claims: dict[str, Any] = jwt.decode(
                id_token,
                key.key,
                algorithms=["RS256", "ES256", "PS256"],
                audience=self.config.client_id,
                issuer=self.config.issuer,
                leeway=30,
                options={"require": ["exp", "iss", "aud", "sub"]},
            )
        except jwt.PyJWTError as exc:
            raise LoginRefused("Die Anmeldung ließ sich nicht prüfen (ID-Token).") from exc
        if claims.get("nonce") != nonce:
            raise LoginRefused("Die Anmeldung ließ sich nicht prüfen (nonce).")
        return claims

    def identity(self, claims: dict[str, Any]) -> Identity:
        try:
            principal = principal_from_claims(claims, self.mapping)
        except InvalidToken as exc:
            raise LoginRefused(
                "Das Konto beim Anmeldedienst trägt keinen Mandanten (Claim "
                f"{json.dumps(self.mapping.tenant)}): Brain kennt es nicht."
            ) from exc
        scopes = principal.scopes & ALL_SCOPES or frozenset(self.config.default_scopes)
        label = str(claims.get("email") or claims.get("preferred_username") or principal.subject)
        identity = Identity.of(principal, label=label[:200], source="oidc")
        return dataclasses.replace(identity, scopes=tuple(sorted(scopes)))
