"""The port of the authorization server's state, one contract for SQLite and DynamoDB.

Invariants every adapter keeps (tests/contract/test_oauth_state.py runs them on both):
- A record past its `expires_at` (NO_EXPIRY = never) reads as absent, whether or not the
  store has deleted it yet (DynamoDB TTL deletes late).
- `consume_code` marks a code used atomically: exactly one caller gets `fresh`; later ones
  get `reused` with the grant it was exchanged for.
- `rotate_refresh` retires a refresh token atomically and only while its grant exists: one
  caller gets `rotated`; a retired token gets `reused`; a token whose grant is gone or that is
  unknown gets `None`.
- Grants are listed per (tenant, subject); deleting one makes all its refresh tokens useless.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from shared.auth.oauth.records import (
    ClientRecord,
    CodeRecord,
    GrantRecord,
    LocalUser,
    PendingAuthorization,
    RefreshRecord,
)


@dataclass(frozen=True)
class CodeUse:
    outcome: Literal["fresh", "reused"]
    record: CodeRecord


RefreshUse = Literal["rotated", "reused"]


class OAuthState(Protocol):
    # Clients (DCR registrations; CIMD and built-in clients are not stored).
    def put_client(self, client: ClientRecord) -> None: ...
    def get_client(self, client_id: str, now: int) -> ClientRecord | None: ...
    def delete_client(self, client_id: str) -> bool: ...

    # Authorization requests between /authorize and the code.
    def put_pending(self, pending: PendingAuthorization) -> None: ...
    def get_pending(self, tx_id: str, now: int) -> PendingAuthorization | None: ...
    def delete_pending(self, tx_id: str) -> None: ...

    # Codes: stored by hash, used once.
    def put_code(self, code: CodeRecord) -> None: ...
    def consume_code(self, code_hash: str, grant_id: str, now: int) -> CodeUse | None: ...

    # Grants (connections) and their refresh tokens.
    def put_grant(self, grant: GrantRecord, refresh: RefreshRecord) -> None: ...
    def get_grant(
        self, tenant: str, subject: str, grant_id: str, now: int
    ) -> GrantRecord | None: ...
    def list_grants(self, tenant: str, subject: str, now: int) -> list[GrantRecord]: ...
    def all_grants(self, now: int) -> list[GrantRecord]: ...
    def delete_grant(self, tenant: str, subject: str, grant_id: str) -> bool: ...
    def get_refresh(self, token_hash: str, now: int) -> RefreshRecord | None: ...
    def rotate_refresh(
        self, token_hash: str, new: RefreshRecord, grant: GrantRecord, now: int
    ) -> RefreshUse | None:
        """Retire `token_hash` and store `new`, with `grant` (its updated record) written in
        the same step, only while the grant still exists."""
        ...

    # Users of the built-in login.
    def put_user(self, user: LocalUser) -> None: ...
    def get_user(self, username: str) -> LocalUser | None: ...
    def list_users(self) -> list[LocalUser]: ...
    def delete_user(self, username: str) -> bool: ...

    def close(self) -> None: ...
