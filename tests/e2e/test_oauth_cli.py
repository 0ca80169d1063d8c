"""`brain user …` and `brain oauth …` as a user runs them: local users of the built-in login
(password from stdin, never the command line) and the connections made with them."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from shared.auth.oauth.login import local_user_login
from shared.auth.oauth.records import GrantRecord, LocalUser, RefreshRecord
from shared.auth.oauth.sqlite_state import SqliteOAuthState
from tests.e2e.test_local_server import brain


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(brain(*args), input=stdin, capture_output=True, text=True, timeout=60)


@pytest.mark.timeout(600)  # a `brain` process per step: slow on a loaded machine
def test_users_are_added_listed_and_removed(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    # When a user is added with the password on stdin
    added = run(
        "user",
        "add",
        "anna",
        "--data-dir",
        data,
        "--tenant",
        "acme",
        "--teams",
        "kern",
        "--scopes",
        "memory:read",
        "--password-stdin",
        stdin="lang-genug-passwort\n",
    )
    assert added.returncode == 0, added.stderr
    assert "Nutzer anna angelegt: Mandant acme" in added.stdout
    # Then it signs in with that password, as acme:anna in team kern
    state = SqliteOAuthState.in_data_dir(tmp_path / "data")
    identity = local_user_login(state, "anna", "lang-genug-passwort")
    assert (identity.subject, identity.teams, identity.scopes) == (
        "acme:anna",
        ("kern",),
        ("memory:read",),
    )
    # And a second add needs --replace
    again = run("user", "add", "anna", "--data-dir", data, "--password-stdin", stdin="x" * 12)
    assert again.returncode == 2 and "--replace" in again.stderr
    listed = run("user", "list", "--data-dir", data)
    assert listed.stdout.splitlines()[0].startswith("anna\tacme\tanna\t*\tmemory:read")
    # And removing it ends it
    assert run("user", "remove", "anna", "--data-dir", data).returncode == 0
    assert state.get_user("anna") is None
    state.close()


@pytest.mark.timeout(600)
def test_connections_are_listed_and_revoked(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    state = SqliteOAuthState.in_data_dir(tmp_path / "data")
    identity = LocalUser("anna", "-", "acme", ("anna",), ("*",), ("memory:read",)).identity()
    now = int(time.time())
    grant = GrantRecord(
        "g1",
        "brc_1",
        "Claude",
        "claude",
        ("memory:read",),
        "http://x/mcp",
        "http://x",
        identity,
        now,
        now,
        now + 3600,
        "h1",
    )
    state.put_grant(grant, RefreshRecord("h1", "g1", "brc_1", "acme", "acme:anna", now + 600))
    state.close()
    listed = run("oauth", "connections", "--data-dir", data)
    assert listed.stdout.startswith("g1\tacme\tacme:anna\tClaude\tbrc_1\tmemory:read")
    mine = run(
        "oauth", "connections", "--data-dir", data, "--tenant", "acme", "--subject", "acme:anna"
    )
    assert mine.stdout.startswith("g1\t")
    assert run("oauth", "revoke", "g1", "--data-dir", data).returncode == 0
    assert "Keine verbundenen Clients." in run("oauth", "connections", "--data-dir", data).stdout
