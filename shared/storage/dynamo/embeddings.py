"""Embeddings in Amazon S3 Vectors: one vector bucket, one vector index per embedding
profile and dimension, vectors keyed by tenant and memory ID.

Invariants:
- Index name: `<profile>-d<dimension>` when the profile hash is already a valid, short
  index name (the server's profiles are: `titan-embed-text-v2-1024-…`), else
  `p-<sha256(profile)[:24]>-d<dimension>`; vectors without a profile go to
  `ohne-profil-d<dimension>`. So a vector is only ever compared with vectors of the same
  profile and dimension, and the dimensions a profile has are one ListIndexes away.
- Vector key: `<tenant>/<memory id>/<write id>`, a fresh key per write (as the S3 objects
  before): a failed or duplicate write deletes its own vector and never touches the vector
  of an existing memory. The memory item names its vector by `embedding_key`
  (`<index>|<vector key>`).
- Filterable metadata: `tenant`, `area`, `typ`, `expires_at` (epoch seconds; long-term
  memories `NEVER`) — every query filters by tenant, readable areas and expiry.
- A missing index is created on first write (cosine, float32); PutVectors and
  DeleteVectors go in batches of at most 500 keys per index.
- Helpers report failures instead of raising, so that they run as tasks of a stage next to
  DynamoDB calls. Vector data and texts are never logged.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
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
from shared.storage.dynamo.calls import AWS_ERRORS, chunks, error_code

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


def _memory_id(key: str) -> MemoryId | None:
    parts = key.rsplit("/", 2)
    return MemoryId.parse(parts[1]) if len(parts) == 3 else None


def expiry_seconds(expires_at: datetime | None) -> float:
    return NEVER if expires_at is None else expires_at.timestamp()


@dataclass(frozen=True)
class VectorWrite:
    memory: Memory
    ref: str
    body: bytes


class EmbeddingVectors:
    """`bucket` is the vector bucket's name, or its ARN (what the template's `!Ref` gives)."""

    def __init__(self, client: S3VectorsClient, bucket: str) -> None:
        self._client = client
        self._bucket = bucket
        # Profile -> dimension, once an index of it is known to exist (written to, listed):
        # a profile's dimension is fixed, so a warm process asks S3 Vectors once per profile.
        self._fixed: dict[str, int] = {}

    def profile_dimensions(self, tenant: str, profiles: Sequence[str]) -> dict[str, int]:
        """Each profile's dimension: its index in the bucket (one ListIndexes per profile
        not seen before; the smallest should there be several). Indexes are per profile
        and dimension, shared by the tenants of a bucket: `tenant` plays no part."""
        del tenant
        found: dict[str, int] = {}
        for profil_hash in dict.fromkeys(profiles):
            if profil_hash not in self._fixed:
                dimensions = self._dimensions(profil_hash)
                if dimensions:
                    self._fixed[profil_hash] = min(dimensions)
            if profil_hash in self._fixed:
                found[profil_hash] = self._fixed[profil_hash]
        return found

    def _index(self, index: str) -> dict[str, Any]:
        if self._bucket.startswith("arn:"):
            return {"indexArn": f"{self._bucket}/index/{index}"}
        return {**self._where(), "indexName": index}

    def _where(self) -> dict[str, Any]:
        arn = self._bucket.startswith("arn:")
        return {"vectorBucketArn" if arn else "vectorBucketName": self._bucket}

    # --- writes -------------------------------------------------------------------------

    @staticmethod
    def batches(writes: Sequence[VectorWrite]) -> list[list[VectorWrite]]:
        """Writes grouped by index, at most BATCH_MAX per group: one PutVectors each."""
        by_index: dict[str, list[VectorWrite]] = {}
        for write in writes:
            by_index.setdefault(_split(write.ref)[0], []).append(write)
        return [chunk for group in by_index.values() for chunk in chunks(group, BATCH_MAX)]

    def put_batch(self, writes: Sequence[VectorWrite]) -> str | None:
        """One PutVectors for writes of one index (created when missing); None, or why
        it failed (then none of them is stored)."""
        index = _split(writes[0].ref)[0]
        vectors: list[Any] = [
            {
                "key": _split(w.ref)[1],
                "data": {"float32": list(decode(w.body))},
                "metadata": {
                    "tenant": w.memory.tenant,
                    "area": w.memory.area,
                    "typ": MemoryType(w.memory.id.typ).value,
                    "expires_at": expiry_seconds(w.memory.expires_at),
                },
            }
            for w in writes
        ]
        dimension = len(vectors[0]["data"]["float32"])
        try:
            try:
                self._client.put_vectors(**self._index(index), vectors=vectors)
            except AWS_ERRORS as exc:
                if error_code(exc) != _NOT_FOUND:
                    raise
                self._create_index(index, dimension)  # then once more
                self._client.put_vectors(**self._index(index), vectors=vectors)
        except AWS_ERRORS as exc:
            _log.warning("put_vectors %s (%d vectors): %s", index, len(vectors), exc)
            return f"embeddings ({index}): {error_code(exc)}"
        if profil_hash := writes[0].memory.embedding_profil_hash:  # its index exists now
            self._fixed.setdefault(profil_hash, dimension)  # the first dimension met stays
        return None

    def _create_index(self, index: str, dimension: int) -> None:
        """The index (cosine, float32); one created side by side meanwhile is fine."""
        try:
            self._client.create_index(
                **self._where(),
                indexName=index,
                dataType="float32",
                dimension=dimension,
                distanceMetric="cosine",
            )
        except AWS_ERRORS as exc:
            if error_code(exc) != _CONFLICT:
                raise

    def delete(self, refs: Sequence[str]) -> None:
        """Best effort, batched per index: a left-over vector is never returned for a
        memory it does not belong to (search re-checks every hit on the item; logged)."""
        by_index: dict[str, list[str]] = {}
        for ref in refs:
            index, key = _split(ref)
            by_index.setdefault(index, []).append(key)
        for index, keys in by_index.items():
            for chunk in chunks(keys, BATCH_MAX):
                try:
                    self._client.delete_vectors(**self._index(index), keys=chunk)
                except AWS_ERRORS as exc:
                    if error_code(exc) != _NOT_FOUND:
                        _log.error("orphan vectors left in %s (%d): %s", index, len(chunk), exc)

    # --- reads --------------------------------------------------------------------------

    def get(self, ref: str) -> bytes | None:
        index, key = _split(ref)
        try:
            response = self._client.get_vectors(**self._index(index), keys=[key], returnData=True)
        except AWS_ERRORS as exc:
            if error_code(exc) == _NOT_FOUND:
                return None
            raise
        for vector in response.get("vectors", []):
            if vector.get("key") == key:
                return encode(vector.get("data", {}).get("float32", []))
        return None

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
        best: dict[MemoryId, float] = {}
        prefix = f"{query.tenant}/"
        for vector in response.get("vectors", []):
            key = vector.get("key", "")
            memory_id = _memory_id(key) if key.startswith(prefix) else None
            if memory_id is None:
                continue
            score = 1.0 - float(vector.get("distance", 1.0))  # cosine distance
            best[memory_id] = max(score, best.get(memory_id, -2.0))
        ranked = sorted(best.items(), key=lambda item: (-item[1], item[0]))
        return [VectorHit(memory_id, score) for memory_id, score in ranked[: query.limit]]

    def _dimensions(self, profil_hash: str) -> list[int]:
        """The dimensions a profile has indexes for (one ListIndexes by name prefix)."""
        prefix = f"{index_base(profil_hash)}-d"
        response = self._client.list_indexes(**self._where(), prefix=prefix)
        names = [entry.get("indexName", "") for entry in response.get("indexes", [])]
        return [int(n[len(prefix) :]) for n in names if n[len(prefix) :].isdigit()]
