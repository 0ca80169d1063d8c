"""The events a tool Lambda accepts: the router's invoke payload, or an API Gateway HTTP API
(v2) request whose JWT the authorizer verified. Anything else is refused."""

from __future__ import annotations

import base64
import binascii
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from shared.auth.claims import ClaimMapping, InvalidToken, principal_from_claims
from shared.auth.principal import Principal
from shared.validation.json_body import NOT_JSON, BodyRejected, check_size, parse_json

ROUTER_SOURCE = "brain-router"


class PrincipalPayload(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    tenant: str
    subject: str
    nutzer: list[str]
    agents: list[str]
    scopes: list[str]
    teams: list[str] = []
    account: str = ""
    device: str = ""

    @classmethod
    def of(cls, principal: Principal) -> PrincipalPayload:
        return cls(
            tenant=principal.tenant,
            subject=principal.subject,
            nutzer=sorted(principal.nutzer),
            agents=sorted(principal.agents),
            scopes=sorted(principal.scopes),
            teams=sorted(principal.teams),
            account=principal.account,
            device=principal.device,
        )

    def principal(self) -> Principal:
        return Principal(
            tenant=self.tenant,
            subject=self.subject,
            nutzer=frozenset(self.nutzer),
            agents=frozenset(self.agents),
            scopes=frozenset(self.scopes),
            teams=frozenset(self.teams),
            account=self.account,
            device=self.device,
        )


class RouterInvocation(BaseModel):
    """What the MCP router sends a tool Lambda (synchronous invoke)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: Literal["brain-router"]
    tool: str
    arguments: dict[str, Any]
    principal: PrincipalPayload


class EventRejected(Exception):
    """The event is neither a router invocation nor an authorized HTTP API request."""


def parse_router_invocation(event: dict[str, Any]) -> RouterInvocation | None:
    if event.get("source") != ROUTER_SOURCE:
        return None
    try:
        return RouterInvocation.model_validate(event)
    except ValidationError as exc:
        raise EventRejected(f"invalid router invocation ({exc.error_count()} errors)") from exc


def is_http_api_event(event: dict[str, Any]) -> bool:
    return event.get("version") == "2.0" and isinstance(event.get("requestContext"), dict)


def authorizer_claims(event: dict[str, Any]) -> dict[str, Any] | None:
    """The JWT claims API Gateway's authorizer verified, if the route has one."""
    authorizer = event.get("requestContext", {}).get("authorizer") or {}
    claims = (authorizer.get("jwt") or {}).get("claims")
    return claims if isinstance(claims, dict) else None


def http_principal(event: dict[str, Any], mapping: ClaimMapping) -> Principal:
    claims = authorizer_claims(event)
    if claims is None:
        raise InvalidToken("no authorizer claims")
    return principal_from_claims(claims, mapping)


def http_body(event: dict[str, Any]) -> Any:
    """The JSON body of an HTTP API event (None if absent); BodyRejected if it is too large,
    not JSON, or breaks the depth and number limits (`shared.validation.json_body`)."""
    body = event.get("body")
    if body is None or body == "":
        return None
    if not isinstance(body, str):
        raise BodyRejected(NOT_JSON)
    raw = body.encode("utf-8", "surrogatepass")
    if event.get("isBase64Encoded"):
        check_size(len(raw) * 3 // 4)
        try:
            raw = base64.b64decode(raw, validate=True)
        except binascii.Error as exc:
            raise BodyRejected(NOT_JSON) from exc
    return parse_json(raw)
