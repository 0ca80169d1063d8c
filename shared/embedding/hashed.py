"""A deterministic, model-free embedder for tests, benchmarks and small local installs.

Features of a text, each hashed (BLAKE2b) into one of `dimension` signed buckets:
- every analysed word form (the same German/English stems as the word index), weight 1;
- every character trigram of every folded token, padded with `#` at both ends, weight
  1/sqrt(number of trigrams of that token), so that a long token does not drown the rest.

Trigrams make the vector find what exact word matching misses: parts of compounds
("Datenbank" in "Kundendatenbank"), typos ("Rechnugn") and inflections the stemmer leaves
apart. It knows no synonyms and no translations; a real model (Bedrock) does.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

from shared.embedding.port import EmbeddingProfile, Purpose, normalised
from shared.search.analyzer import tokenize, word_forms

MODEL = "brain/hashed-trigrams-v1"
DEFAULT_DIMENSION = 384


def _bucket(feature: str, dimension: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % dimension, (1.0 if value >> 63 else -1.0)


class HashedEmbedder:
    """Signed feature hashing of word forms and character trigrams (see module doc)."""

    def __init__(self, dimension: int = DEFAULT_DIMENSION) -> None:
        if dimension < 16:
            raise ValueError(f"dimension must be >= 16, got {dimension}")
        self._profile = EmbeddingProfile(MODEL, dimension)

    @property
    def profile(self) -> EmbeddingProfile:
        return self._profile

    def embed(self, texts: Sequence[str], purpose: Purpose) -> list[list[float]]:
        return [self._one(text) for text in texts]

    def _one(self, text: str) -> list[float]:
        dimension = self._profile.dimension
        vector = [0.0] * dimension
        for token in tokenize(text):
            for form in word_forms(token):
                index, sign = _bucket("w:" + form, dimension)
                vector[index] += sign
            padded = f"#{token}#"
            grams = [padded[i : i + 3] for i in range(len(padded) - 2)]
            weight = 1.0 / math.sqrt(len(grams))
            for gram in grams:
                index, sign = _bucket("g:" + gram, dimension)
                vector[index] += sign * weight
        return normalised(vector)
