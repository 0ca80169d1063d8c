"""Embeddings in Amazon S3 Vectors (docs/dynamodb.md, "S3 Vectors bucket").

Invariants:
- One vector index per embedding profile and dimension (`index_name`), created on the first
  write: a vector is only compared with vectors of its profile and dimension, and the
  dimensions a profile has are one ListIndexes away.
- A fresh vector key per write, `<tenant>/<memory id>/<write id>`, named by the item's
  `embedding_key` (`<index>|<key>`): a failed or duplicate write deletes its own vector and
  never touches the vector of an existing memory.
- Every vector carries the metadata every query filters by: `tenant`, `area`, `typ`,
  `expires_at` (long-term memories `NEVER`).
- The bucket is addressed by its name, one way for every call (an ARN is cut to it).
- Writes report failures instead of raising, so that they run as tasks of a stage next to
  DynamoDB calls. Vector data and texts are never logged.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from shared.domain import Memory, MemoryId, MemoryType
from shared.search.vectors import (
    VectorHit,
    VectorProfileError,
    VectorQuery,
    VectorSearchUnavailable,
    decode,
    encode,
)
from shared.storage.dynamo.calls import AWS_ERRORS, chunks, error_code, made

if TYPE_CHECKING:
    from mypy_boto3_s3vectors import S3VectorsClient

_log = logging.getLogger(__name__)

BATCH_MAX: Final = 500  # PutVectors / DeleteVectors keys per call
NEVER: Final = 253402300799.0  # 9999-12-31T23:59:59Z: expires_at of long-term memories
NO_PROFILE: Final = "ohne-profil"
_INDEX_NAME: Final = re.compile(r"[a-z0-9][a-z0-9-]{1,56}")  # + "-d<dim>" <= 63
_NOT_FOUND: Final = "NotFoundException"
_CONFLICT: Final = "ConflictException"


def index_base(profil_hash: str | None) -> str:
    if not profil_hash:
        return NO_PROFILE
    if _INDEX_NAME.fullmatch(profil_hash) and not profil_hash.endswith("-"):
        return profil_hash
    return "p-" + hashlib.sha256(profil_hash.encode()).hexdigest()[:24]


def index_name(profil_hash: str | None, dimension: int) -> str:
    return f"{index_base(profil_hash)}-d{dimension}"


def vector_ref(memory: Memory, dimension: int, write_id: str) -> str:
    """The `embedding_key` of a memory's item: `<index>|<tenant>/<memory id>/<write id>`."""
    key = f"{memory.tenant}/{memory.id}/{write_id}"
    return f"{index_name(memory.embedding_profil_hash, dimension)}|{key}"


def _split(ref: str) -> tuple[str, str]:
    index, _, key = ref.partition("|")
    return index, key


def _memory_id(key: str, tenant: str) -> MemoryId | None:
    parts = key.rsplit("/", 2)
    return MemoryId.parse(parts[1]) if len(parts) == 3 and parts[0] == tenant else None


@dataclass(frozen=True)
class VectorWrite:
    memory: Memory
    ref: str
    body: bytes


def _batches[T](values: Sequence[T], ref: Callable[[T], str]) -> list[tuple[str, list[T]]]:
    """`values` grouped by the index their `ref` names, at most BATCH_MAX per group."""
    by_index: dict[str, list[T]] = {}
    for value in values:
        by_index.setdefault(_split(ref(value))[0], []).append(value)
    return [(i, chunk) for i, group in by_index.items() for chunk in chunks(group, BATCH_MAX)]


