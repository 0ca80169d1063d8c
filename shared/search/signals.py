"""Ratings and recency as ranking signals on top of relevance (docs/search.md).

    final = relevance × (1 + g · (w_bewertung · b + w_aktualitaet · a))

- relevance: the search's own score of the hit (the fused word/vector score), ≥ 0;
- b ∈ [-1, 1], the rating: the average score's place in the configured range (its middle is
  0, the ends ±1), shrunk towards 0 by the number of ratings (`n / (n + RATING_PRIOR)`), so
  that one rating moves less than many; unrated memories have b = 0;
- a ∈ [0, 1], the recency: 2^(-age / half-life) of the newest of the memory's creation and
  its `last_call` (the latest rating's time);
- g ∈ [0, 1], the gate: (the hit's relevance over the best relevance among the
  candidates) ^ `gate_power`. The signals count fully for hits as relevant as the best and
  fade with relevance, so they decide between comparable strong hits and barely move weak
  ones.

Invariants: the factor lies in [1 - w_bewertung, 1 + w_bewertung + w_aktualitaet] (and
closer to 1 the weaker the hit), so a signal can reorder hits only within that ratio of
relevance — a memory with no relevance stays at 0, and one must be nearly as relevant as
another to overtake it. With both weights
0 (or signals turned off) the order is the relevance order. Ties keep the relevance order
(the sort is stable). The weights are chosen by measurement on the labelled ranking set
(`benchmarks/ranking.py`, docs/performance.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Final

from shared.domain import Memory

# Ratings a memory needs for half its rating's weight (a prior of one neutral rating).
RATING_PRIOR: Final = 1
# How deep below the limit the signals reach: a search ranks this many times its limit by
# relevance and lets the signals reorder them (bounded further by `reach`).
REACH_FACTOR: Final = 2


@dataclass(frozen=True)
class RankingSignals:
    """The weights of the signals (Settings: `rank_*`); `enabled` False ranks by relevance."""

    enabled: bool = True
    rating_weight: float = 0.5
    recency_weight: float = 0.3
    recency_half_life_days: float = 30.0
    gate_power: float = 4.0
    score_min: Decimal = Decimal(0)
    score_max: Decimal = Decimal(10)


def rating_signal(memory: Memory, signals: RankingSignals) -> float:
    """b ∈ [-1, 1]: the average's place in the score range, shrunk by the rating count."""
    average = memory.score_avg
    if average is None or memory.score_count <= 0:
        return 0.0
    middle = (signals.score_min + signals.score_max) / 2
    half = (signals.score_max - signals.score_min) / 2
    if half <= 0:
        return 0.0
    place = max(-1.0, min(1.0, float((average - middle) / half)))
    return place * memory.score_count / (memory.score_count + RATING_PRIOR)


def recency_signal(memory: Memory, now: datetime, signals: RankingSignals) -> float:
    """a ∈ [0, 1]: halves every half-life since the memory was created or last rated."""
    latest = max(memory.created_at, memory.last_call or memory.created_at)
    age_days = max(0.0, (now - latest).total_seconds() / 86400)
    if signals.recency_half_life_days <= 0:
        return 0.0
    return math.pow(2.0, -age_days / signals.recency_half_life_days)


def factor(memory: Memory, now: datetime, signals: RankingSignals, gate: float = 1.0) -> float:
    """The multiplier of a hit's relevance (1 when signals are off); `gate` ∈ [0, 1]."""
    if not signals.enabled:
        return 1.0
    boost = signals.rating_weight * rating_signal(memory, signals)
    boost += signals.recency_weight * recency_signal(memory, now, signals)
    return 1.0 + max(0.0, min(1.0, gate)) * boost


def factor_bounds(signals: RankingSignals) -> tuple[float, float]:
    """The lowest and the highest factor a hit can get."""
    if not signals.enabled:
        return 1.0, 1.0
    return 1.0 - signals.rating_weight, 1.0 + signals.rating_weight + signals.recency_weight


def reach(relevances: Sequence[float], limit: int, signals: RankingSignals) -> int:
    """How many hits of a relevance ranking (best first) the signals must see to give the
    exact top `limit`: every hit whose relevance times the highest factor can still beat the
    `limit`-th hit's relevance times the lowest one — at least `limit`, at most
    `REACH_FACTOR * limit`."""
    if not signals.enabled or len(relevances) <= limit or limit <= 0:
        return limit
    low, high = factor_bounds(signals)
    floor = relevances[limit - 1] * low / high
    cap = min(len(relevances), REACH_FACTOR * limit)
    count = limit
    while count < cap and relevances[count] >= floor:
        count += 1
    return count


def rerank[H](
    hits: Sequence[H],
    relevance: Callable[[H], float],
    memory: Callable[[H], Memory],
    now: datetime,
    signals: RankingSignals,
) -> list[tuple[H, float]]:
    """The hits with their final scores, best first (stable: ties keep the given order)."""
    best = max((relevance(hit) for hit in hits), default=0.0)
    scored = []
    for hit in hits:
        value = relevance(hit)
        gate = (value / best) ** signals.gate_power if best > 0 else 0.0
        scored.append((hit, value * factor(memory(hit), now, signals, gate)))
    if not signals.enabled:
        return scored
    return sorted(scored, key=lambda pair: -pair[1])
