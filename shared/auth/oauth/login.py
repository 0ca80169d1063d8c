"""Signing in on the authorization server: who the browser's user is.

- Local users (`brain user add`): the password is checked against its Argon2id hash
  (argon2-cffi, RFC 9106 defaults); a wrong user and a wrong password read the same and take
  the same time (a dummy hash is verified for unknown users).
- A Brain bearer token (the one `brain serve` prints, or one from `brain token`): its
  principal signs in, capped at the token's own expiry.
- An upstream OIDC provider (Cognito or any): see `upstream.py`.
The identity is Brain's model, through `principal_from_claims` wherever claims are involved.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

import jwt

from shared.auth.claims import InvalidToken, TokenVerifier
from shared.auth.oauth.records import Identity, LocalUser
from shared.auth.oauth.state import OAuthState
from shared.auth.principal import ALL_SCOPES

if TYPE_CHECKING:
    from argon2 import PasswordHasher

MIN_PASSWORD: Final = 10
MAX_PASSWORD: Final = 1024
_hasher: PasswordHasher | None = None
_hasher_lock = threading.Lock()
_dummy_hash: str = ""


class LoginRefused(Exception):
    """Signing in failed; the message is the page's (German) and says nothing about why."""


def _argon() -> PasswordHasher:
    global _hasher, _dummy_hash
    with _hasher_lock:
        if _hasher is None:
            from argon2 import PasswordHasher

            _hasher = PasswordHasher()
            _dummy_hash = _hasher.hash("brain-dummy-password")
        return _hasher


def hash_password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ValueError(f"Das Passwort hat {MIN_PASSWORD} bis {MAX_PASSWORD} Zeichen.")
    return _argon().hash(password)


def check_password(user: LocalUser | None, password: str) -> bool:
    from argon2.exceptions import InvalidHashError, VerificationError

    hasher = _argon()
    try:
        return hasher.verify(
            user.password_hash if user else _dummy_hash, password[:MAX_PASSWORD]
        ) and (user is not None)
    except (VerificationError, InvalidHashError):
        return False


def new_user(
    username: str,
    password: str,
    *,
    tenant: str,
    nutzer: Iterable[str],
    agents: Iterable[str],
    scopes: Iterable[str],
    teams: Iterable[str] = (),
    projects: Iterable[str] = (),
) -> LocalUser:
    chosen = tuple(sorted(set(scopes)))
    unknown = sorted(set(chosen) - set(ALL_SCOPES))
    if unknown:
        raise ValueError(f"Unbekannte Scopes: {', '.join(unknown)}")
    if not username or len(username) > 100 or not username.isprintable() or " " in username:
        raise ValueError("Der Nutzername hat 1 bis 100 druckbare Zeichen ohne Leerzeichen.")
    return LocalUser(
        username=username,
        password_hash=hash_password(password),
        tenant=tenant,
        nutzer=tuple(sorted(set(nutzer))),
        agents=tuple(sorted(set(agents))),
        scopes=chosen,
        teams=tuple(sorted(set(teams))),
        projects=tuple(sorted(set(projects))),
        created_at=int(time.time()),
    )


def local_user_login(state: OAuthState, username: str, password: str) -> Identity:
    user = state.get_user(username[:100]) if username else None
    if not check_password(user, password or ""):
        raise LoginRefused("Anmeldung fehlgeschlagen: Nutzername oder Passwort stimmt nicht.")
    assert user is not None
    return user.identity()


def token_login(verifier: TokenVerifier, token: str) -> Identity:
    """The identity of a Brain bearer token (not of an OAuth access token: a client's token
    must not open further connections)."""
    token = token.strip()
    try:
        principal = verifier.verify(token)
        expires = int(jwt.decode(token, options={"verify_signature": False}).get("exp", 0))
    except (InvalidToken, jwt.PyJWTError, ValueError, TypeError) as exc:
        raise LoginRefused(
            "Anmeldung fehlgeschlagen: Das Token ist ungültig oder abgelaufen."
        ) from exc
    return Identity.of(principal, label=principal.subject, source="token", not_after=expires)


def current_local_identity(state: OAuthState, identity: Identity) -> Identity | None:
    """At refresh: a local user's identity as the user record says now (None: removed);
    other identities unchanged."""
    if identity.source != "local-user":
        return identity
    username = identity.label
    user = state.get_user(username)
    if user is None or user.subject != identity.subject:
        return None
    return user.identity()