class EmbeddingVectors:
    """`bucket` is the vector bucket's name, or its ARN (what the template's `!Ref` gives)."""

    def __init__(self, client: S3VectorsClient, bucket: str) -> None:
        self._client = client
        self._bucket: dict[str, Any] = {"vectorBucketName": bucket.rpartition(":bucket/")[2]}
        # Profile -> dimension, once an index of it is known to exist (written to, listed):
        # a profile's dimension is fixed, so a warm process asks S3 Vectors once per profile.
        self._fixed: dict[str, int] = {}

    def profile_dimensions(self, tenant: str, profiles: Sequence[str]) -> dict[str, int]:
        """Each profile's dimension: its index in the bucket (one ListIndexes per profile
        not seen before; the smallest should there be several). Indexes are per profile
        and dimension, shared by the tenants of a bucket: `tenant` plays no part."""
        del tenant
        for profil_hash in dict.fromkeys(profiles):
            if profil_hash not in self._fixed and (dimensions := self._dimensions(profil_hash)):
                self._fixed[profil_hash] = min(dimensions)
        return {p: self._fixed[p] for p in profiles if p in self._fixed}

    def _index(self, index: str) -> dict[str, Any]:
        return {**self._bucket, "indexName": index}

    # --- writes -------------------------------------------------------------------------

    def put_tasks(self, writes: Sequence[VectorWrite]) -> list[Callable[[], dict[str, str]]]:
        """The tasks (for a caller's stage) of one PutVectors per index and BATCH_MAX
        writes, the index created when missing: each the refs it did not store, with why."""
        return [partial(self._put, i, batch) for i, batch in _batches(writes, lambda w: w.ref)]

    def _put(self, index: str, writes: Sequence[VectorWrite]) -> dict[str, str]:
        vectors: list[Any] = [
            {
                "key": _split(w.ref)[1],
                "data": {"float32": list(decode(w.body))},
                "metadata": {
                    "tenant": w.memory.tenant,
                    "area": w.memory.area,
                    "typ": MemoryType(w.memory.id.typ).value,
                    "expires_at": w.memory.expires_at.timestamp() if w.memory.expires_at else NEVER,
                },
            }
            for w in writes
        ]
        dimension = len(vectors[0]["data"]["float32"])
        put = partial(self._client.put_vectors, **self._index(index), vectors=vectors)
        try:
            try:
                put()
            except AWS_ERRORS as exc:
                if error_code(exc) != _NOT_FOUND:
                    raise
                create = partial(
                    self._client.create_index,
                    **self._index(index),
                    dataType="float32",
                    dimension=dimension,
                    distanceMetric="cosine",
                )
                made(create, exists=_CONFLICT)  # or made side by side meanwhile: fine
                put()  # then once more
        except AWS_ERRORS as exc:
            _log.warning("put_vectors %s (%d vectors): %s", index, len(vectors), exc)
            return dict.fromkeys(
                (w.ref for w in writes), f"embeddings ({index}): {error_code(exc)}"
            )
        if profil_hash := writes[0].memory.embedding_profil_hash:  # its index exists now
            self._fixed.setdefault(profil_hash, dimension)  # the first dimension met stays
        return {}

    def delete(self, refs: Sequence[str]) -> None:
        """Best effort, batched per index: a left-over vector is never returned for a
        memory it does not belong to (search re-checks every hit on the item; logged)."""
        for index, batch in _batches(refs, str):
            try:
                self._client.delete_vectors(
                    **self._index(index), keys=[_split(r)[1] for r in batch]
                )
            except AWS_ERRORS as exc:
                if error_code(exc) != _NOT_FOUND:
                    _log.error("orphan vectors left in %s (%d): %s", index, len(batch), exc)

    # --- reads --------------------------------------------------------------------------

    def get(self, ref: str) -> bytes | None:
        index, key = _split(ref)
        try:
            response = self._client.get_vectors(**self._index(index), keys=[key], returnData=True)
        except AWS_ERRORS as exc:
            if error_code(exc) == _NOT_FOUND:
                return None
            raise
        found = [v for v in response.get("vectors", []) if v.get("key") == key]
        return encode(found[0].get("data", {}).get("float32", [])) if found else None

    def search(self, query: VectorQuery) -> list[VectorHit]:
        """One QueryVectors on the query's index, filtered to the tenant, the areas, the
        type and what has not expired (none without areas or limit); a missing index tells
        the profile's dimensions, any other error is `VectorSearchUnavailable`."""
        if not query.areas or query.limit <= 0:
            return []
        index = index_name(query.profil_hash, query.dimension)
        conditions: list[dict[str, Any]] = [
            {"tenant": {"$eq": query.tenant}},
            {"area": {"$in": sorted(query.areas)}},
            {"expires_at": {"$gt": query.now.timestamp()}},
        ]
        if query.typ is not None:
            conditions.append({"typ": {"$eq": MemoryType(query.typ).value}})
        try:
            response = self._client.query_vectors(
                **self._index(index),
                topK=query.limit,
                queryVector={"float32": list(query.vector)},
                filter={"$and": conditions},
                returnDistance=True,
            )
        except AWS_ERRORS as exc:
            if error_code(exc) != _NOT_FOUND:
                raise VectorSearchUnavailable(error_code(exc) or type(exc).__name__) from exc
            raise VectorProfileError(
                query.profil_hash, query.dimension, self._dimensions(query.profil_hash)
            ) from exc
        best: dict[MemoryId, float] = {}  # a memory's best vector (a stale one may be left)
        for vector in sorted(response.get("vectors", []), key=lambda v: v.get("distance", 1.0)):
            if (memory_id := _memory_id(vector.get("key", ""), query.tenant)) is not None:
                best.setdefault(memory_id, 1.0 - float(vector.get("distance", 1.0)))  # cosine
        ranked = sorted(best.items(), key=lambda item: (-item[1], item[0]))
        return [VectorHit(memory_id, score) for memory_id, score in ranked[: query.limit]]

    def _dimensions(self, profil_hash: str) -> list[int]:
        """The dimensions a profile has indexes for (one ListIndexes by name prefix)."""
        prefix = f"{index_base(profil_hash)}-d"
        response = self._client.list_indexes(**self._bucket, prefix=prefix)
        names = [entry.get("indexName", "") for entry in response.get("indexes", [])]
        return [int(n[len(prefix) :]) for n in names if n[len(prefix) :].isdigit()]
