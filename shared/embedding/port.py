"""The embedder port: turn texts into vectors of one embedding profile.

Invariants every embedder keeps:
- One embedder has exactly one profile: its model and its dimension. The profile's hash
  (`embedding_profil_hash` of the memory tools) is derived from both, so vectors of
  different models or dimensions never share a profile and are never compared.
- `embed` returns one L2-normalised vector of `profile.dimension` finite floats per text,
  in input order. Documents and queries may be embedded differently (Cohere's
  `search_document` / `search_query`); both land in the same vector space.
- Failures raise `EmbeddingFailed` (never a provider exception): callers decide whether a
  text is then stored without a vector or a search runs on words only.
- Texts are never logged.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class Purpose(StrEnum):
    DOCUMENT = "document"
    QUERY = "query"


class EmbeddingFailed(Exception):
    """The embedder could not embed (provider error, throttling, malformed answer)."""


@dataclass(frozen=True)
class EmbeddingProfile:
    model: str
    dimension: int

    @property
    def hash(self) -> str:
        """`<model short name>-<dimension>-<12 hex of sha256(model, dimension)>`: readable,
        and distinct for every model and dimension."""
        digest = hashlib.sha256(f"{self.model}\n{self.dimension}".encode()).hexdigest()[:12]
        short = self.model.rsplit("/", 1)[-1].split(":", 1)[0].replace(".", "-").lower()
        return f"{short}-{self.dimension}-{digest}"


class Embedder(Protocol):
    @property
    def profile(self) -> EmbeddingProfile: ...

    def embed(self, texts: Sequence[str], purpose: Purpose) -> list[list[float]]:
        """One normalised vector per text, in order; raises EmbeddingFailed."""
        ...


def normalised(values: Sequence[float]) -> list[float]:
    """`values` scaled to length 1 (a zero vector stays zero)."""
    norm = math.sqrt(math.sumprod(values, values))
    return [float(v) / norm for v in values] if norm > 0 else [0.0 for _ in values]
