"""The table and vector bucket definitions: pure CloudFormation, the single source of truth.

`TABLE_PROPERTIES` is the `Properties` of an `AWS::DynamoDB::Table` (without TableName) and
`VECTOR_BUCKET_PROPERTIES` those of an `AWS::S3Vectors::VectorBucket` (without its name);
template.yaml embeds exactly these dicts. `create_table_kwargs` and `bootstrap` derive the API
calls from them for local stacks (DynamoDB Local) and tests. Key shapes: see `items.py` and
docs/dynamodb.md.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from shared.storage.dynamo.calls import AWS_ERRORS, made
from shared.storage.dynamo.items import (
    AREA_INDEX,
    AREA_PK,
    AREA_SK,
    EXP_INDEX,
    EXP_PK,
    EXP_SK,
    PK,
    REF_INDEX,
    REF_PK,
    REF_SK,
    SK,
    TTL_ATTRIBUTE,
    TYP_INDEX,
    TYP_PK,
    TYP_SK,
)

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

    from shared.storage.aws_clients import AwsClients

_log = logging.getLogger(__name__)

_ALL: Final = {"ProjectionType": "ALL"}
_SWEPT: Final = {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["tenant", "memory_id"]}


def _key_schema(hash_key: str, range_key: str) -> list[dict[str, str]]:
    return [
        {"AttributeName": hash_key, "KeyType": "HASH"},
        {"AttributeName": range_key, "KeyType": "RANGE"},
    ]


def _index(name: str, hash_key: str, range_key: str, projection: Any = _ALL) -> dict[str, Any]:
    return {
        "IndexName": name,
        "KeySchema": _key_schema(hash_key, range_key),
        "Projection": projection,
    }


# Every key attribute of the table and its indexes: strings but for the numeric sort keys.
_KEYS: Final = (PK, SK, REF_PK, REF_SK, TYP_PK, TYP_SK, EXP_PK, EXP_SK, AREA_PK, AREA_SK)
_NUMBERS: Final = (REF_SK, TYP_SK, EXP_SK)

TABLE_PROPERTIES: Final[dict[str, Any]] = {
    "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [
        {"AttributeName": name, "AttributeType": "N" if name in _NUMBERS else "S"} for name in _KEYS
    ],
    "KeySchema": _key_schema(PK, SK),
    "GlobalSecondaryIndexes": [
        # What each holds and why (docs/dynamodb.md, "Global secondary indexes"):
        # brain entries and long-term memories about one entity, newest ID first;
        _index(REF_INDEX, REF_PK, REF_SK),
        # brain entries of one vk_typ, one area's memories of one type, newest first;
        _index(TYP_INDEX, TYP_PK, TYP_SK),
        # sparse, sharded: short-term memories by expiry across tenants (the sweep only,
        # projecting only what it needs to find the memory);
        _index(EXP_INDEX, EXP_PK, EXP_SK, _SWEPT),
        # every memory in its area, in listing order (ALL: one round trip per page).
        _index(AREA_INDEX, AREA_PK, AREA_SK),
    ],
    "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True},
    "SSESpecification": {"SSEEnabled": True},
    "TimeToLiveSpecification": {"AttributeName": TTL_ATTRIBUTE, "Enabled": True},
}

# SSE-KMS (the AWS-managed key unless the template's KmsKeyArn names one); its indexes are
# created on first write (`embeddings.py`; docs/dynamodb.md, "S3 Vectors bucket").
VECTOR_BUCKET_PROPERTIES: Final[dict[str, Any]] = {
    "EncryptionConfiguration": {"SseType": "aws:kms"},
}


def create_table_kwargs(
    table_name: str, properties: Mapping[str, Any] = TABLE_PROPERTIES
) -> dict[str, Any]:
    """CloudFormation table `properties` (by default `TABLE_PROPERTIES`) as `create_table`
    arguments (TTL and point-in-time recovery are none: `bootstrap` applies them)."""
    props = copy.deepcopy(dict(properties))
    taken = ("BillingMode", "AttributeDefinitions", "KeySchema", "GlobalSecondaryIndexes")
    kwargs = {"TableName": table_name, **{k: props[k] for k in taken if props.get(k)}}
    sse = props.get("SSESpecification")
    if sse is not None:  # CloudFormation says SSEEnabled, the API says Enabled
        kms = {k: sse[k] for k in ("SSEType", "KMSMasterKeyId") if k in sse}
        kwargs["SSESpecification"] = {"Enabled": bool(sse["SSEEnabled"]), **kms}
    return kwargs


def bootstrap(clients: AwsClients, table_name: str, bucket_name: str) -> list[str]:
    """Create the table (waiting until it is active) and the vector bucket when missing:
    what was created (`table:<name>`, `vector-bucket:<name>`; a second call []). "Exists"
    counts as done (an existing table is taken as it is). TTL and point-in-time recovery
    are applied on every run, so an interrupted bootstrap heals (docs/dynamodb.md)."""
    dynamodb, vectors = clients.dynamodb, clients.s3vectors
    created: list[str] = []
    table = partial(dynamodb.create_table, **create_table_kwargs(table_name))
    if made(table, exists="ResourceInUseException"):
        created.append(f"table:{table_name}")
    dynamodb.get_waiter("table_exists").wait(
        TableName=table_name, WaiterConfig={"Delay": 2, "MaxAttempts": 90}
    )
    pitr = partial(  # enabling it again is fine; TTL is read first (again: an error)
        dynamodb.update_continuous_backups,
        TableName=table_name,
        PointInTimeRecoverySpecification=TABLE_PROPERTIES["PointInTimeRecoverySpecification"],
    )
    for setting, ensure in (("TTL", partial(_ensure_ttl, dynamodb, table_name)), ("PITR", pitr)):
        try:
            ensure()
        except (*AWS_ERRORS, NotImplementedError) as exc:
            _log.warning("bootstrap: could not enable %s on %s: %s", setting, table_name, exc)
    sse = VECTOR_BUCKET_PROPERTIES["EncryptionConfiguration"]["SseType"]
    bucket = partial(
        vectors.create_vector_bucket,
        vectorBucketName=bucket_name,
        encryptionConfiguration={"sseType": sse},
    )
    if made(bucket, exists="ConflictException"):
        created.append(f"vector-bucket:{bucket_name}")
    return created


def _ensure_ttl(dynamodb: DynamoDBClient, table_name: str) -> None:
    described = dynamodb.describe_time_to_live(TableName=table_name)["TimeToLiveDescription"]
    if described.get("TimeToLiveStatus") not in ("ENABLED", "ENABLING"):
        spec: Any = TABLE_PROPERTIES["TimeToLiveSpecification"]
        dynamodb.update_time_to_live(TableName=table_name, TimeToLiveSpecification=spec)
