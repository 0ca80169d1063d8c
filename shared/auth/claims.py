"""One mapping from token claims to the principal, used by every entry point.

Local tokens, OIDC tokens verified in the app and the claims an API Gateway JWT authorizer
passes on all resolve through `principal_from_claims` with the configured claim names.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from shared.auth.principal import Principal


class InvalidToken(Exception):
    """The token is missing, malformed, expired, not for us, or not signed by a trusted key."""


class TokenVerifier(Protocol):
    def verify(self, token: str) -> Principal:
        """The principal of a valid token; InvalidToken otherwise."""
        ...


@dataclass(frozen=True)
class ClaimMapping:
    tenant: str = "tenant"
    subject: str = "sub"
    nutzer: str = "nutzer"
    agent: str = "agent"
    teams: str = "teams"
    scope: str = "scope"
    account: str = "account"
    device: str = "device"
    projects: str = "projects"
    profile: str = "profile"


def _names(value: Any) -> frozenset[str]:
    """A claim holding several names: JSON list, or a space/comma separated string.

    API Gateway passes list claims as strings like "[a b]"; those are unwrapped too.
    """
    if isinstance(value, list | tuple):
        return frozenset(str(item) for item in value if str(item))
    if isinstance(value, int) and not isinstance(value, bool):
        return frozenset({str(value)})
    if not isinstance(value, str):
        return frozenset()
    text = value.strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):  # not JSON, huge integers, deep nesting
            text = text[1:-1]
        else:
            return _names(parsed)
    return frozenset(part for part in text.replace(",", " ").split() if part)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


def principal_from_claims(claims: Mapping[str, Any], mapping: ClaimMapping) -> Principal:
    tenant = _text(claims.get(mapping.tenant)).strip()
    if not tenant:
        raise InvalidToken(f"missing claim {mapping.tenant!r}")
    subject = _text(claims.get(mapping.subject)).strip()
    if not subject:
        raise InvalidToken(f"missing claim {mapping.subject!r}")
    return Principal(
        tenant=tenant,
        subject=subject,
        nutzer=_names(claims.get(mapping.nutzer)),
        agents=_names(claims.get(mapping.agent)),
        scopes=_names(claims.get(mapping.scope)),
        teams=_names(claims.get(mapping.teams)),
        account=_text(claims.get(mapping.account)),
        device=_text(claims.get(mapping.device)),
        projects=_names(claims.get(mapping.projects)),
        profile=_text(claims.get(mapping.profile)).strip().casefold(),
    )
