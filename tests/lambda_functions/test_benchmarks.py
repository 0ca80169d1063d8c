"""Smoke runs of the latency benchmarks (one measurement each, not timed here): they measure
what they claim, on the real handlers, and keep working as the code changes."""

from __future__ import annotations

import importlib.util
import site
import sys
from pathlib import Path
from types import ModuleType
from unittest import mock

from tests.infra.cfn import ROOT


def benchmark(name: str) -> ModuleType:
    path = ROOT / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_router_hop_measures_both_paths_with_correct_answers() -> None:
    hop = benchmark("router_hop")
    # Given the benchmark's environment, When it times three warm calls of each path
    with mock.patch.dict("os.environ", hop.ENV):
        timings = hop.warm(calls=3)
    # Then every path was timed (warm() asserts both paths answer the envelope first)
    assert set(timings) == {"direct", "via router", "router only"}
    assert all(value > 0 for value in timings.values())


def test_cold_start_probe_times_a_tool_function_and_its_restore(tmp_path: Path) -> None:
    cold = benchmark("cold_start")
    # Given the test venv's packages standing in for the layer, the repo for the core layer
    packages = Path(site.getsitepackages()[0])
    # When one fresh interpreter imports, initialises and restores a tool function
    timing = cold.measure(
        ROOT / "functions" / "fetch_brain_memories", cold.CONTAINER_INIT, packages, ROOT, hooks=True
    )
    # Then each phase took time, and the snapshot and restore hooks ran
    assert timing.imports > 0 and timing.init > 0
    assert timing.restore > 0 and timing.snapshot > 0
    # And the table relates it to the baseline
    table = cold.table({"baseline": cold.Timing(100.0, 0.0, 0.0), "fetch": timing})
    assert "1.00x" in table.splitlines()[1]


def test_quality_benchmark_smoke_fused_is_never_worse_than_words() -> None:
    quality = benchmark("quality")
    # Given the labelled corpus (350 queries in 7 classes, German and English)
    corpus = quality.load()
    classes = {query["class"] for query in corpus["queries"]}
    assert len(corpus["queries"]) >= 300 and len(classes) == 7
    # When 5 queries per class run words only, vectors only and fused
    results = quality.evaluate(corpus, queries=35)
    # Then every class was measured, and fused recall@10 is never below words only
    assert set(results) == classes | {"alle"}
    for cls, row in results.items():
        assert row["fusion"] >= row["woerter"], (cls, row)
    # And the classes the words cannot reach are reached through the vectors
    assert results["de_tippfehler"]["fusion"] > results["de_tippfehler"]["woerter"]
