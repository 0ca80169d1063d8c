"""botocore Stubber around a real client: calls are checked against the service's model."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import boto3
from botocore.stub import Stubber


@contextmanager
def stubbed_client(service: str) -> Iterator[tuple[Any, Stubber]]:
    """A `service` client (test credentials, eu-central-1) and its active Stubber; on exit
    every queued response must have been used."""
    client = boto3.client(
        service,
        region_name="eu-central-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    with Stubber(client) as stubber:
        yield client, stubber
        stubber.assert_no_pending_responses()
