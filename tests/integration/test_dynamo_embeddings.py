"""Embeddings live in S3 Vectors (never in the DynamoDB item): one index per profile and
dimension, keys per tenant and memory, filterable metadata; failures leave nothing behind.

moto implements S3 Vectors except QueryVectors: everything here runs on moto; the query
path is tested with botocore's Stubber (test_dynamo_vector_query.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from shared.domain import EmbeddingChange, EntryFailure, EntryFailureCode, MemoryReplace, MemoryType
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage
from shared.storage.dynamo.embeddings import BATCH_MAX, NEVER, index_name
from shared.storage.dynamo.items import memory_key
from tests.contract.builders import OTHER_TENANT, T0, TENANT, embedding, lt, new_memory
from tests.integration.conftest import BUCKET, TABLE, CallRecorder, inject_failure

PROFILE = "titan-embed-text-v2-3-0123456789ab"


def vector_keys(clients: AwsClients, index: str) -> list[str]:
    listed = clients.s3vectors.list_vectors(vectorBucketName=BUCKET, indexName=index)
    return sorted(v["key"] for v in listed.get("vectors", []))


def indexes(clients: AwsClients) -> list[str]:
    listed = clients.s3vectors.list_indexes(vectorBucketName=BUCKET)
    return sorted(i["indexName"] for i in listed.get("indexes", []))


def raw_item(clients: AwsClients, key: dict[str, Any]) -> dict[str, Any] | None:
    found = clients.dynamodb.get_item(TableName=TABLE, Key=key, ConsistentRead=True)
    return found.get("Item")


def assert_storage_failure(result: object) -> None:
    assert isinstance(result, EntryFailure), result
    assert result.code == EntryFailureCode.STORAGE


def test_embedding_is_a_vector_of_its_profile_index_keyed_by_tenant_and_memory(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a memory with a 3-dimensional embedding of a profile, and one of another tenant
    vector = embedding(0.5, -1.25, 3.0)
    # When both are stored
    assert storage.put_memories(
        [
            new_memory(lt(1), vector=vector, embedding_dim=3, embedding_profil_hash=PROFILE),
            new_memory(
                lt(1), tenant=OTHER_TENANT, vector=embedding(9.0, 1.0, 1.0), embedding_dim=3
            ),
        ]
    ) == [None, None]
    # Then get_embedding returns the values unchanged
    assert storage.get_embedding(TENANT, lt(1)) == vector
    # And each lives in the index of its profile and dimension (created on first write)
    assert indexes(clients) == sorted([index_name(PROFILE, 3), index_name(None, 3)])
    (key,) = vector_keys(clients, index_name(PROFILE, 3))
    assert key.startswith(f"{TENANT}/longterm_1/")
    # with the filterable metadata tenant, area, type and expiry
    got = clients.s3vectors.get_vectors(
        vectorBucketName=BUCKET,
        indexName=index_name(PROFILE, 3),
        keys=[key],
        returnMetadata=True,
    )
    assert got["vectors"][0]["metadata"] == {
        "tenant": TENANT,
        "area": "users/nutzer-1",
        "typ": MemoryType.LONGTERM.value,
        "expires_at": NEVER,
    }
    # And the item names the vector but never holds it
    item = raw_item(clients, memory_key(TENANT, lt(1)))
    assert item is not None
    assert item["embedding_key"] == {"S": f"{index_name(PROFILE, 3)}|{key}"}
    assert item["embedding_dim"] == {"N": "3"}
    assert not any("B" in value for value in item.values())


def test_a_batch_is_one_put_vectors_per_index_and_500_vectors(
    storage: DynamoStorage, clients: AwsClients, recorder: CallRecorder
) -> None:
    # Given 501 memories of one profile and 2 of another dimension (indexes exist already)
    first = [new_memory(lt(1), vector=embedding(1.0, 2.0), embedding_profil_hash=PROFILE)]
    first.append(new_memory(lt(2), vector=embedding(1.0, 2.0, 3.0), embedding_profil_hash=PROFILE))
    assert storage.put_memories(first) == [None, None]
    recorder.reset()
    batch = [
        new_memory(lt(10 + i), vector=embedding(1.0, float(i)), embedding_profil_hash=PROFILE)
        for i in range(BATCH_MAX + 1)
    ] + [
        new_memory(
            lt(9000 + i), vector=embedding(1.0, 2.0, float(i)), embedding_profil_hash=PROFILE
        )
        for i in range(2)
    ]
    # When they are stored
    assert storage.put_memories(batch) == [None] * len(batch)
    # Then three PutVectors went out: 500 + 1 of the 2-d index, 2 of the 3-d index
    assert recorder.operations()["PutVectors"] == 3
    assert len(vector_keys(clients, index_name(PROFILE, 2))) == BATCH_MAX + 2


def test_failed_put_vectors_fails_its_entries_and_leaves_no_item(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given S3 Vectors refuses the vectors of the 3-dimensional index
    failed = inject_failure(
        clients.s3vectors, "s3vectors.PutVectors", lambda r: b"-d3" in r["body"]
    )
    # When a 2-d and a 3-d memory are stored
    results = storage.put_memories(
        [
            new_memory(lt(1), vector=embedding(1.0, 2.0)),
            new_memory(lt(2), vector=embedding(1.0, 2.0, 3.0)),
        ]
    )
    # Then only longterm_2 fails, and neither its item nor its vector exists
    assert len(failed.requests) == 1
    assert results[0] is None
    assert_storage_failure(results[1])
    assert raw_item(clients, memory_key(TENANT, lt(2))) is None
    assert storage.get_embedding(TENANT, lt(1)) == embedding(1.0, 2.0)


def test_failed_item_put_deletes_the_vector_written_for_it(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given DynamoDB refuses the transaction of longterm_2's item (not a duplicate: a
    # service error; longterm_1 is counted in another stats shard)
    failed = inject_failure(
        clients.dynamodb,
        "dynamodb.TransactWriteItems",
        lambda r: b"longterm_2" in r["body"] and b'"Put"' in r["body"],
    )
    # When two memories with embeddings are stored
    results = storage.put_memories(
        [new_memory(lt(i), vector=embedding(float(i), 1.0)) for i in (1, 2)]
    )
    # Then longterm_2 fails and its vector was removed again; longterm_1 is complete
    assert len(failed.requests) == 1
    assert results[0] is None
    assert_storage_failure(results[1])
    keys = vector_keys(clients, index_name(None, 2))
    assert [k.split("/")[1] for k in keys] == ["longterm_1"]


def test_duplicate_id_leaves_no_orphan_and_keeps_the_existing_vector(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given longterm_1 with its embedding
    original = embedding(1.0, 2.0)
    assert storage.put_memories([new_memory(lt(1), memory="alt", vector=original)]) == [None]
    (original_key,) = vector_keys(clients, index_name(None, 2))
    # When longterm_1 is stored again with another embedding
    results = storage.put_memories([new_memory(lt(1), memory="neu", vector=embedding(9.0, 1.0))])
    # Then the duplicate fails, the new vector is gone, the existing one is untouched
    assert_storage_failure(results[0])
    assert vector_keys(clients, index_name(None, 2)) == [original_key]
    assert storage.get_embedding(TENANT, lt(1)) == original
    assert storage.get_memories(TENANT, [lt(1)], now=T0)[lt(1)].memory == "alt"


def test_delete_removes_the_vector_with_one_delete_vectors(
    storage: DynamoStorage, clients: AwsClients, recorder: CallRecorder
) -> None:
    # Given two memories with vectors of one index
    stored = [new_memory(lt(i), vector=embedding(float(i), 1.0)) for i in (1, 2)]
    assert storage.put_memories(stored) == [None, None]
    recorder.reset()
    # When both are deleted
    assert sorted(storage.delete_memories(TENANT, [lt(1), lt(2)], now=T0), key=str) == [
        lt(1),
        lt(2),
    ]
    # Then their vectors are gone, removed in one DeleteVectors
    assert vector_keys(clients, index_name(None, 2)) == []
    assert recorder.operations()["DeleteVectors"] == 1


def test_memory_without_embedding_writes_no_vector(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a memory without embedding
    # When it is stored
    assert storage.put_memories([new_memory(lt(1))]) == [None]
    # Then there is no index, no vector and no embedding
    assert indexes(clients) == []
    assert storage.get_embedding(TENANT, lt(1)) is None


def test_a_replace_whose_new_vector_fails_reports_storage_and_its_resend_heals_it(
    storage: DynamoStorage, clients: AwsClients
) -> None:
    # Given a stored memory with a vector, and S3 Vectors refusing new vectors
    assert storage.put_memories([new_memory(lt(1), vector=embedding(1.0, 2.0))]) == [None]
    read = storage.get_memories(TENANT, [lt(1)], T0)[lt(1)]
    failed = inject_failure(clients.s3vectors, "s3vectors.PutVectors")
    # When it is replaced with a new embedding (PutVectors beside the item's update)
    text = replace(read, memory="neu", terms={"neu": 1}, doc_len=1)
    change = MemoryReplace(text, read, EmbeddingChange.SET, embedding(3.0, 4.0))
    (result,) = storage.replace_memories([change], T0)
    # Then it reports STORAGE: the item is the new version, its old vector is gone, and
    # no vector is returned for it (the one it names never arrived)
    assert len(failed.requests) == 1
    assert_storage_failure(result)
    stored = storage.get_memories(TENANT, [lt(1)], T0)[lt(1)]
    assert stored.memory == "neu"
    assert vector_keys(clients, index_name(None, 2)) == []
    assert storage.get_embedding(TENANT, lt(1)) is None
    # When S3 Vectors works again and the update is resent (from what the service reads)
    failed.active = False
    again = MemoryReplace(
        replace(stored, updated_at=T0), stored, EmbeddingChange.SET, embedding(3.0, 4.0)
    )
    # Then the memory has its new vector, and only that one
    assert storage.replace_memories([again], T0) == [None]
    assert storage.get_embedding(TENANT, lt(1)) == embedding(3.0, 4.0)
    assert len(vector_keys(clients, index_name(None, 2))) == 1
