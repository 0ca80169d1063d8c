"""The resource server's side: bearer tokens of the MCP endpoint and the REST API.

An access token of Brain's authorization server (header `typ: at+jwt`) is verified with the
OAuth signing key and must name this server as issuer and one of its resources as audience
(`<root>/mcp` or `<root>/api`, the root as this request addressed the server): a token issued
for another resource is refused (RFC 8707, MCP authorization §Token Audience Binding). Any
other token (local HS256, OIDC/Cognito) goes to the verifier configured before, unchanged.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Collection
from typing import Final, Protocol

from starlette.datastructures import Headers
from starlette.types import Scope

from shared.auth.claims import TokenVerifier
from shared.auth.principal import Principal
from shared.server.auth_middleware import AmbiguousCredentials, MissingCredentials, public_root

ACCESS_TOKEN_TYPE: Final = "at+jwt"  # noqa: S105 (a media type, not a secret)
MCP_RESOURCE_PATH: Final = "/mcp"
REST_RESOURCE_PATH: Final = "/api"


def resources_of(root: str) -> tuple[str, str]:
    """This server's resources (RFC 8707) as a request addressed it: MCP first."""
    return f"{root}{MCP_RESOURCE_PATH}", f"{root}{REST_RESOURCE_PATH}"


def is_access_token(token: str) -> bool:
    """Whether `token` claims to be one of Brain's access tokens (JOSE header `typ: at+jwt`);
    unverified, read without PyJWT."""
    head = token.split(".", 1)[0]
    if not head or len(head) > 2000:
        return False
    try:
        header = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return False
    return isinstance(header, dict) and str(header.get("typ", "")).lower() == ACCESS_TOKEN_TYPE


def bearer_token(scope: Scope) -> str:
    values = Headers(scope=scope).getlist("authorization")
    if len(values) > 1:
        raise AmbiguousCredentials
    scheme, _, token = (values[0] if values else "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise MissingCredentials
    return token.strip()


class AccessTokenVerifier(Protocol):
    """What the resolver needs of `tokens.AccessTokenSigner`, named here, not imported:
    tokens.py imports this module, and PyJWT loads with the first token verified."""

    def verify(self, token: str, issuers: Collection[str], audiences: Collection[str]) -> Principal:
        """The principal of a valid access token; raises InvalidToken otherwise."""
        ...


class OAuthAwareResolver:
    """Brain's access tokens by the OAuth key, everything else by `fallback`."""

    def __init__(
        self, signer: Callable[[], AccessTokenVerifier], fallback: TokenVerifier | None
    ) -> None:
        self._signer = signer  # a provider: on Lambda the key is read on first use
        self.fallback = fallback

    def resolve(self, scope: Scope) -> Principal:
        token = bearer_token(scope)
        if is_access_token(token) or self.fallback is None:
            root = public_root(scope)
            return self._signer().verify(token, (root,), resources_of(root))
        return self.fallback.verify(token)
