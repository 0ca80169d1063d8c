"""Redirect URIs: which a client may register, which a request may use, and the profile
(`claude`, `chatgpt`) a client's identity implies.

Matching is exact (OAuth 2.1 §2.3.1) except for loopback redirects (RFC 8252 §7.3): an `http`
URI on a loopback host matches a registered one that differs only in its port, or whose port
is `*`. That is what Claude Code needs: its client metadata document registers
`http://localhost/callback` and it listens on an ephemeral port.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final
from urllib.parse import SplitResult, urlsplit

from fastmcp.server.auth.redirect_validation import is_loopback_host

MAX_REDIRECT_URIS: Final = 10
MAX_URI_LENGTH: Final = 2000
_UNSAFE_SCHEMES: Final = frozenset({"javascript", "data", "file", "vbscript", "blob", "about"})

# Client ID metadata documents of Claude (claude.ai, Desktop, Claude Code) and the hosted
# callbacks of Claude and ChatGPT (their published connector requirements).
CLAUDE_HOSTS: Final = frozenset({"claude.ai", "claude.com"})
CHATGPT_HOSTS: Final = frozenset({"chatgpt.com", "chat.openai.com"})
CLAUDE_CALLBACK_PATH: Final = "/api/mcp/auth_callback"
CHATGPT_CALLBACK_PATHS: Final = ("/connector_platform_oauth_redirect", "/connector/oauth/")


class RedirectRefused(ValueError):
    """A redirect URI that may not be registered; the message is German and echoes nothing."""


def _split(uri: str) -> SplitResult | None:
    try:
        parts = urlsplit(uri)
        _ = parts.port  # raises on a malformed port
    except ValueError:
        return None
    return parts


def check_registrable(uri: str, *, allow_port_wildcard: bool = False) -> None:
    """RedirectRefused unless `uri` may be a registered redirect URI: absolute, no fragment
    or user info, `https`, `http` only on a loopback host, or a private-use scheme of a
    native app; `*` only as a loopback port (client metadata documents)."""
    if not uri or len(uri) > MAX_URI_LENGTH or any(c.isspace() for c in uri):
        raise RedirectRefused("redirect_uris: jede Adresse ist ein absoluter URI ohne Leerzeichen")
    wildcard = allow_port_wildcard and ":*/" in uri
    parts = _split(uri.replace(":*/", ":1/", 1) if wildcard else uri)
    if parts is None or not parts.scheme:
        raise RedirectRefused("redirect_uris: kein gültiger absoluter URI")
    scheme = parts.scheme.lower()
    if parts.fragment or "#" in uri:
        raise RedirectRefused("redirect_uris: ein Redirect-URI hat kein Fragment (#)")
    if parts.username is not None or "\\" in parts.netloc:
        raise RedirectRefused("redirect_uris: ein Redirect-URI enthält keine Anmeldedaten")
    if "*" in uri.replace(":*/", "", 1 if wildcard else 0):
        raise RedirectRefused("redirect_uris: Platzhalter (*) sind nicht erlaubt")
    if scheme in _UNSAFE_SCHEMES:
        raise RedirectRefused("redirect_uris: dieses Schema ist als Redirect nicht erlaubt")
    if scheme in ("http", "https") and not parts.hostname:
        raise RedirectRefused("redirect_uris: ein http(s)-Redirect nennt einen Host")
    if scheme == "http" and not is_loopback_host(parts.hostname):
        raise RedirectRefused(
            "redirect_uris: http nur für Loopback (127.0.0.1, localhost, [::1]), sonst https"
        )
    if wildcard and not (scheme == "http" and is_loopback_host(parts.hostname)):
        raise RedirectRefused("redirect_uris: ein Port-Platzhalter nur für Loopback-Adressen")


def check_registrable_list(uris: Iterable[str], *, allow_port_wildcard: bool = False) -> None:
    listed = list(uris)
    if not listed:
        raise RedirectRefused("redirect_uris: mindestens ein Redirect-URI ist nötig")
    if len(listed) > MAX_REDIRECT_URIS:
        raise RedirectRefused(f"redirect_uris: höchstens {MAX_REDIRECT_URIS} Redirect-URIs")
    for uri in listed:
        check_registrable(uri, allow_port_wildcard=allow_port_wildcard)


def _same_but_port(requested: SplitResult, registered: str) -> bool:
    wildcard = ":*/" in registered
    parts = _split(registered.replace(":*/", ":1/", 1) if wildcard else registered)
    if parts is None:
        return False
    return (
        requested.scheme.lower() == "http"
        and parts.scheme.lower() == "http"
        and is_loopback_host(requested.hostname)
        and (requested.hostname or "").lower() == (parts.hostname or "").lower()
        and (requested.path or "/") == (parts.path or "/")
        and requested.query == parts.query
    )


def redirect_allowed(requested: str, registered: Iterable[str]) -> bool:
    """Whether `requested` is one of `registered` (loopback ports aside, see above)."""
    if not requested or len(requested) > MAX_URI_LENGTH:
        return False
    parts = _split(requested)
    if parts is None or parts.fragment or parts.username is not None or "*" in requested:
        return False
    return any(requested == uri or _same_but_port(parts, uri) for uri in registered)


def _host(uri: str) -> str:
    parts = _split(uri)
    return (parts.hostname or "").lower() if parts is not None else ""


def _https_on(uri: str, hosts: frozenset[str]) -> SplitResult | None:
    parts = _split(uri)
    if parts is None or parts.scheme != "https" or (parts.hostname or "").lower() not in hosts:
        return None
    return parts


def profile_of(client_id: str, redirect_uris: Iterable[str], *, cimd: bool) -> str:
    """The plugin profile a client's verifiable identity implies: its client metadata
    document's host (CIMD), else its hosted callbacks. Restrictions only: a client can add
    a plugin profile to itself, never remove one."""
    if cimd:
        host = _host(client_id)
        if host in CLAUDE_HOSTS:
            return "claude"
        if host in CHATGPT_HOSTS:
            return "chatgpt"
    uris = list(redirect_uris)
    for uri in uris:
        parts = _https_on(uri, CLAUDE_HOSTS)
        if parts is not None and parts.path == CLAUDE_CALLBACK_PATH:
            return "claude"
    for uri in uris:
        parts = _https_on(uri, CHATGPT_HOSTS)
        if parts is not None and parts.path.startswith(CHATGPT_CALLBACK_PATHS):
            return "chatgpt"
    return ""


def redirect_host(uri: str) -> str:
    """What the consent page names as the destination: the host, or the app's scheme."""
    parts = _split(uri)
    if parts is None:
        return ""
    if parts.scheme in ("http", "https"):
        return parts.netloc.lower()
    return f"{parts.scheme}:"


def origin(uri: str) -> str:
    """`scheme://host[:port]` of an http(s) URI, for the consent page's form-action."""
    parts = _split(uri)
    if parts is None or parts.scheme not in ("http", "https"):
        return ""
    return f"{parts.scheme}://{parts.netloc}"
