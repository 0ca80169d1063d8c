"""SQLite adapter of the storage port, for the local server (`brain serve`).

One database file in WAL mode. Every thread gets its own connection (created lazily);
writes run in `BEGIN IMMEDIATE` transactions, so read-modify-write sequences (ratings,
replaces, deletes) are serialised across threads and processes alike.

Modules: `base` (connections, transactions, conversions), `schema` (DDL and migration),
`memories`, `memory_index`, `ratings`, `brain` (one part of the port each, as mixins on
`base.SqliteBase`), `adapter` (composes them into `SqliteStorage`, plus IDs and tags).

Storage conventions:
- the tenant is the first column of every primary key and index (the expiry sweep's
  index excepted: that sweep runs across tenants by design);
- datetimes are integer microseconds since the Unix epoch (UTC) and come back as
  timezone-aware UTC datetimes; naive datetimes are rejected with ValueError;
- Decimal scores are stored as text and read back as Decimal, so sums stay exact;
- dicts and lists (tags, referenzfelder, stammdaten, terms) are JSON text;
- embeddings are stored byte for byte (little-endian float32) in their own table.
"""

from shared.storage.sqlite.adapter import SqliteStorage
from shared.storage.sqlite.base import BUSY_TIMEOUT_MS, DATABASE_FILE_NAME
from shared.storage.sqlite.schema import SCHEMA_VERSION

__all__ = ["BUSY_TIMEOUT_MS", "DATABASE_FILE_NAME", "SCHEMA_VERSION", "SqliteStorage"]
