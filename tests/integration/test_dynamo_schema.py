"""The table and bucket definitions and `bootstrap` (DynamoDB Local; S3 Vectors on moto).

DynamoDB Local implements neither encryption at rest nor point-in-time recovery: what
bootstrap asks for there is read from its requests."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.storage.aws import AwsClients
from shared.storage.dynamo.items import (
    AREA_INDEX,
    EXP_INDEX,
    REF_INDEX,
    TTL_ATTRIBUTE,
    TYP_INDEX,
)
from shared.storage.dynamo.schema import (
    TABLE_PROPERTIES,
    VECTOR_BUCKET_PROPERTIES,
    bootstrap,
    create_table_kwargs,
)
from tests.integration.conftest import BUCKET, TABLE, inject_response


def test_bootstrap_creates_table_and_bucket_once(clients: AwsClients) -> None:
    # Given an account without the table and the bucket
    assert TABLE not in clients.dynamodb.list_tables()["TableNames"]
    # When bootstrap runs twice
    first = bootstrap(clients, TABLE, BUCKET)
    second = bootstrap(clients, TABLE, BUCKET)
    # Then the first run creates both, the second creates nothing
    assert first == [f"table:{TABLE}", f"vector-bucket:{BUCKET}"]
    assert second == []
    table = clients.dynamodb.describe_table(TableName=TABLE)["Table"]
    assert table["TableStatus"] == "ACTIVE"
    buckets = clients.s3vectors.list_vector_buckets()["vectorBuckets"]
    assert BUCKET in [b["vectorBucketName"] for b in buckets]


def test_table_matches_the_cloudformation_definition(clients: AwsClients) -> None:
    # Given an engine that answers UpdateContinuousBackups (DynamoDB Local lacks it)
    requests: dict[str, dict[str, Any]] = {}

    def seen(params: dict[str, Any], model: Any, **_: Any) -> None:
        requests[model.name] = params

    clients.dynamodb.meta.events.register("provide-client-params.dynamodb", seen)
    inject_response(clients.dynamodb, "dynamodb.UpdateContinuousBackups", lambda _r: (200, {}))
    # When bootstrap creates the table and it is described
    assert f"table:{TABLE}" in bootstrap(clients, TABLE, BUCKET)
    table = clients.dynamodb.describe_table(TableName=TABLE)["Table"]
    # Then keys, attribute types and GSIs are those of TABLE_PROPERTIES
    assert table["KeySchema"] == TABLE_PROPERTIES["KeySchema"]
    assert sorted(table["AttributeDefinitions"], key=lambda a: a["AttributeName"]) == sorted(
        TABLE_PROPERTIES["AttributeDefinitions"], key=lambda a: a["AttributeName"]
    )
    indexes = {gsi["IndexName"]: gsi for gsi in table["GlobalSecondaryIndexes"]}
    assert set(indexes) == {REF_INDEX, TYP_INDEX, EXP_INDEX, AREA_INDEX}
    for expected in TABLE_PROPERTIES["GlobalSecondaryIndexes"]:
        actual = indexes[expected["IndexName"]]
        assert actual["KeySchema"] == expected["KeySchema"]
        assert actual["Projection"] == expected["Projection"]
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    # And TTL is on `expires_at`
    ttl = clients.dynamodb.describe_time_to_live(TableName=TABLE)["TimeToLiveDescription"]
    assert ttl["AttributeName"] == TTL_ATTRIBUTE == "expires_at"
    assert ttl["TimeToLiveStatus"] in ("ENABLED", "ENABLING")
    # And the table was created encrypted, and point-in-time recovery switched on
    assert requests["CreateTable"]["SSESpecification"] == {"Enabled": True}
    pitr = requests["UpdateContinuousBackups"]["PointInTimeRecoverySpecification"]
    assert pitr == {"PointInTimeRecoveryEnabled": True}


def test_vector_bucket_is_encrypted_with_kms(clients: AwsClients, created: list[str]) -> None:
    # Given a bootstrapped vector bucket
    assert f"vector-bucket:{BUCKET}" in created
    # When it is read
    bucket = clients.s3vectors.get_vector_bucket(vectorBucketName=BUCKET)["vectorBucket"]
    # Then its vectors are encrypted with SSE-KMS, as the template's bucket
    assert bucket["encryptionConfiguration"]["sseType"] == "aws:kms"


def test_definitions_are_pure_cloudformation() -> None:
    # Given the dicts template.yaml embeds
    # When they are inspected
    # Then they hold the required properties, serialise as JSON, and carry no API-only keys
    assert TABLE_PROPERTIES["BillingMode"] == "PAY_PER_REQUEST"
    assert TABLE_PROPERTIES["PointInTimeRecoverySpecification"] == {
        "PointInTimeRecoveryEnabled": True
    }
    assert TABLE_PROPERTIES["SSESpecification"] == {"SSEEnabled": True}
    assert TABLE_PROPERTIES["TimeToLiveSpecification"] == {
        "AttributeName": "expires_at",
        "Enabled": True,
    }
    assert "TableName" not in TABLE_PROPERTIES
    assert VECTOR_BUCKET_PROPERTIES == {"EncryptionConfiguration": {"SseType": "aws:kms"}}
    json.dumps(TABLE_PROPERTIES)
    json.dumps(VECTOR_BUCKET_PROPERTIES)


@pytest.mark.parametrize("key", ["TimeToLiveSpecification", "PointInTimeRecoverySpecification"])
def test_create_table_kwargs_leave_out_what_create_table_does_not_take(key: str) -> None:
    # Given the CloudFormation definition
    # When it is converted for create_table
    kwargs = create_table_kwargs("t")
    # Then TTL and PITR are not passed, SSE uses the API's spelling, and the
    # CloudFormation dict itself is not modified
    assert key not in kwargs
    assert kwargs["TableName"] == "t"
    assert kwargs["SSESpecification"] == {"Enabled": True}
    assert TABLE_PROPERTIES["SSESpecification"] == {"SSEEnabled": True}
