"""The public set (`tests/data/scrub_public.jsonl`, builder `tests/data/scrub_eval/public.py`):
fixtures of public secret scanners (gitleaks, detect-secrets), not this project's generators.

* its labels are honest: removing exactly the labelled secrets scores recall 1, no false
  positive, all content kept; changing nothing catches nothing; every negative keeps a value;
* the scrubber's floor on it (recall, false positives, content kept), measured through
  `benchmarks/scrub.py`'s rules. First figure (before any change made with the set in view)
  and the figures since: docs/security.md.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from shared.scrubbing import scrub
from tests.lambda_functions.test_benchmarks import benchmark
from tests.unit.test_scrub_eval_labels import only_the_labels

PATH = Path(__file__).resolve().parents[1] / "data" / "scrub_public.jsonl"


@cache
def entries() -> tuple[dict[str, Any], ...]:
    return tuple(json.loads(line) for line in PATH.read_text(encoding="utf-8").splitlines())


def test_removing_exactly_the_labelled_secrets_scores_one() -> None:
    corpus = list(entries())
    perfect = only_the_labels(corpus)
    result: dict[str, Any] = benchmark("scrub").evaluate(corpus, perfect.__getitem__)
    assert result["misses"] == [] and result["false_positives"] == [] and result["lost"] == []
    assert result["recall"] == 1.0


def test_changing_nothing_catches_nothing_and_the_set_is_wide() -> None:
    corpus = list(entries())
    result: dict[str, Any] = benchmark("scrub").evaluate(corpus, lambda text: text)
    assert result["caught"] == 0 and result["total"] >= 150
    negatives = [e for e in corpus if not e["secrets"]]
    assert 0.4 <= len(negatives) / len(corpus) <= 0.6
    assert all(e["keep"] and all(k in e["text"] for k in e["keep"]) for e in negatives)
    assert len({s["kind"] for e in corpus for s in e["secrets"]}) >= 40
    assert len({e["text"] for e in corpus}) == len(corpus)


MIN_RECALL = 0.76
"""First figure (3d70fb5, before any change made with the set in view): 0.6536; 0.6760 since
the round-10 code forms (make's and Go's assignments, password words inside code identifiers);
0.7654 since round 11 (vendor-prefixed tokens, the vendors' documented forms, `>` in values)."""
MAX_FALSE_POSITIVE_RATE = 0.03
"""First figure 9.57 % (20 of 209); 8.13 % since typed filler is no secret; 2.87 % since
round 11 (PEM stubs, Slack's id groups, shell parameters, public compounds, `<user:password>`)."""
MIN_KEPT = 0.97


def test_floor_on_the_public_set() -> None:
    result: dict[str, Any] = benchmark("scrub").evaluate(list(entries()), lambda t: scrub(t).text)
    assert result["recall"] >= MIN_RECALL, result["misses"]
    assert result["fp_rate"] <= MAX_FALSE_POSITIVE_RATE, result["false_positives"]
    assert result["kept"] >= MIN_KEPT * result["keep_total"], result["lost"]
