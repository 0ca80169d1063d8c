"""Fusion of word and vector candidates (shared/search/fusion.py): equal depths, a memory
found only by vectors at rank 1 can reach the top 10, scores in [0, 1], both methods."""

from __future__ import annotations

import pytest

from shared.domain import MemoryId, MemoryType
from shared.search.fusion import SIGNAL_VECTOR, SIGNAL_WORDS, fuse


def mid(number: int) -> MemoryId:
    return MemoryId(MemoryType.LONGTERM, number)


# 60 word hits (1..60) with falling BM25; vectors: 100 first, then word hits 31..79.
WORDS = [(mid(n), 20.0 - n * 0.1) for n in range(1, 61)]
VECTORS = [(mid(100), 0.9), *[(mid(n), 0.8 - n * 0.005) for n in range(31, 80)]]


def test_a_memory_found_only_by_vectors_at_rank_1_reaches_the_top_10() -> None:
    # Given 20 memories in both lists at middling ranks (words 31..50, vectors 2..21)
    fused = fuse(WORDS, VECTORS)
    top = [f.memory_id for f in fused[:10]]
    # Then convex fusion keeps the vectors' best in the top 10
    assert mid(100) in top
    (only_vector,) = [f for f in fused if f.memory_id == mid(100)]
    assert only_vector.signals == (SIGNAL_VECTOR,)
    assert all(0.0 <= f.score <= 1.0 for f in fused)


def test_rrf_ranks_weak_in_both_above_strong_in_one() -> None:
    # RRF (the alternative setting): each of the 20 memories in both lists collects two
    # terms and outranks the vectors' best (why convex is the default, docs/search.md)
    fused = fuse(WORDS, VECTORS, method="rrf")
    position = [f.memory_id for f in fused].index(mid(100))
    assert position > 10  # 20 in both lists, and the words' best (same score, lower ID)
    assert all(0.0 < f.score <= 1.0 for f in fused)


def test_candidates_are_cut_at_the_same_depth() -> None:
    fused = fuse(WORDS, VECTORS, depth=20)
    ids = {f.memory_id for f in fused}
    # words 1..20 and vectors 100, 31..49
    assert ids == {mid(n) for n in range(1, 21)} | {mid(100)} | {mid(n) for n in range(31, 50)}


def test_convex_is_the_mean_of_the_normalised_scores() -> None:
    words = [(mid(1), 10.0), (mid(2), 5.0)]
    vectors = [(mid(2), 0.8), (mid(3), 0.4)]
    fused = {f.memory_id: f for f in fuse(words, vectors, depth=50)}
    # lists shorter than the depth: a missing signal counts 0
    assert fused[mid(1)].score == pytest.approx(0.5)
    assert fused[mid(2)].score == pytest.approx(0.5 * 0.5 + 0.5 * 1.0)
    assert fused[mid(3)].score == pytest.approx(0.5 * 0.5)
    assert fused[mid(2)].signals == (SIGNAL_WORDS, SIGNAL_VECTOR)


def test_a_list_cut_at_the_depth_fills_with_its_last_score() -> None:
    words = [(mid(n), 10.0 - n) for n in range(1, 5)]  # cut at depth 2: 9, 8 | 7, 6
    vectors = [(mid(9), 1.0)]
    fused = {f.memory_id: f.score for f in fuse(words, vectors, depth=2)}
    assert fused[mid(9)] == pytest.approx(0.5 * 8 / 9 + 0.5 * 1.0)


def test_vector_weight_moves_the_balance() -> None:
    words = [(mid(1), 10.0)]
    vectors = [(mid(2), 0.5)]
    fused = fuse(words, vectors, vector_weight=0.8)
    assert [f.memory_id for f in fused] == [mid(2), mid(1)]
