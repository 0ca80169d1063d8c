"""Local signed tokens (HS256 JWT) for `brain serve`; the key lives in the data directory."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import jwt

from shared.auth.principal import ALL_SCOPES, ANY, Principal

KEY_FILE = "token-signing.key"
ISSUER = "brain-local"
AUDIENCE = "brain"
ALGORITHM = "HS256"


class InvalidToken(Exception):
    """The token is missing, malformed, expired, or not signed with this server's key."""


def load_or_create_key(data_dir: Path) -> bytes:
    """The signing key of this data directory, created (mode 0600) on first use."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / KEY_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return bytes.fromhex(path.read_text().strip())
    key = secrets.token_bytes(32)
    with os.fdopen(fd, "w") as handle:
        handle.write(key.hex())
    return key


class LocalTokenIssuer:
    def __init__(self, key: bytes) -> None:
        self._key = key

    def issue(
        self,
        *,
        tenant: str,
        subject: str,
        nutzer: Iterable[str],
        agents: Iterable[str],
        scopes: Iterable[str],
        teams: Iterable[str] = (),
        account: str = "",
        device: str = "",
        ttl_seconds: int,
    ) -> str:
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": ISSUER,
            "aud": AUDIENCE,
            "sub": subject,
            "iat": now,
            "exp": now + ttl_seconds,
            "tenant": tenant,
            "nutzer": sorted(set(nutzer)),
            "agent": sorted(set(agents)),
            "teams": sorted(set(teams)),
            "scope": " ".join(sorted(set(scopes))),
            "account": account,
            "device": device,
        }
        return jwt.encode(claims, self._key, algorithm=ALGORITHM)

    def development_token(self, ttl_seconds: int) -> str:
        return self.issue(
            tenant="local",
            subject="dev",
            nutzer=[ANY],
            agents=[ANY],
            scopes=ALL_SCOPES,
            account="local",
            device="brain-serve",
            ttl_seconds=ttl_seconds,
        )

    def verify(self, token: str) -> Principal:
        try:
            claims = jwt.decode(
                token,
                self._key,
                algorithms=[ALGORITHM],
                audience=AUDIENCE,
                issuer=ISSUER,
                options={"require": ["exp", "iss", "aud", "sub"]},
            )
        except jwt.PyJWTError as exc:
            raise InvalidToken(type(exc).__name__) from exc
        return principal_from_claims(claims)


def _str_list(value: Any) -> frozenset[str]:
    if isinstance(value, str):
        return frozenset(part for part in value.replace(",", " ").split() if part)
    if isinstance(value, list):
        return frozenset(str(item) for item in value)
    return frozenset()


def principal_from_claims(claims: dict[str, Any]) -> Principal:
    tenant = claims.get("tenant")
    if not isinstance(tenant, str) or not tenant:
        raise InvalidToken("missing tenant claim")
    return Principal(
        tenant=tenant,
        subject=str(claims.get("sub", "")),
        nutzer=_str_list(claims.get("nutzer")),
        agents=_str_list(claims.get("agent")),
        scopes=_str_list(claims.get("scope")),
        teams=_str_list(claims.get("teams")),
        account=str(claims.get("account", "")),
        device=str(claims.get("device", "")),
    )
