"""Fusion of the word and the vector ranking of one search (hybrid retrieval).

Both signals bring candidate lists of the same depth (`FUSION_DEPTH`, best first). Two
methods, one setting (`Settings.search_fusion`), chosen by measurement on LoCoMo
(`benchmarks/locomo.py`, docs/search.md):

- `convex` (default): a memory's score is `(1 - w) * words + w * vector`, each signal's
  score divided by the best score of its own list (BM25 / best BM25, cosine / best cosine,
  clamped at 0), `w` = `Settings.search_vector_weight` (0.5: both count the same). A memory
  missing from one list gets that list's last score when the list was cut at the depth (it
  may lie just below it), 0 when the list holds every hit of that signal. The fused score
  lies in [0, 1]; 1 = best in both lists.
- `rrf`: reciprocal rank fusion over the two equal-depth lists, `sum 1 / (RRF_K + rank)`,
  scaled to (0, 1] (1 = first in both).

Invariants: never worse than its better part by construction of equal depths — a memory
found only by vectors at rank 1 scores at least as a memory found only by words at rank 1
with the same fill, so it can reach the top 10; ties break on the memory ID; every result
names the signals that found it (`SIGNAL_WORDS`, `SIGNAL_VECTOR`, in that order). The fused
score is a weighted sum of normalised signals, so further signals (ratings, recency) add
terms without changing these (issue 25).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from shared.domain import MemoryId

# Candidates per signal: measured on LoCoMo (docs/search.md: 30 loses on temporal questions,
# 50 and 100 do not); S3 Vectors returns at most 100 per query.
FUSION_DEPTH: Final = 50
VECTOR_DEPTH_MAX: Final = 100
RRF_K: Final = 60
SIGNAL_WORDS: Final = "woerter"
SIGNAL_VECTOR: Final = "vektor"

Method = Literal["convex", "rrf"]


@dataclass(frozen=True)
class Fused:
    memory_id: MemoryId
    score: float
    signals: tuple[str, ...]


def _normalised(
    ranking: Sequence[tuple[MemoryId, float]], depth: int
) -> tuple[dict[MemoryId, float], float]:
    """Scores over the list's best (clamped at 0), and what a memory missing from it gets."""
    head = list(ranking[:depth])
    if not head:
        return {}, 0.0
    best = max(score for _, score in head)
    if best <= 0:
        return dict.fromkeys((mid for mid, _ in head), 0.0), 0.0
    scores = {mid: max(score, 0.0) / best for mid, score in head}
    fill = max(head[-1][1], 0.0) / best if len(ranking) >= depth else 0.0
    return scores, fill


def fuse(
    words: Sequence[tuple[MemoryId, float]],
    vectors: Sequence[tuple[MemoryId, float]],
    *,
    method: Method = "convex",
    depth: int = FUSION_DEPTH,
    vector_weight: float = 0.5,
) -> list[Fused]:
    """The fused ranking of two (memory ID, score) rankings, best first."""
    word_ids = [mid for mid, _ in words[:depth]]
    vector_ids = [mid for mid, _ in vectors[:depth]]
    found = dict.fromkeys([*word_ids, *vector_ids])
    in_words, in_vectors = set(word_ids), set(vector_ids)
    scores: dict[MemoryId, float]
    if method == "rrf":
        scores = dict.fromkeys(found, 0.0)
        for ranking in (word_ids, vector_ids):
            for rank, mid in enumerate(ranking, start=1):
                scores[mid] += 1.0 / (RRF_K + rank) * (RRF_K + 1) / 2
    else:
        w_scores, w_fill = _normalised(words, depth)
        v_scores, v_fill = _normalised(vectors, depth)
        scores = {
            mid: (1.0 - vector_weight) * w_scores.get(mid, w_fill)
            + vector_weight * v_scores.get(mid, v_fill)
            for mid in found
        }
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return [
        Fused(
            mid,
            score,
            tuple(
                name
                for name, members in ((SIGNAL_WORDS, in_words), (SIGNAL_VECTOR, in_vectors))
                if mid in members
            ),
        )
        for mid, score in ordered
    ]
