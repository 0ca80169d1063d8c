"""DynamoDB + S3 Vectors adapter of the storage port (see docs/dynamodb.md)."""

from shared.storage.dynamo.adapter import DynamoStorage
from shared.storage.dynamo.parallel import RoundTrips
from shared.storage.dynamo.schema import bootstrap

__all__ = ["DynamoStorage", "RoundTrips", "bootstrap"]
