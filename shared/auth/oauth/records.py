"""The records of the authorization server's state: plain frozen dataclasses.

`to_doc`/`from_doc` turn a record into a JSON-compatible dict and back (tuples as lists,
nested identities as dicts); both state adapters store exactly these documents, so a record
reads back equal on SQLite and DynamoDB.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final, Literal

from shared.auth.principal import ANY, Principal

ClientKind = Literal["dcr", "cimd", "builtin"]
IdentitySource = Literal["local-user", "token", "oidc"]
AuthMethod = Literal["none", "client_secret_post", "client_secret_basic"]

NO_EXPIRY: Final = 0


def digest(secret: str) -> str:
    """The stored form of a code, refresh token or client secret (hex SHA-256)."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class Identity:
    """Who signed in: Brain's identity model, as the claim mapping reads it from a token."""

    tenant: str
    subject: str
    nutzer: tuple[str, ...]
    agents: tuple[str, ...]
    scopes: tuple[str, ...]
    teams: tuple[str, ...] = ()
    projects: tuple[str, ...] = ()
    account: str = ""
    label: str = ""  # shown on the consent page: user name, e-mail or subject
    source: IdentitySource = "local-user"
    not_after: int = NO_EXPIRY  # the sign-in credential's own end (a pasted token's exp)

    @classmethod
    def of(
        cls,
        principal: Principal,
        *,
        label: str,
        source: IdentitySource,
        not_after: int = NO_EXPIRY,
    ) -> Identity:
        return cls(
            tenant=principal.tenant,
            subject=principal.subject,
            nutzer=tuple(sorted(principal.nutzer)),
            agents=tuple(sorted(principal.agents)),
            scopes=tuple(sorted(principal.scopes)),
            teams=tuple(sorted(principal.teams)),
            projects=tuple(sorted(principal.projects)),
            account=principal.account,
            label=label or principal.subject,
            source=source,
            not_after=not_after,
        )

    def areas(self) -> list[str]:
        """The areas a connection as this identity reads and writes (consent page)."""
        users = ["users/*" if name == ANY else f"users/{name}" for name in self.nutzer]
        return [
            *users,
            *(f"teams/{team}" for team in self.teams),
            *(f"projects/{project}" for project in self.projects),
        ]


@dataclass(frozen=True)
class ClientRecord:
    client_id: str
    kind: ClientKind
    client_name: str
    redirect_uris: tuple[str, ...]
    created_at: int
    expires_at: int = NO_EXPIRY
    grant_types: tuple[str, ...] = ("authorization_code", "refresh_token")
    token_endpoint_auth_method: AuthMethod = "none"  # noqa: S105
    secret_hash: str = ""
    profile: str = ""  # "", "claude" or "chatgpt": derived from the client, never claimed
    client_uri: str = ""


@dataclass(frozen=True)
class PendingAuthorization:
    """An authorization request between /authorize and the code (login, consent)."""

    tx_id: str
    client_id: str
    redirect_uri: str
    code_challenge: str
    scopes: tuple[str, ...]
    resource: str
    issuer: str
    csrf: str
    browser_hash: str  # digest of the browser-binding cookie set by /authorize
    created_at: int
    expires_at: int
    state: str | None = None
    identity: Identity | None = None
    upstream_verifier: str = ""
    upstream_nonce: str = ""


@dataclass(frozen=True)
class CodeRecord:
    code_hash: str
    client_id: str
    redirect_uri: str
    code_challenge: str
    scopes: tuple[str, ...]
    resource: str
    issuer: str
    identity: Identity
    expires_at: int
    consumed_by: str = ""  # the grant the code was exchanged for ("" = not yet)


@dataclass(frozen=True)
class GrantRecord:
    """One connected client of one user: what `brain oauth connections` lists."""

    grant_id: str
    client_id: str
    client_name: str
    profile: str
    scopes: tuple[str, ...]
    resource: str
    issuer: str
    identity: Identity
    created_at: int
    refreshed_at: int
    expires_at: int  # absolute end of the connection (oauth_grant_max_age_s)
    refresh_hash: str = ""

    @property
    def tenant(self) -> str:
        return self.identity.tenant

    @property
    def subject(self) -> str:
        return self.identity.subject


@dataclass(frozen=True)
class RefreshRecord:
    token_hash: str
    grant_id: str
    client_id: str
    tenant: str
    subject: str
    expires_at: int
    rotated: bool = False


@dataclass(frozen=True)
class LocalUser:
    """A user of the built-in login (`brain user add`); the password only as its hash."""

    username: str
    password_hash: str
    tenant: str
    nutzer: tuple[str, ...]
    agents: tuple[str, ...]
    scopes: tuple[str, ...]
    teams: tuple[str, ...] = ()
    projects: tuple[str, ...] = ()
    created_at: int = 0

    @property
    def subject(self) -> str:
        return f"{self.tenant}:{self.username}"

    def identity(self) -> Identity:
        return Identity(
            tenant=self.tenant,
            subject=self.subject,
            nutzer=self.nutzer,
            agents=self.agents,
            scopes=self.scopes,
            teams=self.teams,
            projects=self.projects,
            account=self.tenant,
            label=self.username,
            source="local-user",
        )


def to_doc(record: Any) -> dict[str, Any]:
    """The record as a JSON-compatible dict (tuples become lists)."""

    def plain(value: Any) -> Any:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, tuple | list):
            return [plain(item) for item in value]
        return value

    result: dict[str, Any] = plain(record)
    return result


def from_doc[R](cls: type[R], doc: dict[str, Any]) -> R:
    """The record of type `cls` from `to_doc`'s dict (unknown keys ignored)."""
    values: dict[str, Any] = {}
    for item in dataclasses.fields(cls):  # type: ignore[arg-type]
        if item.name not in doc:
            continue
        value = doc[item.name]
        if item.name == "identity" and isinstance(value, dict):
            value = from_doc(Identity, value)
        elif isinstance(value, list):
            value = tuple(str(entry) for entry in value)
        elif isinstance(value, Decimal | float):  # DynamoDB numbers
            value = int(value)
        values[item.name] = value
    return cls(**values)
