"""DynamoDB + S3 Vectors adapter of the storage port (see docs/dynamodb.md)."""

from shared.storage.dynamo.adapter import DynamoStorage
from shared.storage.dynamo.parallel import RoundTrips
from shared.storage.dynamo.schema import (
    TABLE_PROPERTIES,
    VECTOR_BUCKET_PROPERTIES,
    bootstrap,
    create_table_kwargs,
)

__all__ = [
    "TABLE_PROPERTIES",
    "VECTOR_BUCKET_PROPERTIES",
    "DynamoStorage",
    "RoundTrips",
    "bootstrap",
    "create_table_kwargs",
]
