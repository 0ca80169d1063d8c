"""Driving Brain's authorization server as a browser and a client would, over HTTP.

`browser_authorize` plays the user in a plain HTTP client with a cookie jar: it follows
/authorize to the login page, signs in with a Brain token (or a local user's password),
and answers the consent page. The pages are parsed like a browser would read them (their
hidden form fields); nothing is taken from the server's internals.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx2

CLAUDE_CODE_CIMD = "https://claude.ai/oauth/claude-code-client-metadata"
# The shape of Claude Code's published client metadata document (portless loopback redirects:
# Claude Code listens on an ephemeral port).
CLAUDE_CODE_DOCUMENT: dict[str, Any] = {
    "client_id": CLAUDE_CODE_CIMD,
    "client_name": "Claude Code",
    "client_uri": "https://claude.ai",
    "redirect_uris": ["http://localhost/callback", "http://127.0.0.1/callback"],
    "grant_types": ["authorization_code", "refresh_token"],
    "response_types": ["code"],
    "token_endpoint_auth_method": "none",
}
CLAUDE_AI_CALLBACK = "https://claude.ai/api/mcp/auth_callback"


def provider_user(sub: str, team: str) -> Any:
    """A user of the upstream provider mock whose claims carry Brain's identity model."""
    from oidc_provider_mock import User

    claims = {
        "email": "anna@acme.example",
        "tenant": "acme",
        "nutzer": ["anna"],
        "teams": [team],
        "agent": ["*"],
    }
    return User(sub=sub, claims=claims)


CHATGPT_CALLBACK = "https://chatgpt.com/connector/oauth/abc123"


@dataclass(frozen=True)
class Pkce:
    verifier: str
    challenge: str

    @classmethod
    def new(cls) -> Pkce:
        verifier = secrets.token_urlsafe(48)
        digest = hashlib.sha256(verifier.encode()).digest()
        return cls(verifier, base64.urlsafe_b64encode(digest).decode().rstrip("="))


def form_fields(page: str, form_id: str) -> dict[str, str]:
    """The hidden fields of the form `form_id` on an HTML page."""
    match = re.search(rf'<form[^>]*id="{form_id}".*?</form>', page, flags=re.DOTALL)
    assert match, f"form {form_id} missing on the page"
    fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', match.group(0))
    return {name: html.unescape(value) for name, value in fields}


def query_of(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query)


async def register(http: httpx2.AsyncClient, redirect_uris: list[str], **extra: Any) -> str:
    answer = await http.post(
        "/register",
        json={
            "redirect_uris": redirect_uris,
            "token_endpoint_auth_method": "none",
            "client_name": "Test client",
            **extra,
        },
    )
    assert answer.status_code == 201, answer.text
    client_id: str = answer.json()["client_id"]
    return client_id


def authorize_url(
    base: str, client_id: str, redirect_uri: str, pkce: Pkce | None, **extra: str
) -> str:
    params = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": redirect_uri,
        "state": "st-1",
        **extra,
    }
    if pkce is not None:
        params |= {"code_challenge": pkce.challenge, "code_challenge_method": "S256"}
    return f"{base}/authorize?{urlencode(params)}"


async def browser_authorize(
    browser: httpx2.AsyncClient,
    url: str,
    *,
    token: str = "",
    password: tuple[str, str] | None = None,
    decision: str = "allow",
    scopes: list[str] | None = None,
) -> str:
    """The client redirect (with code or error) a user produces by signing in and deciding."""
    answer = await browser.get(url)
    while answer.status_code in (302, 303) and answer.headers["location"].startswith("/oauth/"):
        location = answer.headers["location"]
        if location.startswith("/oauth/login"):
            page = (await browser.get(location)).text
            if password is not None:
                fields = form_fields(page, "password-login")
                fields |= {"username": password[0], "password": password[1]}
            else:
                fields = form_fields(page, "token-login") | {"token": token}
            answer = await browser.post("/oauth/login", data=fields)
        elif location.startswith("/oauth/consent"):
            page = (await browser.get(location)).text
            fields = form_fields(page, "consent")
            chosen = (
                scopes if scopes is not None else re.findall(r'name="scope" value="([^"]+)"', page)
            )
            body = [*fields.items(), ("decision", decision), *(("scope", s) for s in chosen)]
            answer = await browser.post(
                "/oauth/consent",
                content=urlencode(body),
                headers={"Content-Type": "application/x-www-form-urlencoded"},
            )
        else:
            answer = await browser.get(location)
    assert answer.status_code in (302, 303), (answer.status_code, answer.text[:500])
    return answer.headers["location"]


async def exchange(
    http: httpx2.AsyncClient,
    client_id: str,
    code: str,
    redirect_uri: str,
    verifier: str,
    **extra: str,
) -> httpx2.Response:
    return await http.post(
        "/token",
        data={
            "grant_type": "authorization_code",
            "client_id": client_id,
            "code": code,
            "redirect_uri": redirect_uri,
            "code_verifier": verifier,
            **extra,
        },
    )


async def refresh(
    http: httpx2.AsyncClient, client_id: str, token: str, **extra: str
) -> httpx2.Response:
    return await http.post(
        "/token",
        data={
            "grant_type": "refresh_token",
            "client_id": client_id,
            "refresh_token": token,
            **extra,
        },
    )
