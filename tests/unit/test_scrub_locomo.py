"""The scrubber's public-text false-positive script (`benchmarks/scrub_locomo.py`) on a slice
of LoCoMo, and the whole-call measurement it shares with `benchmarks/scrub_calls.py`: each
text is stored as a sample of its own (the near-duplicate check must not answer with an
earlier, similar text, which would be read back and counted as a change)."""

from __future__ import annotations

from typing import Any

from tests.lambda_functions.test_benchmarks import benchmark

SLICE = 60


def test_every_turn_of_the_slice_is_a_negative_in_the_corpus_format() -> None:
    script: Any = benchmark("scrub_locomo")
    entries = script.turns(only=["26"], limit=SLICE)
    assert len(entries) == SLICE
    assert len({e["id"] for e in entries}) == SLICE
    for e in entries:
        assert e["id"].startswith("26/D")
        assert e["secrets"] == [] and e["keep"] == []
        assert ": " in e["text"]  # "{speaker}: {text}", as Brain stores a turn


def test_a_changed_turn_is_reported_with_what_was_removed() -> None:
    script: Any = benchmark("scrub_locomo")
    entries = script.turns(only=["26"], limit=SLICE)
    victim = entries[3]["text"].split(": ", 1)[1].split()[0]

    def scrubber(text: str) -> str:
        return text.replace(victim, "[ENTFERNT:test]")

    changed = script.changed_turns(entries, scrubber)
    assert changed and all(victim in text for _, text, _ in changed)
    _, _, spans = next(c for c in changed if c[0] == entries[3]["id"])
    assert any(victim in gone and "ENTFERNT" in marker for gone, marker in spans)
    assert script.changed_turns(entries, lambda text: text) == []


def test_the_slice_through_whole_calls_stores_every_turn_as_it_was_scrubbed() -> None:
    script: Any = benchmark("scrub_locomo")
    scrub: Any = benchmark("scrub")
    entries = script.turns(only=["26"], limit=SLICE)
    direct = scrub.evaluate(entries, lambda text: script.scrub(text).text)
    result, refused = script.measure(entries)
    assert refused == 0
    assert result["negatives"] == SLICE
    assert result["false_positives"] == direct["false_positives"]


def test_near_duplicate_texts_are_each_read_back_as_themselves() -> None:
    calls: Any = benchmark("scrub_calls")
    base = "Meeting notes: we moved the release of the billing export to Thursday afternoon"
    entries = [
        {"text": base, "secrets": [], "keep": []},
        {"text": base + ".", "secrets": [], "keep": []},
        {"text": base, "secrets": [], "keep": []},
    ]
    result, refused = calls.measure(entries)
    assert refused == 0
    assert result["false_positives"] == []
