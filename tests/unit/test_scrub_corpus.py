"""Quality gate of the secret scrubber on the labelled corpus tests/data/scrub_corpus.jsonl,
and checks of the corpus itself (size, kinds, negative share, reproducible generator)."""

from __future__ import annotations

import importlib.util
import json
import re
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from shared.scrubbing import KINDS, scrub

DATA = Path(__file__).resolve().parents[1] / "data"
CORPUS = DATA / "scrub_corpus.jsonl"
MIN_RECALL = 0.97
MAX_FALSE_POSITIVE_RATE = 0.02
MARKER_RE = re.compile(r"\[ENTFERNT:[a-z0-9_]+\]")


def leaks(value: str, text: str) -> bool:
    """The value or any 8-character piece of it is in `text` (our markers not counted)."""
    text = MARKER_RE.sub("\0", text)
    return value in text or any(value[i : i + 8] in text for i in range(len(value) - 7))


@cache
def corpus() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]


@cache
def scrubbed() -> list[str]:
    return [scrub(e["text"]).text for e in corpus()]


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_scrub_corpus", DATA / "make_scrub_corpus.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_corpus_shape() -> None:
    entries = corpus()
    kinds = {s["kind"] for e in entries for s in e["secrets"]}
    negatives = [e for e in entries if not e["secrets"]]
    assert len(entries) >= 400
    assert len(kinds) >= 40
    assert len(negatives) / len(entries) >= 0.40
    assert {e["lang"] for e in entries} == {"de", "en"}
    for e in entries:
        assert set(e) == {"text", "secrets", "lang"}
        for s in e["secrets"]:
            assert set(s) == {"kind", "value"} and s["value"] in e["text"]
    assert kinds <= KINDS, kinds - KINDS


def test_quality_gate_recall_and_false_positives() -> None:
    caught = total = false_positives = negatives = 0
    misses = []
    for e, out in zip(corpus(), scrubbed(), strict=True):
        if not e["secrets"]:
            negatives += 1
            false_positives += out != e["text"]
        for s in e["secrets"]:
            total += 1
            if leaks(s["value"], out):
                misses.append((s["kind"], e["text"][:80]))
            else:
                caught += 1
    recall, fp_rate = caught / total, false_positives / negatives
    assert recall >= MIN_RECALL, f"recall {recall:.4f}; misses: {misses}"
    assert fp_rate <= MAX_FALSE_POSITIVE_RATE, f"false-positive rate {fp_rate:.4f}"


def test_scrubbing_the_corpus_is_idempotent() -> None:
    for out in scrubbed():
        assert scrub(out).text == out


def test_generator_reproduces_the_committed_corpus() -> None:
    assert generator().render() == CORPUS.read_text(encoding="utf-8")
