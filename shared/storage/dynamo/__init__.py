"""DynamoDB + S3 adapter of the storage port (see docs/dynamodb.md)."""

from shared.storage.dynamo.adapter import DynamoStorage
from shared.storage.dynamo.parallel import RoundTrips, Stage, current_stage
from shared.storage.dynamo.schema import (
    BUCKET_PROPERTIES,
    TABLE_PROPERTIES,
    bootstrap,
    create_table_kwargs,
)

__all__ = [
    "BUCKET_PROPERTIES",
    "TABLE_PROPERTIES",
    "DynamoStorage",
    "RoundTrips",
    "Stage",
    "bootstrap",
    "create_table_kwargs",
    "current_stage",
]
