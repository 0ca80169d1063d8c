"""The AWS clients the DynamoDB adapter works with (built by shared/storage/aws.py).

Invariant: this module imports no other Brain module, so the adapter, the schema and the
client factory all import it without an import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3vectors import S3VectorsClient


@dataclass(frozen=True)
class AwsClients:
    dynamodb: DynamoDBClient
    s3vectors: S3VectorsClient
