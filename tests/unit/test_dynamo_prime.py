"""`DynamoStorage.prime()` builds every lazily built part (before a SnapStart snapshot, so
that no restored environment imports or builds anything on its first call)."""

from __future__ import annotations

from contextlib import closing
from functools import cached_property

import boto3

from shared.storage.aws_clients import AwsClients
from shared.storage.dynamo.adapter import DynamoStorage


def test_prime_builds_every_part() -> None:
    # Given an adapter on clients that are never called (building a part makes no call)
    session = boto3.Session(
        aws_access_key_id="x", aws_secret_access_key="x", region_name="eu-central-1"
    )
    clients = AwsClients(session.client("dynamodb"), session.client("s3vectors"))
    parts = [
        name for name, value in vars(DynamoStorage).items() if isinstance(value, cached_property)
    ]
    with closing(DynamoStorage(clients, table_name="brain-test", bucket_name="vectors")) as storage:
        # When it is primed
        storage.prime()
        # Then every part is built, the ledger included
        assert len(parts) >= 11
        assert all(name in vars(storage) for name in parts), parts
