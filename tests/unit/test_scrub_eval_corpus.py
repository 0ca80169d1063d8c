"""Quality gate of the secret scrubber on the evaluation corpora of issue 20.

`tests/data/scrub_eval/` is a generator written from scratch (it shares nothing with the older
`make_*_corpus.py`): values from the providers' and standards' shapes, a development template
set (seed 20251), a held-out template set (seed 90357, other wording, layouts and kinds;
measured once, spent) and a second development round (seed 61423: more vendors, secrets in
JSON/YAML/TOML, URLs with tokens, prose passwords, personal data of several countries).
Held-out3 (seed 31877, another engineer's) was measured once on frozen rules and then became
development data: it is gated here like dev, dev2 and dev3.
Figures, with the first measurement before any change: docs/performance.md.

* recall: a secret counts as caught only if no 8-character piece of it survives;
* false positives: texts without a secret that were changed at all;
* content kept: identifiers and personal data a text marks as `keep` survive unchanged, also in
  texts that hold a secret (the scrubber takes the secret, not the order number beside it).
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from shared.scrubbing import scrub
from tests.unit.test_scrub_corpus import leaks

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
# held-out5 and held-out6: dev since their one measurement each
SPLITS = ("dev", "dev2", "dev3", "heldout3", "heldout5", "heldout6")
MIN_RECALL = 0.98
MAX_FALSE_POSITIVE_RATE = 0.01
MIN_KEPT = 0.99


@cache
def corpus(split: str) -> tuple[dict[str, Any], ...]:
    path = DATA / f"scrub_eval_{split}.jsonl"
    return tuple(json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())


@cache
def figures(split: str) -> tuple[float, float, float]:
    caught = total = changed = negatives = kept = keep_total = 0
    for e in corpus(split):
        out = scrub(e["text"]).text
        for s in e["secrets"]:
            total += 1
            caught += not leaks(s["value"], out)
        if not e["secrets"]:
            negatives += 1
            changed += out != e["text"]
        keep_total += len(e["keep"])
        kept += sum(v in out for v in e["keep"])
    return caught / total, changed / negatives, kept / keep_total


def test_the_generator_reproduces_the_committed_corpora() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tests.data.scrub_eval", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    "split",
    [
        "dev",
        "heldout",
        "dev2",
        "heldout2",
        "dev3",
        "heldout3",
        "heldout4",
        "heldout5",
        "heldout6",
        "heldout7",
        "heldout8",
        "heldout9",
        "heldout11",
        "heldout12",
        "heldout13",
    ],
)
def test_the_corpora_have_secrets_and_content_in_both_languages(split: str) -> None:
    entries = corpus(split)
    negatives = [e for e in entries if not e["secrets"]]
    assert len(entries) >= 500 and 0.4 <= len(negatives) / len(entries) <= 0.6
    assert {e["lang"] for e in entries} == {"de", "en"}
    assert len({s["kind"] for e in entries for s in e["secrets"]}) >= 35
    for e in entries:
        assert all(s["value"] in e["text"] for s in e["secrets"])
        assert all(v in e["text"] for v in e["keep"])


@pytest.mark.parametrize("split", SPLITS)
def test_quality_gate(split: str) -> None:
    recall, fp_rate, kept = figures(split)
    assert recall >= MIN_RECALL, f"{split}: recall {recall:.4f}"
    assert fp_rate <= MAX_FALSE_POSITIVE_RATE, f"{split}: false positives {fp_rate:.4f}"
    assert kept >= MIN_KEPT, f"{split}: content kept {kept:.4f}"


SPENT_FLOORS = {
    "heldout2": (0.98, 0.0),
    "heldout4": (0.99, 0.0),
    "heldout7": (0.985, 0.0),
    "heldout8": (0.975, 0.012),
    "heldout9": (0.995, 0.0),
    "heldout13": (0.84, 0.018),
}
"""Held-out sets read as development data since their first measurement (recall, false
positives): floors under the figures of round 11 (docs/security.md), not the dev gate's;
held-out13 under its judged figure of session 12 (docs/performance.md)."""
SPENT_KEPT = {"heldout13": 0.97}
"""Content kept where a spent set's judged figure is below MIN_KEPT (held-out13: 503/516)."""


@pytest.mark.parametrize("split", sorted(SPENT_FLOORS))
def test_floor_on_spent_held_out_sets(split: str) -> None:
    recall, fp_rate, kept = figures(split)
    min_recall, max_fp = SPENT_FLOORS[split]
    assert recall >= min_recall, f"{split}: recall {recall:.4f}"
    assert fp_rate <= max_fp, f"{split}: false positives {fp_rate:.4f}"
    assert kept >= SPENT_KEPT.get(split, MIN_KEPT), f"{split}: content kept {kept:.4f}"
