"""Embeddings live in S3 (never in the DynamoDB item); failures leave nothing behind."""

from __future__ import annotations

from typing import Any

from shared.domain import EntryFailure, EntryFailureCode
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage
from shared.storage.dynamo.items import memory_key
from tests.contract.builders import OTHER_TENANT, T0, TENANT, embedding, lt, new_memory
from tests.integration.conftest import BUCKET, TABLE, inject_failure


def object_keys(clients: AwsClients, prefix: str = "") -> list[str]:
    listed = clients.s3.list_objects_v2(Bucket=BUCKET, Prefix=prefix)
    return sorted(obj["Key"] for obj in listed.get("Contents", []))


def raw_item(clients: AwsClients, key: dict[str, Any]) -> dict[str, Any] | None:
    found = clients.dynamodb.get_item(TableName=TABLE, Key=key, ConsistentRead=True)
    return found.get("Item")


def assert_storage_failure(result: object) -> None:
    assert isinstance(result, EntryFailure), result
    assert result.code == EntryFailureCode.STORAGE


def test_embedding_is_stored_in_s3_under_the_tenant_prefix_not_in_the_item(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a memory with a 3-dimensional embedding, and one of another tenant
    vector = embedding(0.5, -1.25, 3.0)
    # When both are stored
    assert storage.put_memories(
        [
            new_memory(lt(1), vector=vector, embedding_dim=3),
            new_memory(lt(1), tenant=OTHER_TENANT, vector=embedding(9.0)),
        ]
    ) == [None, None]
    # Then get_embedding returns the bytes unchanged
    assert storage.get_embedding(TENANT, lt(1)) == vector
    # And they are one SSE-KMS-encrypted object under the tenant's prefix
    (key,) = object_keys(clients, f"{TENANT}/embeddings/")
    assert key.startswith(f"{TENANT}/embeddings/longterm_1/")
    stored = clients.s3.get_object(Bucket=BUCKET, Key=key)
    assert stored["Body"].read() == vector
    assert stored["ServerSideEncryption"] == "aws:kms"  # the bucket default applies
    assert len(object_keys(clients)) == 2
    # And the item holds the metadata only, never the vector
    item = raw_item(clients, memory_key(TENANT, lt(1)))
    assert item is not None
    assert item["embedding_key"] == {"S": key}
    assert item["embedding_dim"] == {"N": "3"}
    assert not any("B" in value for value in item.values())
    assert vector not in repr(item).encode()


def test_failed_s3_put_fails_the_entry_and_leaves_no_item(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given S3 refuses the embedding of longterm_2
    failed = inject_failure(clients.s3, "s3.PutObject", lambda r: "longterm_2" in r["url_path"])
    # When three memories with embeddings are stored
    results = storage.put_memories(
        [new_memory(lt(i), vector=embedding(float(i))) for i in (1, 2, 3)]
    )
    # Then only longterm_2 fails, and neither its item nor its object exists
    assert len(failed.requests) == 1
    assert results[0] is None and results[2] is None
    assert_storage_failure(results[1])
    assert set(storage.get_memories(TENANT, [lt(1), lt(2), lt(3)], now=T0)) == {lt(1), lt(3)}
    assert raw_item(clients, memory_key(TENANT, lt(2))) is None
    assert object_keys(clients, f"{TENANT}/embeddings/longterm_2/") == []
    assert storage.get_embedding(TENANT, lt(3)) == embedding(3.0)


def test_failed_item_put_deletes_the_object_written_for_it(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given DynamoDB refuses the item of longterm_2 (not a duplicate: a service error)
    failed = inject_failure(
        clients.dynamodb, "dynamodb.PutItem", lambda r: b"longterm_2" in r["body"]
    )
    # When two memories with embeddings are stored
    results = storage.put_memories([new_memory(lt(i), vector=embedding(float(i))) for i in (1, 2)])
    # Then longterm_2 fails and its object was removed again; longterm_1 is complete
    assert len(failed.requests) == 1
    assert results[0] is None
    assert_storage_failure(results[1])
    assert object_keys(clients, f"{TENANT}/embeddings/longterm_2/") == []
    assert len(object_keys(clients, f"{TENANT}/embeddings/longterm_1/")) == 1


def test_duplicate_id_leaves_no_orphan_and_keeps_the_existing_object(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given longterm_1 with its embedding
    original = embedding(1.0, 2.0)
    assert storage.put_memories([new_memory(lt(1), memory="alt", vector=original)]) == [None]
    (original_key,) = object_keys(clients, f"{TENANT}/embeddings/")
    # When longterm_1 is stored again with another embedding
    results = storage.put_memories([new_memory(lt(1), memory="neu", vector=embedding(9.0))])
    # Then the duplicate fails, the new object is gone, the existing one is untouched
    assert_storage_failure(results[0])
    assert object_keys(clients, f"{TENANT}/embeddings/") == [original_key]
    assert clients.s3.get_object(Bucket=BUCKET, Key=original_key)["Body"].read() == original
    assert storage.get_embedding(TENANT, lt(1)) == original
    assert storage.get_memories(TENANT, [lt(1)], now=T0)[lt(1)].memory == "alt"


def test_memory_without_embedding_writes_no_object(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a memory without embedding
    # When it is stored
    assert storage.put_memories([new_memory(lt(1))]) == [None]
    # Then there is no object and no embedding
    assert object_keys(clients) == []
    assert storage.get_embedding(TENANT, lt(1)) is None
