"""The S3 Vectors query path with botocore's Stubber (moto has no QueryVectors): the
adapter's QueryVectors requests and ListIndexes lookups are validated against the real
s3vectors service model, and its reading of the answers is checked."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from botocore.stub import Stubber

from shared.domain import MemoryType
from shared.search.vectors import VectorProfileError, VectorQuery, VectorSearchUnavailable
from shared.storage.dynamo.embeddings import EmbeddingVectors, index_name
from tests.contract.builders import T0, lt
from tests.stubs import stubbed_client

BUCKET = "brain-vectors"
ARN = "arn:aws:s3vectors:eu-central-1:123456789012:bucket/brain-vectors"
PROFILE = "amazon-titan-embed-text-v2-256-5f36fcdf8683"


@pytest.fixture
def stubbed() -> Iterator[tuple[Any, Stubber]]:
    with stubbed_client("s3vectors") as stub:
        yield stub


def query(typ: MemoryType | None = None) -> VectorQuery:
    areas = frozenset({"users/anna", "teams/core", "projects/p1"})
    return VectorQuery("acme", PROFILE, (0.5, 0.25, 0.0), areas, T0, 30, typ)


def expected_filter(typ: MemoryType | None = None) -> dict[str, Any]:
    conditions: list[dict[str, Any]] = [
        {"tenant": {"$eq": "acme"}},
        {"area": {"$in": ["projects/p1", "teams/core", "users/anna"]}},
        {"expires_at": {"$gt": T0.timestamp()}},
    ]
    if typ is not None:
        conditions.append({"typ": {"$eq": typ.value}})
    return {"$and": conditions}


def test_one_query_vectors_with_the_tenant_area_type_and_expiry_filter(
    stubbed: tuple[Any, Stubber],
) -> None:
    client, stubber = stubbed
    # Given S3 Vectors answers with two vectors of one memory (a stale one left by a
    # replace), one of another memory and a key of another tenant
    stubber.add_response(
        "query_vectors",
        {
            "vectors": [
                {"key": "acme/longterm_7/w2", "distance": 0.05},
                {"key": "acme/longterm_3/w1", "distance": 0.2},
                {"key": "acme/longterm_7/w1", "distance": 0.4},
                {"key": "other/longterm_9/w1", "distance": 0.0},
            ],
            "distanceMetric": "cosine",
        },
        {
            "vectorBucketName": BUCKET,
            "indexName": index_name(PROFILE, 3),
            "topK": 30,
            "queryVector": {"float32": [0.5, 0.25, 0.0]},
            "filter": expected_filter(MemoryType.LONGTERM),
            "returnDistance": True,
        },
    )
    # When the long-term memories of three areas are searched
    hits = EmbeddingVectors(client, BUCKET).search(query(MemoryType.LONGTERM))
    # Then each memory comes once, by its best similarity (1 - cosine distance)
    assert [(h.memory_id, round(h.score, 3)) for h in hits] == [(lt(7), 0.95), (lt(3), 0.8)]


def test_a_bucket_arn_addresses_the_bucket_by_its_name(stubbed: tuple[Any, Stubber]) -> None:
    # Given the adapter built with the bucket's ARN (what the template's `!Ref` gives)
    client, stubber = stubbed
    stubber.add_response(
        "query_vectors",
        {"vectors": [], "distanceMetric": "cosine"},
        {
            "vectorBucketName": BUCKET,
            "indexName": index_name(PROFILE, 3),
            "topK": 30,
            "queryVector": {"float32": [0.5, 0.25, 0.0]},
            "filter": expected_filter(),
            "returnDistance": True,
        },
    )
    stubber.add_client_error("query_vectors", "NotFoundException", http_status_code=404)
    stubber.add_response(
        "list_indexes", {"indexes": []}, {"vectorBucketName": BUCKET, "prefix": f"{PROFILE}-d"}
    )
    vectors = EmbeddingVectors(client, ARN)
    # When it searches, once more without an index of the profile
    # Then every call names the bucket by the name the ARN ends in (one way only)
    assert vectors.search(query()) == []
    with pytest.raises(VectorProfileError):
        vectors.search(query())
    stubber.assert_no_pending_responses()


def test_a_missing_index_tells_the_dimensions_of_the_profile(
    stubbed: tuple[Any, Stubber],
) -> None:
    client, stubber = stubbed
    # Given no index of the profile with 3 dimensions, but one with 256
    stubber.add_client_error("query_vectors", "NotFoundException", http_status_code=404)
    prefix = f"{PROFILE}-d"
    stubber.add_response(
        "list_indexes",
        {
            "indexes": [
                {
                    "vectorBucketName": BUCKET,
                    "indexName": f"{prefix}256",
                    "indexArn": f"{ARN}/index/{prefix}256",
                    "creationTime": T0,
                }
            ]
        },
        {"vectorBucketName": BUCKET, "prefix": prefix},
    )
    # When searched with a 3-dimensional vector
    with pytest.raises(VectorProfileError) as raised:
        EmbeddingVectors(client, BUCKET).search(query())
    # Then the error names the dimension the profile has
    assert (raised.value.dimension, raised.value.known_dimensions) == (3, [256])


def test_long_or_odd_profile_hashes_get_a_valid_index_name() -> None:
    assert index_name(PROFILE, 256) == f"{PROFILE}-d256"
    odd = index_name("Mein Modell/ä" * 20, 1024)
    assert odd.startswith("p-") and odd.endswith("-d1024") and len(odd) <= 63
    assert index_name(None, 3) == "ohne-profil-d3"


def test_any_other_error_is_the_ports_vector_search_unavailable(
    stubbed: tuple[Any, Stubber],
) -> None:
    client, stubber = stubbed
    # Given S3 Vectors throttling the query
    stubber.add_client_error("query_vectors", "ThrottlingException", http_status_code=429)
    # When searched
    with pytest.raises(VectorSearchUnavailable) as raised:
        EmbeddingVectors(client, BUCKET).search(query())
    # Then the error is the port's, naming the code (callers need no botocore)
    assert str(raised.value) == "ThrottlingException"
