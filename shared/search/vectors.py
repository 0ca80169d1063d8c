"""Vector retrieval above the storage port: the query type and exact cosine ranking (the
fusion with the word ranking is `fusion.py`).

Invariants:
- A vector belongs to one profile (`embedding_profil_hash`) and one dimension; vectors are
  compared only within the same (profile, dimension). A query whose profile is unknown, or
  known only with other dimensions, raises `VectorProfileError` — never a silent mismatch.
- Scores are cosine similarities in [-1, 1]; ties break on the memory ID (ascending), so
  rankings are deterministic on every adapter.
"""

from __future__ import annotations

import heapq
import math
import struct
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Self

from shared.domain import MemoryId, MemoryType


@dataclass(frozen=True)
class VectorQuery:
    """Memories of `tenant` in `areas`, with vectors of `profil_hash` and the query's
    dimension, not expired at `now`, of type `typ` when given: the best `limit`."""

    tenant: str
    profil_hash: str
    vector: tuple[float, ...]
    areas: frozenset[str]
    now: datetime
    limit: int
    typ: MemoryType | None = None

    @property
    def dimension(self) -> int:
        return len(self.vector)


@dataclass(frozen=True)
class VectorHit:
    memory_id: MemoryId
    score: float


class VectorSearchUnavailable(Exception):
    """The vector store did not answer a query (unreachable, throttled, or an endpoint
    without QueryVectors, as moto's): raised by the adapter, in the port's terms, so that a
    service that can do without vectors (the duplicate check's read ahead) needs no
    knowledge of the store's client errors."""


class VectorProfileError(Exception):
    """The query vector's profile is unknown, or known only with other dimensions."""

    def __init__(self, profil_hash: str, dimension: int, known_dimensions: Sequence[int]):
        super().__init__(profil_hash)
        self.profil_hash = profil_hash
        self.dimension = dimension
        self.known_dimensions = sorted(set(known_dimensions))


@dataclass(frozen=True)
class VectorRanking:
    """The vector half of a `lookup_memory_terms(vector=...)`: the hits over the areas the
    lookup read (best first, at most the query's limit), or why there are none."""

    hits: list[VectorHit]
    error: VectorProfileError | None = None

    @classmethod
    def of(cls, search: Callable[[VectorQuery], list[VectorHit]], query: VectorQuery) -> Self:
        try:
            return cls(search(query))
        except VectorProfileError as exc:
            return cls([], exc)

    def merged(self, other: VectorRanking, limit: int) -> VectorRanking:
        """Both rankings' hits, best first, at most `limit` (an error of either wins)."""
        hits = sorted([*self.hits, *other.hits], key=lambda h: (-h.score, h.memory_id))
        return VectorRanking(hits[:limit], self.error or other.error)


def encode(values: Sequence[float]) -> bytes:
    """Little-endian float32, the storage format of every adapter."""
    return struct.pack(f"<{len(values)}f", *values)


def decode(data: bytes) -> array[float]:
    """Little-endian float32 bytes (the storage format) as floats."""
    values = array("f")
    values.frombytes(data)
    return values


def unit(values: Sequence[float]) -> tuple[float, ...]:
    norm = math.sqrt(math.sumprod(values, values))
    return tuple(v / norm for v in values) if norm > 0 else tuple(0.0 for _ in values)


def top_by_cosine(
    query: VectorQuery, candidates: Iterable[tuple[MemoryId, bytes]]
) -> list[VectorHit]:
    """Exact search: cosine of the query against every candidate of its dimension."""
    target = unit(query.vector)
    dimension = len(target)
    scored: list[tuple[float, MemoryId]] = []
    for memory_id, data in candidates:
        values = decode(data)
        if len(values) != dimension:
            continue
        norm = math.sqrt(math.sumprod(values, values))
        if norm > 0:
            scored.append((math.sumprod(target, values) / norm, memory_id))
    best = heapq.nsmallest(query.limit, scored, key=lambda item: (-item[0], item[1]))
    return [VectorHit(memory_id, score) for score, memory_id in best]
