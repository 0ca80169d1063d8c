"""QueryVectors for moto, which implements S3 Vectors except this one operation.

A `before-call` hook on the S3 Vectors client answers QueryVectors from the vectors moto
holds (ListVectors with data and metadata): exact cosine distance, the metadata filter
operators S3 Vectors documents ($eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists, $and,
$or), topK. The request has passed botocore's validation against the real service model
before the hook sees it; the answer has the service's response shape. So the contract suite
runs unchanged on the DynamoDB + S3 Vectors adapter; test_dynamo_vector_query.py checks the
adapter's requests and its reading of answers with botocore's Stubber as well.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import boto3
from botocore.awsrequest import AWSResponse, HTTPHeaders

_INSIDE = threading.local()


def emulating() -> bool:
    """Whether the running thread is inside the emulation (its ListVectors is no call of the
    code under test: call recorders leave it out)."""
    return bool(getattr(_INSIDE, "active", False))


def _matches(metadata: dict[str, Any], condition: dict[str, Any]) -> bool:
    for key, expected in condition.items():
        if key == "$and":
            if not all(_matches(metadata, part) for part in expected):
                return False
        elif key == "$or":
            if not any(_matches(metadata, part) for part in expected):
                return False
        elif not _compare(metadata, key, expected):
            return False
    return True


def _compare(metadata: dict[str, Any], key: str, expected: Any) -> bool:
    present = key in metadata
    value = metadata.get(key)
    if not isinstance(expected, dict):
        return present and value == expected
    ((op, operand),) = expected.items()
    if op == "$exists":
        return present is bool(operand)
    if not present:
        return op in ("$ne", "$nin")
    checks = {
        "$eq": lambda: value == operand,
        "$ne": lambda: value != operand,
        "$gt": lambda: value > operand,
        "$gte": lambda: value >= operand,
        "$lt": lambda: value < operand,
        "$lte": lambda: value <= operand,
        "$in": lambda: value in operand,
        "$nin": lambda: value not in operand,
    }
    return bool(checks[op]())


def _cosine_distance(a: list[float], b: list[float]) -> float:
    norm = math.sqrt(math.sumprod(a, a) * math.sumprod(b, b))
    return 1.0 - (math.sumprod(a, b) / norm if norm else 0.0)


def emulate_query_vectors(client: Any) -> None:
    """Answer the client's QueryVectors calls from what moto stores."""

    def hook(params: dict[str, Any], model: Any, **_: Any) -> Any:
        request = json.loads(params["body"])
        where = {"vectorBucketName": request["vectorBucketName"], "indexName": request["indexName"]}
        _INSIDE.active = True
        try:
            listed = client.list_vectors(**where, returnData=True, returnMetadata=True)
        except client.exceptions.NotFoundException:
            error = {
                "Code": "NotFoundException",
                "Message": "The specified index could not be found",
            }
            return AWSResponse("", 404, HTTPHeaders(), None), {
                "Error": error,
                "ResponseMetadata": {"HTTPStatusCode": 404},
            }
        finally:
            _INSIDE.active = False
        query = request["queryVector"]["float32"]
        condition = request.get("filter") or {}
        scored = sorted(
            (
                (_cosine_distance(query, vector["data"]["float32"]), vector["key"], vector)
                for vector in listed.get("vectors", [])
                if _matches(vector.get("metadata", {}), condition)
            ),
            key=lambda item: (item[0], item[1]),
        )[: request["topK"]]
        vectors = []
        for distance, key, vector in scored:
            answer: dict[str, Any] = {"key": key}
            if request.get("returnDistance"):
                answer["distance"] = distance
            if request.get("returnMetadata"):
                answer["metadata"] = vector.get("metadata", {})
            vectors.append(answer)
        parsed = {
            "vectors": vectors,
            "distanceMetric": "cosine",
            "ResponseMetadata": {"HTTPStatusCode": 200},
        }
        return AWSResponse("", 200, HTTPHeaders(), None), parsed

    client.meta.events.register("before-call.s3vectors.QueryVectors", hook)


@contextmanager
def every_client_emulating() -> Iterator[None]:
    """Inside the block, every S3 Vectors client that code builds itself (Lambda handlers,
    `make_clients`) answers QueryVectors from moto: moto has no such operation and would let
    the call leave for the real endpoint."""
    session_client = boto3.session.Session.client

    def client(self: boto3.session.Session, service: str, *args: Any, **kwargs: Any) -> Any:
        built = session_client(self, service, *args, **kwargs)
        if service == "s3vectors":
            emulate_query_vectors(built)
        return built

    with mock.patch.object(boto3.session.Session, "client", client):
        yield
