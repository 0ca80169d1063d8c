"""A quality floor on public data: LoCoMo conversations 26 and 30 (of the development half
in ../shared/benchmarks/locomo), stored and searched through the tool dispatcher as
`benchmarks/locomo.py` does. Fails when words-only or hybrid recall@10 falls below the
figures recorded when the safe top-k ranking and the convex fusion landed (docs/search.md:
words 0.638, hybrid 0.688 on this slice; the floors leave 0.01 for harmless changes)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.lambda_functions.test_benchmarks import benchmark

SLICE = ["26", "30"]
WORDS_FLOOR = 0.628
HYBRID_FLOOR = 0.678


@pytest.fixture(scope="module")
def recall() -> dict[str, dict[str, float]]:
    locomo: Any = benchmark("locomo")
    scores = locomo.evaluate(locomo.load(only=SLICE), outside=False)
    table: dict[str, dict[str, float]] = scores.table()
    dense = locomo.Scores()
    for conversation in locomo.load(only=SLICE):
        for index, question in enumerate(conversation.questions):
            found = locomo._dense(conversation, index, locomo.TOP)
            dense.add("dicht", question["category"], locomo.recall_at(found, question["evidence"]))
    table |= dense.table()
    return table


def test_words_only_recall_stays_above_its_floor(recall: dict[str, dict[str, float]]) -> None:
    assert recall["woerter"]["alle"] >= WORDS_FLOOR


def test_hybrid_recall_stays_above_its_floor_and_both_parts(
    recall: dict[str, dict[str, float]],
) -> None:
    hybrid = recall["hybrid"]
    assert hybrid["alle"] >= HYBRID_FLOOR
    assert hybrid["alle"] >= max(recall["woerter"]["alle"], recall["dicht"]["alle"])
    # no category far below words only
    for category, words in recall["woerter"].items():
        assert hybrid[category] >= words - 0.02, category
