"""Local signed tokens (HS256 JWT) for `brain serve`; the key lives in the data directory."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import jwt

from shared.auth.claims import ClaimMapping, InvalidToken, principal_from_claims
from shared.auth.principal import ALL_SCOPES, ANY, Principal
from shared.data_dir import prepare_data_dir

KEY_FILE = "token-signing.key"
ISSUER = "brain-local"
AUDIENCE = "brain"
ALGORITHM = "HS256"


def load_or_create_key(data_dir: Path, name: str = KEY_FILE) -> bytes:
    """The key `name` (default: the token signing key) of this data directory, 32 random
    bytes created (mode 0600) on first use."""
    path = prepare_data_dir(data_dir) / name
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return bytes.fromhex(path.read_text().strip())
    key = secrets.token_bytes(32)
    with os.fdopen(fd, "w") as handle:
        handle.write(key.hex())
    return key


class LocalTokenIssuer:
    """Issues and verifies the local server's tokens, with the configured claim names."""

    def __init__(self, key: bytes, mapping: ClaimMapping | None = None) -> None:
        self._key = key
        self._mapping = mapping or ClaimMapping()

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
        projects: Iterable[str] = (),
        profile: str = "",
        ttl_seconds: int,
    ) -> str:
        now = int(time.time())
        names = self._mapping
        claims: dict[str, Any] = {
            "iss": ISSUER,
            "aud": AUDIENCE,
            "iat": now,
            "exp": now + ttl_seconds,
            names.subject: subject,
            names.tenant: tenant,
            names.nutzer: sorted(set(nutzer)),
            names.agent: sorted(set(agents)),
            names.teams: sorted(set(teams)),
            names.scope: " ".join(sorted(set(scopes))),
            names.account: account,
            names.device: device,
            names.projects: sorted(set(projects)),
        }
        if profile:
            claims[names.profile] = profile
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
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.PyJWTError as exc:
            raise InvalidToken(type(exc).__name__) from exc
        return principal_from_claims(claims, self._mapping)
