"""The console's session: one cookie, sealed with AES-GCM, that the browser cannot read.

Invariants:
- The bearer token (and, signed in with a Brain account, its refresh token) lives only inside
  the sealed cookie (HttpOnly, SameSite=Lax, Secure over HTTPS, Path = the console's path):
  never in a URL, a page, a log or a script. The page talks to Brain by forms and links; the
  console's server side calls the REST API with it.
- Every session, signed in or not, carries a random CSRF token; every state-changing request
  (POST) must send it back in the form and come from the console's own origin (`Origin`,
  `Sec-Fetch-Site`), or it is refused before anything runs — sign-in included.
- A session lasts `SESSION_TTL_S` at most; a cookie that does not open (other key, tampered,
  expired) is an empty session. The key: `BRAIN_CONSOLE_SESSION_KEY` (any text of at least
  32 characters, stretched by HKDF), else for the local server a random key in the data
  directory (`console-session.key`, mode 0600), made on first use.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
import os
import secrets
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Final

from starlette.datastructures import Headers
from starlette.responses import Response

from shared.config import Settings
from shared.server.auth_middleware import public_base_url

COOKIE: Final = "brain_console"
KEY_FILE: Final = "console-session.key"
SESSION_TTL_S: Final = 8 * 3600
LANGUAGES: Final = ("de", "en")
_NONCE: Final = 12
_VERSION: Final = 1


@dataclass(frozen=True)
class Session:
    csrf: str
    expires: int
    lang: str = "de"
    token: str | None = None
    nutzer: str = ""  # shown in the header only; every call is authorised by the token
    # Signed in with a Brain account (OAuth): the refresh token that renews `token`.
    refresh: str = ""
    # The OAuth sign-in under way: state, PKCE verifier, where to return.
    oauth: dict[str, str] = field(default_factory=dict)

    @classmethod
    def fresh(cls, lang: str = "de") -> Session:
        return cls(
            csrf=secrets.token_urlsafe(32), expires=int(time.time()) + SESSION_TTL_S, lang=lang
        )

    @property
    def signed_in(self) -> bool:
        return bool(self.token)

    def signed_in_with(self, token: str, nutzer: str, refresh: str = "") -> Session:
        """A new session (new CSRF token) for `token`: nothing of the old one carries over."""
        return replace(Session.fresh(self.lang), token=token, nutzer=nutzer, refresh=refresh)


class SessionCipher:
    """Seals and opens session cookies (AES-256-GCM, the cookie name as associated data).
    `cryptography` is imported on first use: the REST function's cold start stays free of it
    (tests/lambda_functions/test_imports.py)."""

    def __init__(self, key: bytes) -> None:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        self._aead = AESGCM(key)

    def seal(self, session: Session) -> str:
        nonce = os.urandom(_NONCE)
        payload = json.dumps({"v": _VERSION, **asdict(session)}, separators=(",", ":"))
        sealed = nonce + self._aead.encrypt(nonce, payload.encode(), COOKIE.encode())
        return base64.urlsafe_b64encode(sealed).decode().rstrip("=")

    def open(self, value: str | None) -> Session | None:
        from cryptography.exceptions import InvalidTag

        if not value:
            return None
        try:
            raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
            plain = self._aead.decrypt(raw[:_NONCE], raw[_NONCE:], COOKIE.encode())
            data: dict[str, Any] = json.loads(plain)
        except (ValueError, InvalidTag, binascii.Error, UnicodeDecodeError):
            return None
        if data.pop("v", None) != _VERSION:
            return None
        try:
            session = Session(**data)
        except TypeError:
            return None
        if session.expires < time.time() or session.lang not in LANGUAGES:
            return None
        return session


def _stretch(secret: bytes) -> bytes:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return HKDF(
        algorithm=hashes.SHA256(), length=32, salt=None, info=b"brain-console-session"
    ).derive(secret)


def session_cipher(settings: Settings) -> SessionCipher | None:
    """The configured key's cipher; None when there is none (AWS without the setting)."""
    configured = settings.console_session_key
    if configured is not None:
        return SessionCipher(_stretch(configured.get_secret_value().encode()))
    if settings.backend == "sqlite":
        from shared.auth.local_tokens import load_or_create_key

        return SessionCipher(load_or_create_key(settings.data_dir, KEY_FILE))
    return None


def is_https(scope: dict[str, Any]) -> bool:
    return public_base_url(scope).startswith("https://")


def store(
    response: Response, cipher: SessionCipher, session: Session, scope: Any, path: str
) -> None:
    """Set the session cookie on `response`."""
    response.set_cookie(
        COOKIE,
        cipher.seal(session),
        max_age=max(0, session.expires - int(time.time())),
        path=path,
        secure=is_https(scope),
        httponly=True,
        samesite="lax",
    )


def same_origin(scope: Any) -> bool:
    """Whether a request comes from the console's own pages (Fetch Metadata and Origin)."""
    headers = Headers(scope=scope)
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = headers.get("origin")
    return origin is None or origin == public_base_url(scope)


def csrf_valid(session: Session, sent: str | None) -> bool:
    return bool(sent) and hmac.compare_digest(session.csrf.encode(), (sent or "").encode())
