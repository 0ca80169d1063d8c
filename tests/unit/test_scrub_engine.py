"""The scrubber's shortcuts find exactly what a full scan finds: rows with `min_run` search
only long whitespace-free stretches, needle positions are shared between rows. And a smoke run
of the scrub benchmark (quality + CPU-time throughput) on a few texts."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.scrubbing import context as c
from shared.scrubbing import scrub
from shared.scrubbing import scrubber as engine
from shared.scrubbing.patterns import PATTERNS

ROOT = Path(__file__).resolve().parents[2]
_PIECES = st.sampled_from(
    [
        "Xk9fQ2mZp7LwR4tYb8NcV3sJh6GdE0aUqWe4",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz1Q2w3E4r",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "abc",
        "+/=",
        "-_",
        " ",
        "\t",
        "\n",
        "\u00a0",
        "\u2003",
        "\x1c",
        "ä",
        ".",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_min_run_rows_find_what_a_full_scan_finds(text: str) -> None:
    # Given any text of credential-like pieces and all kinds of whitespace
    scan = engine.TextScan(text)
    for row in PATTERNS:
        if not row.min_run:
            continue
        # When the row searches only the long stretches / the whole text
        shortcut = [m.span() for m in engine._matches(row, scan) if not isinstance(m, int)]
        full = [m.span() for m in row.regex.finditer(text)]
        # Then both find the same candidates
        assert shortcut == full, row.kind


def test_rows_sharing_needles_share_their_anchors() -> None:
    # Given a text with password words and the rows anchored at them
    scan = engine.TextScan("pw: a, Passwort: b, pass c " * 3)
    rows = [r for r in PATTERNS if r.needles == c.PW_ANCHORS and r.anchored]
    assert len(rows) >= 5
    # Then their anchors are computed once and are the needles' positions in text order
    first = scan.anchors(rows[0].needles)
    assert all(scan.anchors(r.needles) is first for r in rows)
    assert first[0] == sorted(first[0]) and first[1] is None


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("scrub_benchmark", ROOT / "benchmarks/scrub.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_benchmark_smoke_run() -> None:
    bench = _benchmark()
    entries = bench.load(ROOT / "tests/data/scrub_blind.jsonl")[:40]
    result = bench.evaluate(entries, lambda t: scrub(t).text)
    assert result["recall"] >= 0.97 and result["fp_rate"] <= 0.02
    assert bench.throughput(lambda t: scrub(t).text, bench.kilobyte_texts(entries, 5), 0.01) > 0
