"""The authorization server's state in SQLite (`brain serve`): `<data dir>/oauth.sqlite3`.

One table with the DynamoDB adapter's key layout (`keys.py`): each record is a JSON document
under (pk, sk) with its expiry; `flag` holds the one mutable fact the atomic steps test (a
code's grant, a refresh token's retirement). One connection, serialised by a lock: the
authorization server writes a few rows per sign-in, never on a tool call.
"""

# ruff: noqa: S608  (only the constant _LIVE is formatted into the SQL)

from __future__ import annotations

import dataclasses
import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from shared.auth.oauth import keys
from shared.auth.oauth.records import (
    NO_EXPIRY,
    ClientRecord,
    CodeRecord,
    GrantRecord,
    LocalUser,
    PendingAuthorization,
    RefreshRecord,
    from_doc,
    to_doc,
)
from shared.auth.oauth.state import CodeUse, RefreshUse
from shared.data_dir import create_private, prepare_data_dir

FILE_NAME: Final = "oauth.sqlite3"
_LIVE: Final = "(expires_at = 0 OR expires_at > ?)"
_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS oauth_items (
    pk TEXT NOT NULL,
    sk TEXT NOT NULL,
    doc TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    flag TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (pk, sk)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS oauth_items_expiry ON oauth_items (expires_at) WHERE expires_at > 0;
"""
# Expired rows are deleted by the writes, at most this often (seconds).
_PURGE_EVERY: Final = 300


class SqliteOAuthState:
    def __init__(self, path: Path) -> None:
        create_private(path)
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute("PRAGMA busy_timeout = 30000")
        self._conn.executescript(_SCHEMA)
        self._lock = threading.Lock()
        self._purged_at = 0

    @classmethod
    def in_data_dir(cls, data_dir: Path) -> SqliteOAuthState:
        return cls(prepare_data_dir(data_dir) / FILE_NAME)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def _write(self, now: int | None = None) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                if now is not None and now - self._purged_at > _PURGE_EVERY:
                    self._conn.execute(
                        "DELETE FROM oauth_items WHERE expires_at > 0 AND expires_at <= ?", (now,)
                    )
                    self._purged_at = now
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _put(
        self, conn: sqlite3.Connection, key: tuple[str, str], record: Any, expires: int
    ) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO oauth_items (pk, sk, doc, expires_at, flag) "
            "VALUES (?, ?, ?, ?, '')",
            (*key, json.dumps(to_doc(record), ensure_ascii=False), expires),
        )

    def _get(self, key: tuple[str, str], now: int) -> tuple[dict[str, Any], str] | None:
        with self._lock:
            row = self._conn.execute(
                f"SELECT doc, flag FROM oauth_items WHERE pk = ? AND sk = ? AND {_LIVE}",
                (*key, now),
            ).fetchone()
        return None if row is None else (json.loads(row[0]), row[1])

    def _delete(self, key: tuple[str, str]) -> bool:
        with self._write() as conn:
            return conn.execute("DELETE FROM oauth_items WHERE pk = ? AND sk = ?", key).rowcount > 0

    # --- clients ---------------------------------------------------------------------------

    def put_client(self, client: ClientRecord) -> None:
        with self._write(client.created_at) as conn:
            self._put(conn, keys.client(client.client_id), client, client.expires_at)

    def get_client(self, client_id: str, now: int) -> ClientRecord | None:
        found = self._get(keys.client(client_id), now)
        return None if found is None else from_doc(ClientRecord, found[0])

    def delete_client(self, client_id: str) -> bool:
        return self._delete(keys.client(client_id))

    # --- pending authorizations ------------------------------------------------------------

    def put_pending(self, pending: PendingAuthorization) -> None:
        with self._write(pending.created_at) as conn:
            self._put(conn, keys.pending(pending.tx_id), pending, pending.expires_at)

    def get_pending(self, tx_id: str, now: int) -> PendingAuthorization | None:
        found = self._get(keys.pending(tx_id), now)
        return None if found is None else from_doc(PendingAuthorization, found[0])

    def delete_pending(self, tx_id: str) -> None:
        self._delete(keys.pending(tx_id))

    # --- codes -----------------------------------------------------------------------------

    def put_code(self, code: CodeRecord) -> None:
        with self._write() as conn:
            self._put(conn, keys.code(code.code_hash), code, code.expires_at)

    def consume_code(self, code_hash: str, grant_id: str, now: int) -> CodeUse | None:
        key = keys.code(code_hash)
        with self._write(now) as conn:
            row = conn.execute(
                f"SELECT doc, flag FROM oauth_items WHERE pk = ? AND sk = ? AND {_LIVE}",
                (*key, now),
            ).fetchone()
            if row is None:
                return None
            record = from_doc(CodeRecord, json.loads(row[0]))
            if row[1]:
                return CodeUse("reused", dataclasses.replace(record, consumed_by=row[1]))
            conn.execute(
                "UPDATE oauth_items SET flag = ? WHERE pk = ? AND sk = ?", (grant_id, *key)
            )
        return CodeUse("fresh", record)

    # --- grants and refresh tokens ---------------------------------------------------------

    def put_grant(self, grant: GrantRecord, refresh: RefreshRecord) -> None:
        with self._write(grant.created_at) as conn:
            self._put(
                conn,
                keys.grant(grant.tenant, grant.subject, grant.grant_id),
                grant,
                grant.expires_at,
            )
            self._put(conn, keys.refresh(refresh.token_hash), refresh, refresh.expires_at)

    def get_grant(self, tenant: str, subject: str, grant_id: str, now: int) -> GrantRecord | None:
        found = self._get(keys.grant(tenant, subject, grant_id), now)
        return None if found is None else from_doc(GrantRecord, found[0])

    def list_grants(self, tenant: str, subject: str, now: int) -> list[GrantRecord]:
        pk, _ = keys.grant(tenant, subject, "")
        with self._lock:
            rows = self._conn.execute(
                f"SELECT doc FROM oauth_items WHERE pk = ? AND {_LIVE} ORDER BY sk", (pk, now)
            ).fetchall()
        return [from_doc(GrantRecord, json.loads(row[0])) for row in rows]

    def all_grants(self, now: int) -> list[GrantRecord]:
        with self._lock:
            rows = self._conn.execute(
                f"SELECT doc FROM oauth_items WHERE pk LIKE ? AND {_LIVE} ORDER BY pk, sk",
                (keys.GRANT_PREFIX + "%", now),
            ).fetchall()
        return [from_doc(GrantRecord, json.loads(row[0])) for row in rows]

    def delete_grant(self, tenant: str, subject: str, grant_id: str) -> bool:
        return self._delete(keys.grant(tenant, subject, grant_id))

    def get_refresh(self, token_hash: str, now: int) -> RefreshRecord | None:
        found = self._get(keys.refresh(token_hash), now)
        if found is None:
            return None
        record = from_doc(RefreshRecord, found[0])
        return dataclasses.replace(record, rotated=bool(found[1]))

    def rotate_refresh(
        self, token_hash: str, new: RefreshRecord, grant: GrantRecord, now: int
    ) -> RefreshUse | None:
        old_key = keys.refresh(token_hash)
        grant_key = keys.grant(grant.tenant, grant.subject, grant.grant_id)
        with self._write(now) as conn:
            row = conn.execute(
                f"SELECT doc, flag FROM oauth_items WHERE pk = ? AND sk = ? AND {_LIVE}",
                (*old_key, now),
            ).fetchone()
            if row is None:
                return None
            if row[1]:
                return "reused"
            alive = conn.execute(
                f"SELECT 1 FROM oauth_items WHERE pk = ? AND sk = ? AND {_LIVE}",
                (*grant_key, now),
            ).fetchone()
            if alive is None:
                return None
            conn.execute("UPDATE oauth_items SET flag = 'rotated' WHERE pk = ? AND sk = ?", old_key)
            self._put(conn, keys.refresh(new.token_hash), new, new.expires_at)
            self._put(conn, grant_key, grant, grant.expires_at)
        return "rotated"

    # --- users of the built-in login ------------------------------------------------------

    def put_user(self, user: LocalUser) -> None:
        with self._write() as conn:
            self._put(conn, keys.user(user.username), user, NO_EXPIRY)

    def get_user(self, username: str) -> LocalUser | None:
        found = self._get(keys.user(username), 0)
        return None if found is None else from_doc(LocalUser, found[0])

    def list_users(self) -> list[LocalUser]:
        pk, _ = keys.user("")
        with self._lock:
            rows = self._conn.execute(
                "SELECT doc FROM oauth_items WHERE pk = ? ORDER BY sk", (pk,)
            ).fetchall()
        return [from_doc(LocalUser, json.loads(row[0])) for row in rows]

    def delete_user(self, username: str) -> bool:
        return self._delete(keys.user(username))
