"""Ratings and recency on top of relevance (shared/search/signals.py): the signals, the
factor's bounds, the gate, and that `reach` never misses a hit the signals would lift into
the top `limit`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.domain import Memory, MemoryId, MemoryType
from shared.search.signals import (
    REACH_FACTOR,
    RankingSignals,
    factor,
    factor_bounds,
    rating_signal,
    reach,
    recency_signal,
    rerank,
)

NOW = datetime(2026, 6, 1, tzinfo=UTC)
SIGNALS = RankingSignals()


def memory(
    number: int, ratings: tuple[int, ...] | list[int] = (), age_days: float = 10.0
) -> Memory:
    created = NOW - timedelta(days=age_days)
    return Memory(
        tenant="t",
        id=MemoryId(MemoryType.LONGTERM, number),
        kurzbeschreibung="k",
        memory="m",
        tags=[],
        scope="",
        scope_vk="",
        nutzer="n",
        agent="a",
        created_at=created,
        updated_at=created,
        score_count=len(ratings),  # as the ratings left it
        score_sum=Decimal(sum(ratings)),
        last_call=created if ratings else None,
    )


def test_a_9_rated_memory_outranks_an_equally_relevant_2_rated_one() -> None:
    two, nine = memory(1, [2]), memory(2, [9])
    ranked = rerank([(two, 1.0), (nine, 1.0)], lambda h: h[1], lambda h: h[0], NOW, SIGNALS)
    assert [hit[0].id.number for hit, _ in ranked] == [2, 1]
    # Off: the relevance order as given
    off = RankingSignals(enabled=False)
    ranked = rerank([(two, 1.0), (nine, 1.0)], lambda h: h[1], lambda h: h[0], NOW, off)
    assert [hit[0].id.number for hit, _ in ranked] == [1, 2]


def test_the_rating_signal_is_the_average_s_place_shrunk_by_the_count() -> None:
    assert rating_signal(memory(1), SIGNALS) == 0.0
    assert rating_signal(memory(1, [10]), SIGNALS) == 0.5  # one rating: half its weight
    assert rating_signal(memory(1, [10, 10, 10]), SIGNALS) == 0.75
    assert rating_signal(memory(1, [0, 0, 0]), SIGNALS) == -0.75
    assert rating_signal(memory(1, [5, 5]), SIGNALS) == 0.0


def test_recency_halves_every_half_life_from_the_latest_of_creation_and_last_call() -> None:
    half = SIGNALS.recency_half_life_days
    assert recency_signal(memory(1, age_days=0), NOW, SIGNALS) == 1.0
    assert abs(recency_signal(memory(1, age_days=half), NOW, SIGNALS) - 0.5) < 1e-9
    rated_lately = memory(1, [7], age_days=400)
    rated_lately.last_call = NOW - timedelta(days=half)
    assert abs(recency_signal(rated_lately, NOW, SIGNALS) - 0.5) < 1e-9


def test_the_factor_stays_within_its_bounds_and_fades_with_the_gate() -> None:
    low, high = factor_bounds(SIGNALS)
    best = memory(1, [10] * 50, age_days=0)
    worst = memory(2, [0] * 50, age_days=1000)
    assert low <= factor(worst, NOW, SIGNALS) < 1.0 < factor(best, NOW, SIGNALS) <= high
    assert factor(best, NOW, SIGNALS, gate=0.0) == 1.0
    assert factor(best, NOW, RankingSignals(enabled=False)) == 1.0


hit_lists = st.lists(
    st.tuples(
        st.floats(min_value=0.0, max_value=10.0, allow_nan=False),
        st.lists(st.integers(min_value=0, max_value=10), max_size=4),
        st.floats(min_value=0.0, max_value=800.0),
    ),
    min_size=1,
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(hits=hit_lists, limit=st.integers(min_value=1, max_value=12))
def test_reach_sees_every_hit_that_can_enter_the_top_limit(
    hits: list[tuple[float, list[int], float]], limit: int
) -> None:
    # Given a relevance ranking (best first) of memories with any ratings and ages
    ranked = sorted(
        ((memory(i + 1, r, a), rel) for i, (rel, r, a) in enumerate(hits)),
        key=lambda pair: -pair[1],
    )
    # When the signals see only the hits `reach` names (as the search does)
    depth = reach([rel for _, rel in ranked], limit, SIGNALS)
    seen = rerank(ranked[:depth], lambda h: h[1], lambda h: h[0], NOW, SIGNALS)[:limit]
    # Then (unless the reach's cap stopped it) no hit beyond them scores above the top
    # `limit` seen: the exhaustive reranking has the same top `limit`
    if depth < min(len(ranked), REACH_FACTOR * limit) and len(seen) == limit:
        best = ranked[0][1]
        floor = seen[-1][1]
        for unseen, relevance in ranked[depth:]:
            gate = (relevance / best) ** SIGNALS.gate_power if best > 0 else 0.0
            assert relevance * factor(unseen, NOW, SIGNALS, gate) <= floor + 1e-9
