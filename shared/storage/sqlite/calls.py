"""Call records of the retry layer (shared/calls.py) and the ID counters, on SQLite.

Invariants:
- `claim_call` is one `BEGIN IMMEDIATE` transaction: read the key's record, decide, and
  write the new record, so two threads or processes never both get NEW for one key. It
  reserves no ID: a local step costs no round trip, so `reserve_call_ids` takes them from
  the counters (table `counters`) when the call stores, after its authorization — the
  counter moves by exactly the IDs of entries that are stored (or fail in storage), never
  for a refused call — and records them in the same transaction.
- A record past `expires_us` counts as absent; a RUNNING record past `running_until_us`
  with the same body is taken over (RESUMED: same token, IDs and marks).
- Expired records are purged as the server runs: each claim deletes at most
  `PURGE_PER_WRITE` of them (index `call_records_by_expiry`), so the table stays at about
  one window of calls.
- `brain serve` owns its data directory: `release_calls` at start ends the running marks
  (the process that ran them is gone), so a resend after a crash takes its record over at
  once, with the IDs the dead send reserved.
"""

# SQL text is only ever built from this module's constants; every value is a bound parameter.
# ruff: noqa: S608

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime

from shared.calls import (
    CallClaim,
    CallMarks,
    CallRecord,
    CallRecordsUnavailable,
    CallState,
    ids_from_json,
    ids_to_json,
    merge_ids,
    missing,
)
from shared.domain import CounterName
from shared.storage.sqlite.base import SqliteBase
from shared.storage.values import dump, to_us

# Expired rows a write removes on its way (bounded work per call; more than it adds).
PURGE_PER_WRITE = 16

_COLUMNS = "body, token, running_until_us, expires_us, ids, marks, answer"


def purge_expired(
    conn: sqlite3.Connection, table: str, primary_key: str, column: str, before: int
) -> int:
    """Delete at most PURGE_PER_WRITE rows of `table` whose `column` is below `before`
    (table and column names are this package's constants)."""
    return int(
        conn.execute(
            f"DELETE FROM {table} WHERE ({primary_key}) IN (SELECT {primary_key} FROM {table}"
            f" WHERE {column} < ? LIMIT ?)",
            (before, PURGE_PER_WRITE),
        ).rowcount
    )


def reserve_in(conn: sqlite3.Connection, tenant: str, counter: CounterName, count: int) -> range:
    """`count` consecutive IDs of one counter, inside the caller's write transaction."""
    rows = conn.execute(
        "INSERT INTO counters (tenant, name, value) VALUES (?, ?, ?)"
        " ON CONFLICT (tenant, name) DO UPDATE SET value = value + excluded.value"
        " RETURNING value",
        (tenant, CounterName(counter).value, count),
    ).fetchall()
    last = int(rows[0][0])
    return range(last - count + 1, last + 1)


def mark_in(conn: sqlite3.Connection, tenant: str, marks: CallMarks, mark: str) -> bool:
    """Add `mark` to the call record `marks` names, inside the caller's write transaction
    (recorded together with what it marks); False if its send no longer owns it."""
    row = conn.execute(
        "SELECT marks FROM call_records WHERE tenant = ? AND ckey = ? AND token = ?",
        (tenant, marks.key, marks.token),
    ).fetchone()
    if row is None:
        return False
    merged = sorted(set(json.loads(row[0])) | {mark})
    conn.execute(
        "UPDATE call_records SET marks = ? WHERE tenant = ? AND ckey = ? AND token = ?",
        (dump(merged), tenant, marks.key, marks.token),
    )
    return True


class CallStore(SqliteBase):
    def claim_call(self, claim: CallClaim) -> CallRecord:
        now_us = to_us(claim.now)
        with self._write() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM call_records WHERE tenant = ? AND ckey = ?",
                (claim.tenant, claim.key),
            ).fetchone()
            if row is not None and int(row[3]) < now_us:
                row = None  # past its window: as if absent
            if row is not None:
                body, token, running_until, _, ids_text, marks_text, answer = row
                marks = frozenset(json.loads(marks_text))
                known = ids_from_json(ids_text)
                if answer is not None:
                    return CallRecord(CallState.DONE, token, body, known, marks, answer)
                if body != claim.body or int(running_until) >= now_us:
                    return CallRecord(CallState.RUNNING, token, body, known, marks)
                conn.execute(
                    "UPDATE call_records SET running_until_us = ? WHERE tenant = ? AND ckey = ?",
                    (to_us(claim.running_until), claim.tenant, claim.key),
                )
                return CallRecord(CallState.RESUMED, token, body, known, marks)
            ids: dict[CounterName, dict[int, int]] = {}  # reserved when the call stores
            conn.execute(
                f"INSERT OR REPLACE INTO call_records (tenant, ckey, {_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)",
                (
                    claim.tenant,
                    claim.key,
                    claim.body,
                    claim.token,
                    to_us(claim.running_until),
                    to_us(claim.expires_at),
                    ids_to_json(ids),
                    dump([]),
                ),
            )
            purge_expired(conn, "call_records", "tenant, ckey", "expires_us", now_us)
        return CallRecord(CallState.NEW, claim.token, claim.body, ids)

    def reserve_call_ids(
        self, tenant: str, key: str, token: str, wants: Mapping[CounterName, Sequence[int]]
    ) -> dict[CounterName, dict[int, int]]:
        with self._write() as conn:
            row = conn.execute(
                "SELECT ids FROM call_records WHERE tenant = ? AND ckey = ? AND token = ?",
                (tenant, key, token),
            ).fetchone()
            if row is None:
                raise CallRecordsUnavailable("call record taken over or gone")
            known = ids_from_json(row[0])
            fresh = {
                counter: reserve_in(conn, tenant, counter, count)
                for counter, count in missing(known, wants).items()
            }
            merged = merge_ids(known, wants, fresh)
            conn.execute(
                "UPDATE call_records SET ids = ? WHERE tenant = ? AND ckey = ? AND token = ?",
                (ids_to_json(merged), tenant, key, token),
            )
        return merged

    def finish_call(
        self, tenant: str, key: str, token: str, answer: str, expires_at: datetime
    ) -> bool:
        with self._write() as conn:
            updated = conn.execute(
                "UPDATE call_records SET answer = ?, running_until_us = NULL, expires_us = ?"
                " WHERE tenant = ? AND ckey = ? AND token = ?",
                (answer, to_us(expires_at), tenant, key, token),
            ).rowcount
        return bool(updated)

    def drop_call(self, tenant: str, key: str, token: str) -> None:
        with self._write() as conn:
            conn.execute(
                "DELETE FROM call_records WHERE tenant = ? AND ckey = ? AND token = ?",
                (tenant, key, token),
            )

    def release_calls(self) -> int:
        """At server start: end the running mark of every running record (its process is
        gone), keeping its IDs and marks, so that a resend takes it over at once and
        recognises what the dead send stored. Returns how many were released."""
        with self._write() as conn:
            return int(
                conn.execute(
                    "UPDATE call_records SET running_until_us = 0 WHERE answer IS NULL"
                ).rowcount
            )
