"""Tokens of an OIDC issuer (e.g. Cognito), verified in the app against the issuer's JWKS.

The JWKS is served over real HTTP on loopback, so the production key-fetching path runs.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from shared.auth.claims import ClaimMapping, InvalidToken
from shared.auth.oidc import OidcVerifier
from shared.auth.verifiers import build_verifier
from shared.config import Settings

ISSUER = "https://cognito-idp.eu-central-1.amazonaws.com/eu-central-1_Example"
CLIENT_ID = "brain-client"


def rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


TRUSTED = rsa_key()
UNTRUSTED = rsa_key()


@pytest.fixture(scope="module")
def jwks_url() -> Iterator[str]:
    jwk = json.loads(RSAAlgorithm.to_jwk(TRUSTED.public_key()))
    body = json.dumps({"keys": [{**jwk, "kid": "k1", "use": "sig", "alg": "RS256"}]}).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/.well-known/jwks.json"
    server.shutdown()


def token(key: rsa.RSAPrivateKey = TRUSTED, kid: str = "k1", **overrides: Any) -> str:
    now = int(time.time())
    claims: dict[str, Any] = {
        "iss": ISSUER,
        "sub": "user-123",
        "client_id": CLIENT_ID,
        "token_use": "access",
        "iat": now,
        "exp": now + 600,
        "custom:tenant": "acme",
        "custom:nutzer": "anna,bruno",
        "custom:agent": "bot",
        "cognito:groups": ["vertrieb"],
        "scope": "memory:read brain:read",
    }
    claims.update(overrides)
    return jwt.encode(claims, key, algorithm="RS256", headers={"kid": kid})


COGNITO_MAPPING = ClaimMapping(
    tenant="custom:tenant", nutzer="custom:nutzer", agent="custom:agent", teams="cognito:groups"
)


@pytest.fixture
def verifier(jwks_url: str) -> OidcVerifier:
    return OidcVerifier.from_jwks_url(
        jwks_url=jwks_url, issuer=ISSUER, audience=CLIENT_ID, mapping=COGNITO_MAPPING
    )


def test_cognito_access_token_maps_to_the_principal(verifier: OidcVerifier) -> None:
    principal = verifier.verify(token())
    assert principal.tenant == "acme"
    assert principal.subject == "user-123"
    assert principal.nutzer == frozenset({"anna", "bruno"})
    assert principal.agents == frozenset({"bot"})
    assert principal.teams == frozenset({"vertrieb"})
    assert principal.scopes == frozenset({"memory:read", "brain:read"})


def test_id_token_audience_is_accepted(verifier: OidcVerifier) -> None:
    assert verifier.verify(token(aud=CLIENT_ID, client_id=None)).tenant == "acme"


@pytest.mark.parametrize(
    "bad",
    [
        {"key": UNTRUSTED},
        {"kid": "unknown-kid"},
        {"iss": "https://evil.example"},
        {"client_id": "other-client"},
        {"client_id": None, "aud": "other-client"},
        {"exp": int(time.time()) - 3600},
        {"custom:tenant": None},
    ],
    ids=[
        "foreign key",
        "unknown kid",
        "wrong issuer",
        "wrong client",
        "wrong audience",
        "expired",
        "no tenant",
    ],
)
def test_bad_oidc_tokens_are_refused(verifier: OidcVerifier, bad: dict[str, Any]) -> None:
    key = bad.pop("key", TRUSTED)
    kid = bad.pop("kid", "k1")
    with pytest.raises(InvalidToken):
        verifier.verify(token(key, kid, **bad))


def test_settings_choose_oidc_with_the_configured_claim_names(jwks_url: str) -> None:
    settings = Settings(
        oidc_issuer=ISSUER,
        oidc_audience=CLIENT_ID,
        oidc_jwks_url=jwks_url,
        claim_tenant="custom:tenant",
        claim_nutzer="custom:nutzer",
        claim_agent="custom:agent",
    )
    verifier = build_verifier(settings)
    assert isinstance(verifier, OidcVerifier)
    assert verifier.verify(token()).nutzer == frozenset({"anna", "bruno"})


def test_issuer_without_audience_is_a_configuration_error() -> None:
    with pytest.raises(ValueError, match="oidc_audience"):
        Settings(oidc_issuer=ISSUER)
