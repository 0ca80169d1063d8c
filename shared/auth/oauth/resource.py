"""The resource server's side: bearer tokens of the MCP endpoint and the REST API.

An access token of Brain's authorization server (header `typ: at+jwt`) is verified with the
OAuth signing key and must name this server as issuer and one of its resources as audience
(`<root>/mcp` or `<root>/api`, the root as this request addressed the server): a token issued
for another resource is refused (RFC 8707, MCP authorization §Token Audience Binding). Any
other token (local HS256, OIDC/Cognito) goes to the verifier configured before, unchanged.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.datastructures import Headers
from starlette.types import Scope

from shared.auth.claims import TokenVerifier
from shared.auth.oauth.server import resources_of
from shared.auth.oauth.tokens import AccessTokenSigner, is_access_token
from shared.auth.principal import Principal
from shared.server.auth_middleware import AmbiguousCredentials, MissingCredentials, public_root


def bearer_token(scope: Scope) -> str:
    values = Headers(scope=scope).getlist("authorization")
    if len(values) > 1:
        raise AmbiguousCredentials
    scheme, _, token = (values[0] if values else "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise MissingCredentials
    return token.strip()


class OAuthAwareResolver:
    """Brain's access tokens by the OAuth key, everything else by `fallback`."""

    def __init__(
        self, signer: Callable[[], AccessTokenSigner], fallback: TokenVerifier | None
    ) -> None:
        self._signer = signer  # a provider: on Lambda the key is read on first use
        self.fallback = fallback

    def resolve(self, scope: Scope) -> Principal:
        token = bearer_token(scope)
        if is_access_token(token) or self.fallback is None:
            root = public_root(scope)
            return self._signer().verify(token, (root,), resources_of(root))
        return self.fallback.verify(token)
