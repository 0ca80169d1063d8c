"""The judges' labels are honest: on the third to ninth and eleventh to thirteenth held-out
sets (seeds 31877, 40613, 55291, 64219, 83471, 18839, 47093, 11863, 60917 and 13579, written
apart from the scrubber's rules) a scrubber that removes exactly the labelled secrets and
nothing else scores recall 1, no false positive and all content kept under
`benchmarks/scrub.py`'s rules, and one that changes nothing scores recall 0. So a figure below
1 is the scrubber's, never a labelling bug: no secret's 8-character piece or short value
(PINs, codes) sits elsewhere in its text, no `keep` value overlaps a secret, and every labelled
value is in its text.

No scrubber rule is read or run here (the set is measured once, after the scrubber's freeze).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.lambda_functions.test_benchmarks import benchmark

DATA = Path(__file__).resolve().parents[1] / "data"
SETS = {
    "heldout3": "h3_",
    "heldout4": "h4_",
    "heldout5": "h5_",
    "heldout6": "h6_",
    "heldout7": "h7_",
    "heldout8": "h8_",
    "heldout9": "h9_",
    "heldout11": "h11_",
    "heldout12": "h12_",
    "heldout13": "h13_",
}


def entries(split: str) -> list[dict[str, Any]]:
    path = DATA / f"scrub_eval_{split}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def only_the_labels(corpus: list[dict[str, Any]]) -> dict[str, str]:
    """text → the text with every labelled secret (longest first) replaced by a marker."""
    done = {}
    for e in corpus:
        text = e["text"]
        for value in sorted({s["value"] for s in e["secrets"]}, key=len, reverse=True):
            text = text.replace(value, "[ENTFERNT:label]")
        done[e["text"]] = text
    return done


@pytest.mark.parametrize("split", SETS)
def test_removing_exactly_the_labelled_secrets_scores_one(split: str) -> None:
    scrub: Any = benchmark("scrub")
    corpus = entries(split)
    perfect = only_the_labels(corpus)
    result = scrub.evaluate(corpus, perfect.__getitem__)
    assert result["misses"] == []
    assert result["false_positives"] == []
    assert result["lost"] == []
    assert result["recall"] == 1.0 and result["kept"] == result["keep_total"] > 300


@pytest.mark.parametrize("split", SETS)
def test_changing_nothing_catches_no_secret(split: str) -> None:
    scrub: Any = benchmark("scrub")
    result = scrub.evaluate(entries(split), lambda text: text)
    assert result["caught"] == 0 and result["total"] > 250
    assert result["fp_rate"] == 0.0


@pytest.mark.parametrize("split", SETS)
def test_no_keep_value_overlaps_a_secret_and_texts_are_unique(split: str) -> None:
    corpus = entries(split)
    for e in corpus:
        for s in e["secrets"]:
            assert all(s["value"] not in k and k not in s["value"] for k in e["keep"])
    assert len({e["text"] for e in corpus}) == len(corpus)


@pytest.mark.parametrize("split", SETS)
def test_the_set_is_wide_enough_to_judge(split: str) -> None:
    corpus = entries(split)
    kinds = Counter(s["kind"] for e in corpus for s in e["secrets"])
    negatives = [e for e in corpus if not e["secrets"]]
    assert len(kinds) >= 40 and all(k.startswith(SETS[split]) for k in kinds)
    assert 0.4 <= len(negatives) / len(corpus) <= 0.5
    assert Counter(e["lang"] for e in corpus).keys() == {"de", "en"}
    assert len({e["group"] for e in negatives}) >= 7
