"""The OAuth state port's contract (shared/auth/oauth/state.py), once per adapter: SQLite
and DynamoDB (DynamoDB Local, as the storage contract suite). Expiry, single-use codes, refresh
rotation and reuse, connections per user, local users."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from shared.auth.oauth.dynamo_state import DynamoOAuthState, create_table
from shared.auth.oauth.records import (
    ClientRecord,
    CodeRecord,
    GrantRecord,
    Identity,
    LocalUser,
    PendingAuthorization,
    RefreshRecord,
)
from shared.auth.oauth.sqlite_state import SqliteOAuthState
from shared.auth.oauth.state import OAuthState
from tests.dynamodb_local import local_aws

NOW = 1_800_000_000
IDENTITY = Identity("acme", "acme:anna", ("anna",), ("*",), ("memory:read",), ("kern",))


@contextmanager
def _sqlite(tmp_path: Path) -> Iterator[OAuthState]:
    state = SqliteOAuthState.in_data_dir(tmp_path / "data")
    try:
        yield state
    finally:
        state.close()


@contextmanager
def _dynamodb(tmp_path: Path) -> Iterator[OAuthState]:
    """DynamoDB Local, an empty database of its own (as the storage contract suite)."""
    with local_aws() as clients:
        create_table(clients.dynamodb, "brain-oauth-contract")
        yield DynamoOAuthState(clients.dynamodb, "brain-oauth-contract")


@pytest.fixture(params=["sqlite", "dynamodb"])
def state(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[OAuthState]:
    factory = _sqlite if request.param == "sqlite" else _dynamodb
    with factory(tmp_path) as adapter:
        yield adapter


def client(client_id: str = "brc_1", expires_at: int = NOW + 60) -> ClientRecord:
    return ClientRecord(
        client_id,
        "dcr",
        "Claude",
        ("https://claude.ai/api/mcp/auth_callback",),
        created_at=NOW,
        expires_at=expires_at,
        profile="claude",
    )


def grant(grant_id: str = "g1", identity: Identity = IDENTITY) -> GrantRecord:
    return GrantRecord(
        grant_id,
        "brc_1",
        "Claude",
        "claude",
        ("memory:read",),
        "http://x/mcp",
        "http://x",
        identity,
        NOW,
        NOW,
        NOW + 3600,
        "h1",
    )


def refresh(token_hash: str = "h1", grant_id: str = "g1") -> RefreshRecord:
    return RefreshRecord(token_hash, grant_id, "brc_1", "acme", "acme:anna", NOW + 600)


def test_records_read_back_equal_and_expire(state: OAuthState) -> None:
    state.put_client(client())
    assert state.get_client("brc_1", NOW) == client()
    assert state.get_client("brc_1", NOW + 61) is None  # past expires_at: absent
    assert state.get_client("unknown", NOW) is None
    assert state.delete_client("brc_1") and not state.delete_client("brc_1")
    pending = PendingAuthorization(
        "tx1",
        "brc_1",
        "https://cb",
        "c" * 43,
        ("memory:read",),
        "http://x/mcp",
        "http://x",
        "csrf",
        "b",
        NOW,
        NOW + 600,
        state="s",
        identity=IDENTITY,
    )
    state.put_pending(pending)
    assert state.get_pending("tx1", NOW) == pending
    assert state.get_pending("tx1", NOW + 601) is None
    state.delete_pending("tx1")
    assert state.get_pending("tx1", NOW) is None


def test_a_code_is_consumed_exactly_once(state: OAuthState) -> None:
    code = CodeRecord(
        "ch",
        "brc_1",
        "https://cb",
        "c" * 43,
        ("memory:read",),
        "http://x/mcp",
        "http://x",
        IDENTITY,
        NOW + 120,
    )
    state.put_code(code)
    first = state.consume_code("ch", "g1", NOW)
    assert first is not None and first.outcome == "fresh" and first.record == code
    second = state.consume_code("ch", "g2", NOW)
    assert second is not None and second.outcome == "reused"
    assert second.record.consumed_by == "g1"  # the grant to revoke
    assert state.consume_code("unknown", "g3", NOW) is None
    state.put_code(dataclasses.replace(code, code_hash="old"))
    assert state.consume_code("old", "g4", NOW + 121) is None  # expired


def test_refresh_tokens_rotate_once_and_only_while_the_grant_lives(state: OAuthState) -> None:
    state.put_grant(grant(), refresh())
    assert state.get_refresh("h1", NOW) == refresh()
    updated = dataclasses.replace(grant(), refresh_hash="h2", refreshed_at=NOW + 5)
    assert state.rotate_refresh("h1", refresh("h2"), updated, NOW) == "rotated"
    assert state.get_grant("acme", "acme:anna", "g1", NOW) == updated
    retired = state.get_refresh("h1", NOW)
    assert retired is not None and retired.rotated
    assert state.rotate_refresh("h1", refresh("h3"), updated, NOW) == "reused"
    assert state.get_refresh("h3", NOW) is None  # nothing written by the refused rotation
    # Once the grant is deleted, its refresh tokens are useless
    assert state.delete_grant("acme", "acme:anna", "g1")
    assert state.rotate_refresh("h2", refresh("h4"), updated, NOW) is None
    assert state.rotate_refresh("unknown", refresh("h5"), updated, NOW) is None
    assert state.get_refresh("h2", NOW + 601) is None  # expired


def test_grants_are_listed_per_user(state: OAuthState) -> None:
    other = Identity("acme", "acme:bob", ("bob",), ("bob",), ("memory:read",))
    state.put_grant(grant("g1"), refresh("h1"))
    state.put_grant(grant("g2"), refresh("h2", "g2"))
    state.put_grant(grant("g3", other), refresh("h3", "g3"))
    assert [g.grant_id for g in state.list_grants("acme", "acme:anna", NOW)] == ["g1", "g2"]
    assert [g.grant_id for g in state.list_grants("acme", "acme:bob", NOW)] == ["g3"]
    assert state.list_grants("other", "acme:anna", NOW) == []
    assert [g.grant_id for g in state.all_grants(NOW)] == ["g1", "g2", "g3"]
    assert state.list_grants("acme", "acme:anna", NOW + 3601) == []  # expired
    # `#` in a subject cannot reach another user's grants
    assert state.list_grants("acme", "acme:anna#G", NOW) == []


def test_local_users(state: OAuthState) -> None:
    anna = LocalUser(
        "anna", "$argon2id$x", "acme", ("anna",), ("*",), ("memory:read",), ("kern",), (), NOW
    )
    state.put_user(anna)
    state.put_user(dataclasses.replace(anna, username="bert"))
    assert state.get_user("anna") == anna
    assert [u.username for u in state.list_users()] == ["anna", "bert"]
    assert state.delete_user("bert") and state.get_user("bert") is None
    assert not state.delete_user("bert")
