"""BM25 ranking of documents (brain entries, memories) over the postings of the analysed
query terms.

A query is a list of groups (see `analyzer.query_terms`): each group holds the alternative
index terms of one query word (its German and English stems). Per document a group scores
the best of its alternatives, never their sum, so a word whose two stems both occur in a
document does not count twice. A document's score is the sum over the groups.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from shared.domain import CorpusStats


class _Ordered(Hashable, Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


K_co = TypeVar("K_co", bound=_Ordered, covariant=True)


class PostingLike(Protocol[K_co]):
    """What ranking reads of a posting: the document key, its term frequency and length."""

    @property
    def entry_id(self) -> K_co: ...
    @property
    def tf(self) -> int: ...
    @property
    def doc_len(self) -> int: ...


__all__ = ["idf", "rank", "terms_of", "tf_factor"]


def terms_of(query: list[frozenset[str]]) -> list[str]:
    """The distinct index terms of a query, sorted: fetch postings once per term."""
    return sorted({term for group in query for term in group})


def idf(documents: int, df: int) -> float:
    """Okapi IDF in its non-negative form. The stats may lag behind the postings (they are
    written separately), so N never counts fewer documents than contain the term."""
    n = max(documents, df)
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def tf_factor(tf: int, doc_len: int, avg_len: float, k1: float = 1.2, b: float = 0.75) -> float:
    """BM25's term-frequency factor of one posting: 0 .. k1 + 1."""
    if tf <= 0:
        return 0.0
    norm = k1 * (1.0 - b + b * max(doc_len, 0) / avg_len)
    return tf * (k1 + 1.0) / (tf + norm)


def average_length[K: _Ordered](
    postings: Mapping[str, Sequence[PostingLike[K]]], stats: CorpusStats
) -> float:
    if stats.avg_len > 0:
        return stats.avg_len
    # Stats missing or empty: fall back to the documents at hand, then to 1.
    lengths = {p.entry_id: p.doc_len for plist in postings.values() for p in plist}
    mean = sum(lengths.values()) / len(lengths) if lengths else 0.0
    return mean if mean > 0 else 1.0


def rank[K: _Ordered](
    query: list[frozenset[str]],
    postings: Mapping[str, Sequence[PostingLike[K]]],
    stats: CorpusStats,
    *,
    k1: float = 1.2,
    b: float = 0.75,
) -> list[tuple[K, float]]:
    """Okapi BM25 scores of every document that matches at least one query group.

    `postings` maps index terms to their postings (terms without postings may be missing).
    Each posting's own `doc_len` is used; the average length comes from `stats`.
    Returns (entry_id, score) sorted by score descending, then entry_id ascending.
    """
    if k1 < 0:
        raise ValueError(f"k1 must be >= 0, got {k1}")
    if not 0.0 <= b <= 1.0:
        raise ValueError(f"b must be within [0, 1], got {b}")
    if not query or not postings:
        return []

    avg_len = average_length(postings, stats)
    scores: dict[K, float] = {}
    for group in query:
        best: dict[K, float] = {}
        for term in sorted(group):
            plist = postings.get(term)
            if not plist:
                continue
            # An entry is listed once per term; should an adapter repeat it, count it once.
            df = len({p.entry_id for p in plist})
            weight = idf(stats.documents, df)
            for posting in plist:
                if posting.tf <= 0:
                    continue
                contribution = weight * tf_factor(posting.tf, posting.doc_len, avg_len, k1, b)
                if contribution > best.get(posting.entry_id, -1.0):
                    best[posting.entry_id] = contribution
        for entry_id, contribution in best.items():
            scores[entry_id] = scores.get(entry_id, 0.0) + contribution

    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
