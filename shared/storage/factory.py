"""Open the configured storage adapter: SQLite in the data directory, or DynamoDB + S3."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from shared.config import Settings
from shared.storage.port import StoragePort


@contextmanager
def open_storage(settings: Settings, *, bootstrap: bool = False) -> Iterator[StoragePort]:
    """The adapter for `settings.backend`, closed on exit.

    With `bootstrap`, the AWS table and bucket are created when missing, from the same
    definitions the SAM template embeds.
    """
    if settings.backend == "sqlite":
        from shared.storage.sqlite import SqliteStorage

        sqlite = SqliteStorage.in_data_dir(settings.data_dir)
        try:
            yield sqlite
        finally:
            sqlite.close()
        return

    from shared.storage.aws import build_dynamo_storage, make_clients
    from shared.storage.dynamo.schema import bootstrap as create_missing

    clients = make_clients(settings)
    if bootstrap:
        for created in create_missing(clients, settings.table_name, settings.bucket_name):
            print(f"Angelegt: {created}", flush=True)
    dynamo = build_dynamo_storage(settings, clients)
    try:
        yield dynamo
    finally:
        dynamo.close()
