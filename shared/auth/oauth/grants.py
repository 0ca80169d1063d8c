"""The authorization server's decisions, independent of HTTP: pending authorizations,
codes, connections (grants), token issue, refresh rotation and revocation.

Every refusal is an `OAuthError` with the RFC 6749 error code and a German description that
names the parameter and the rule, never the refused value. Order of checks per grant:
client → code/refresh token (single use, atomically) → binding (client, redirect URI,
PKCE S256, resource) → issue. A reused code or refresh token revokes the connection it
produced (OAuth 2.1 §4.1.2, §4.3.1).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import re
import time
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any, Final

from shared.auth.claims import InvalidToken
from shared.auth.oauth.records import (
    NO_EXPIRY,
    ClientRecord,
    CodeRecord,
    GrantRecord,
    Identity,
    PendingAuthorization,
    RefreshRecord,
    digest,
)
from shared.auth.oauth.state import OAuthState
from shared.auth.oauth.tokens import AccessTokenSigner, new_secret
from shared.auth.principal import ALL_SCOPES

_PKCE_RE: Final = re.compile(r"[A-Za-z0-9._~-]{43,128}")
_CHALLENGE_RE: Final = re.compile(r"[A-Za-z0-9_-]{43}")
_STATE_MAX: Final = 1000


class OAuthError(Exception):
    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(description)
        self.error = error
        self.description = description
        self.status = status


@dataclass(frozen=True)
class Lifetimes:
    access_s: int = 900
    refresh_s: int = 30 * 24 * 3600
    code_s: int = 120
    pending_s: int = 600
    grant_max_s: int = 90 * 24 * 3600


@dataclass(frozen=True)
class AuthorizeRequest:
    """The validated parameters of an authorization request."""

    client: ClientRecord
    redirect_uri: str
    code_challenge: str
    scopes: tuple[str, ...]
    resource: str
    state: str | None


def requested_scopes(raw: str | None, client: ClientRecord) -> tuple[str, ...]:
    """Brain's scopes among those asked for; unknown ones (`claudeai`, `offline_access`,
    `openid`) are ignored. None asked for, or none of Brain's: all of them (the consent page
    shows them, the identity caps them)."""
    asked = set((raw or "").split())
    known = tuple(sorted(asked & ALL_SCOPES))
    return known or tuple(sorted(ALL_SCOPES))


def check_pkce_challenge(challenge: str | None, method: str | None) -> str:
    if not challenge:
        raise OAuthError(
            "invalid_request", "code_challenge fehlt: PKCE mit S256 ist Pflicht (RFC 7636)."
        )
    if (method or "plain") != "S256":
        raise OAuthError(
            "invalid_request", "code_challenge_method: nur S256 ist erlaubt (plain nicht)."
        )
    if not _CHALLENGE_RE.fullmatch(challenge):
        raise OAuthError(
            "invalid_request", "code_challenge: 43 Zeichen base64url (SHA-256 des Verifiers)."
        )
    return challenge


def check_state(state: str | None) -> str | None:
    if state is not None and (len(state) > _STATE_MAX or not state.isprintable()):
        raise OAuthError("invalid_request", f"state: höchstens {_STATE_MAX} druckbare Zeichen.")
    return state


def pkce_matches(verifier: str | None, challenge: str) -> bool:
    if not verifier or not _PKCE_RE.fullmatch(verifier):
        return False
    hashed = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    return hmac.compare_digest(hashed.decode().rstrip("="), challenge)


@dataclass(frozen=True)
class TokenAnswer:
    access_token: str
    expires_in: int
    refresh_token: str
    scope: str

    def body(self) -> dict[str, Any]:
        return {
            "access_token": self.access_token,
            "token_type": "Bearer",
            "expires_in": self.expires_in,
            "refresh_token": self.refresh_token,
            "scope": self.scope,
        }


class AuthorizationService:
    def __init__(
        self,
        state: OAuthState,
        signer: AccessTokenSigner,
        lifetimes: Lifetimes,
        clock: Callable[[], float] = time.time,
        current_identity: Callable[[Identity], Identity | None] | None = None,
    ) -> None:
        self.state = state
        self.signer = signer
        self.lifetimes = lifetimes
        self.clock = clock
        # At refresh: the identity as it is now (a local user's current record), or None
        # when it no longer exists. Default: the identity as signed in.
        self.current_identity = current_identity or (lambda identity: identity)

    def now(self) -> int:
        return int(self.clock())

    # --- the browser part: request → sign-in → consent → code -----------------------------

    def begin(
        self, request: AuthorizeRequest, issuer: str, browser_secret: str
    ) -> PendingAuthorization:
        now = self.now()
        pending = PendingAuthorization(
            tx_id=new_secret("btx_"),
            client_id=request.client.client_id,
            redirect_uri=request.redirect_uri,
            code_challenge=request.code_challenge,
            scopes=request.scopes,
            resource=request.resource,
            issuer=issuer,
            csrf=new_secret(""),
            browser_hash=digest(browser_secret),
            created_at=now,
            expires_at=now + self.lifetimes.pending_s,
            state=request.state,
        )
        self.state.put_pending(pending)
        return pending

    def pending(self, tx_id: str, browser_secret: str) -> PendingAuthorization | None:
        """The pending authorization of this browser (the cookie /authorize set)."""
        if not tx_id or len(tx_id) > 100 or not browser_secret:
            return None
        found = self.state.get_pending(tx_id, self.now())
        if found is None or not hmac.compare_digest(found.browser_hash, digest(browser_secret)):
            return None
        return found

    def signed_in(self, pending: PendingAuthorization, identity: Identity) -> PendingAuthorization:
        updated = dataclasses.replace(pending, identity=identity)
        self.state.put_pending(updated)
        return updated

    def grantable(self, pending: PendingAuthorization) -> tuple[str, ...]:
        """The requested scopes the signed-in identity holds."""
        held = set(pending.identity.scopes) if pending.identity else set()
        return tuple(scope for scope in pending.scopes if scope in held)

    def approve(self, pending: PendingAuthorization, chosen: Iterable[str]) -> str:
        """A code for the chosen scopes (a subset of the grantable ones); returns the code."""
        if pending.identity is None:
            raise OAuthError("access_denied", "Nicht angemeldet.")
        scopes = tuple(scope for scope in self.grantable(pending) if scope in set(chosen))
        if not scopes:
            raise OAuthError("invalid_scope", "Kein Scope gewählt, den das Konto besitzt.")
        code = new_secret("bac_")
        self.state.put_code(
            CodeRecord(
                code_hash=digest(code),
                client_id=pending.client_id,
                redirect_uri=pending.redirect_uri,
                code_challenge=pending.code_challenge,
                scopes=scopes,
                resource=pending.resource,
                issuer=pending.issuer,
                identity=pending.identity,
                expires_at=self.now() + self.lifetimes.code_s,
            )
        )
        self.state.delete_pending(pending.tx_id)
        return code

    # --- the token endpoint ----------------------------------------------------------------

    def exchange_code(
        self,
        client: ClientRecord,
        code: str | None,
        redirect_uri: str | None,
        verifier: str | None,
        resource: str | None,
    ) -> TokenAnswer:
        if not code:
            raise OAuthError("invalid_request", "code fehlt.")
        if not verifier:
            raise OAuthError("invalid_request", "code_verifier fehlt (PKCE ist Pflicht).")
        if not redirect_uri:
            raise OAuthError("invalid_request", "redirect_uri fehlt.")
        grant_id = new_secret("bgr_")[:32]
        now = self.now()
        use = self.state.consume_code(digest(code), grant_id, now)
        if use is None:
            raise OAuthError("invalid_grant", "code ist unbekannt oder abgelaufen.")
        record = use.record
        if use.outcome == "reused":
            identity = record.identity
            self.state.delete_grant(identity.tenant, identity.subject, record.consumed_by)
            raise OAuthError(
                "invalid_grant", "code wurde schon eingelöst; die Verbindung ist widerrufen."
            )
        if record.client_id != client.client_id:
            raise OAuthError("invalid_grant", "code gehört zu einem anderen Client.")
        if redirect_uri != record.redirect_uri:
            raise OAuthError("invalid_grant", "redirect_uri ist nicht die der Anfrage.")
        if not pkce_matches(verifier, record.code_challenge):
            raise OAuthError("invalid_grant", "code_verifier passt nicht zur code_challenge.")
        if resource and resource != record.resource:
            raise OAuthError("invalid_target", "resource ist nicht die der Anfrage.")
        limit = now + self.lifetimes.grant_max_s
        if record.identity.not_after != NO_EXPIRY:
            limit = min(limit, record.identity.not_after)
        grant = GrantRecord(
            grant_id=grant_id,
            client_id=client.client_id,
            client_name=client.client_name,
            profile=client.profile,
            scopes=record.scopes,
            resource=record.resource,
            issuer=record.issuer,
            identity=record.identity,
            created_at=now,
            refreshed_at=now,
            expires_at=limit,
        )
        answer, refresh = self._tokens(grant, record.scopes, now)
        self.state.put_grant(dataclasses.replace(grant, refresh_hash=refresh.token_hash), refresh)
        if (
            client.kind == "dcr"
            and client.expires_at not in (NO_EXPIRY,)
            and client.expires_at < limit
        ):
            self.state.put_client(dataclasses.replace(client, expires_at=limit))
        return answer

    def refresh(
        self,
        client: ClientRecord,
        token: str | None,
        scope: str | None,
        resource: str | None,
    ) -> TokenAnswer:
        if not token:
            raise OAuthError("invalid_request", "refresh_token fehlt.")
        now = self.now()
        token_hash = digest(token)
        record = self.state.get_refresh(token_hash, now)
        if record is None:
            raise OAuthError("invalid_grant", "refresh_token ist unbekannt oder abgelaufen.")
        if record.client_id != client.client_id:
            raise OAuthError("invalid_grant", "refresh_token gehört zu einem anderen Client.")
        if record.rotated:
            self.state.delete_grant(record.tenant, record.subject, record.grant_id)
            raise OAuthError(
                "invalid_grant", "refresh_token wurde schon benutzt; die Verbindung ist widerrufen."
            )
        grant = self.state.get_grant(record.tenant, record.subject, record.grant_id, now)
        if grant is None:
            raise OAuthError("invalid_grant", "Die Verbindung ist widerrufen oder abgelaufen.")
        identity = self.current_identity(grant.identity)
        if identity is None:
            self.state.delete_grant(record.tenant, record.subject, record.grant_id)
            raise OAuthError("invalid_grant", "Das Konto der Verbindung gibt es nicht mehr.")
        if resource and resource != grant.resource:
            raise OAuthError("invalid_target", "resource ist nicht die der Verbindung.")
        held = set(identity.scopes)
        granted = tuple(s for s in grant.scopes if s in held)
        wanted = tuple(scope.split()) if scope else granted
        if not wanted or not set(wanted) <= set(granted):
            raise OAuthError("invalid_scope", "scope: nur Scopes der Verbindung.")
        grant = dataclasses.replace(grant, identity=identity, scopes=granted, refreshed_at=now)
        answer, new = self._tokens(grant, tuple(sorted(set(wanted))), now)
        outcome = self.state.rotate_refresh(
            token_hash, new, dataclasses.replace(grant, refresh_hash=new.token_hash), now
        )
        if outcome == "reused":
            self.state.delete_grant(record.tenant, record.subject, record.grant_id)
            raise OAuthError(
                "invalid_grant", "refresh_token wurde schon benutzt; die Verbindung ist widerrufen."
            )
        if outcome is None:
            raise OAuthError("invalid_grant", "Die Verbindung ist widerrufen oder abgelaufen.")
        return answer

    def _tokens(
        self, grant: GrantRecord, scopes: tuple[str, ...], now: int
    ) -> tuple[TokenAnswer, RefreshRecord]:
        left = grant.expires_at - now
        if left <= 0:
            raise OAuthError("invalid_grant", "Die Verbindung ist abgelaufen.")
        access_s = min(self.lifetimes.access_s, left)
        refresh = new_secret("brt_")
        record = RefreshRecord(
            token_hash=digest(refresh),
            grant_id=grant.grant_id,
            client_id=grant.client_id,
            tenant=grant.tenant,
            subject=grant.subject,
            expires_at=now + min(self.lifetimes.refresh_s, left),
        )
        issued = dataclasses.replace(grant, scopes=scopes)
        access = self.signer.issue(issued, access_s, now)
        return TokenAnswer(access, access_s, refresh, " ".join(scopes)), record

    # --- revocation and the user's connections --------------------------------------------

    def revoke_token(
        self, client: ClientRecord, token: str, issuers: Collection[str], audiences: Collection[str]
    ) -> None:
        """RFC 7009: a refresh token or an access token of this client ends its connection
        (access tokens already issued stay valid until they expire: minutes). Anything else
        is ignored, as the RFC asks."""
        now = self.now()
        record = self.state.get_refresh(digest(token), now)
        if record is not None:
            if record.client_id == client.client_id:
                self.state.delete_grant(record.tenant, record.subject, record.grant_id)
            return
        try:
            claims = self.signer.claims(token, issuers, audiences)
        except InvalidToken:
            return
        if claims.get("client_id") != client.client_id:
            return
        principal = self.signer.verify(token, issuers, audiences)
        self.state.delete_grant(principal.tenant, principal.subject, str(claims.get("gid", "")))

    def connections(self, tenant: str, subject: str) -> list[GrantRecord]:
        return self.state.list_grants(tenant, subject, self.now())

    def disconnect(self, tenant: str, subject: str, grant_id: str) -> bool:
        return self.state.delete_grant(tenant, subject, grant_id)
