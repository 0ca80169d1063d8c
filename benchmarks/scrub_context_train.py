"""Train the scrubber's context tier and estimate it leave-one-generator-out.

    .venv/bin/python benchmarks/scrub_context_train.py [--write] [--threshold P]

Data: the labelled corpora of `tests/data/scrub_eval_*.jsonl` (9 sets from 9 independent
generators; `--sets a,b,…` for fewer). A candidate (`context_tier.candidates`, unguarded, on
the detection view of a text) is positive if its span overlaps a labelled secret, negative
otherwise (fillers next to a secret, content, talk about credentials).

Model: L2-regularised logistic regression over the candidates' feature names, trained by
Adagrad in plain Python (no dependency). Leave-one-generator-out: for each set, train on the
others and score it with the whole scrubber (pattern table + the tier with those weights):
recall, false positives, kept - the estimate of the figure on a set no one has tuned on.
`--write` trains on all of them and writes `shared/scrubbing/context_weights.py`.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.scrub import evaluate, load  # noqa: E402
from shared.scrubbing import context_tier  # noqa: E402
from shared.scrubbing.normalize import view  # noqa: E402
from shared.scrubbing.scrubber import find_spans, redact  # noqa: E402

SETS = ("dev", "dev2", "dev3", "heldout", "heldout2", "heldout3", "heldout4", "heldout5")
SETS += ("heldout6",)
WEIGHTS_FILE = ROOT / "shared/scrubbing/context_weights.py"
Example = tuple[tuple[str, ...], int]


def examples(entries: list[dict[str, Any]]) -> list[Example]:
    out: list[Example] = []
    for e in entries:
        text = view(e["text"]).text
        spans = []
        for s in e["secrets"]:
            i = text.find(s["value"])
            while i >= 0:
                spans.append((i, i + len(s["value"])))
                i = text.find(s["value"], i + 1)
        # all, and unguarded: every secret teaches the shape, every refused value the prose
        for c in context_tier.candidates(text, strict=False):
            label = int(any(a < c.end and c.start < b for a, b in spans))
            out.append((c.features, label))
    return out


def train(
    data: list[Example], epochs: int = 12, l2: float = 1e-4, rate: float = 0.5
) -> dict[str, float]:
    weights: dict[str, float] = {}
    squares: dict[str, float] = {}
    order = list(range(len(data)))
    rng = random.Random(5)
    for _ in range(epochs):
        rng.shuffle(order)
        for k in order:
            feats, label = data[k]
            z = sum(weights.get(f, 0.0) for f in feats)
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g = p - label
            for f in feats:
                w = weights.get(f, 0.0)
                grad = g + l2 * w
                squares[f] = squares.get(f, 0.0) + grad * grad
                weights[f] = w - rate * grad / math.sqrt(squares[f] + 1e-8)
    return {f: round(w, 4) for f, w in weights.items() if abs(w) >= 1e-3}


def scrubber(model: context_tier.Model | None) -> Callable[[str], str]:
    def run(text: str) -> str:
        spans = find_spans(text, model=model)
        return redact(text, spans) if spans else text

    return run


def line(name: str, r: dict[str, Any]) -> str:
    return (
        f"{name:10} recall {r['recall']:.4f} ({r['caught']}/{r['total']})  "
        f"FP {r['fp_rate'] * 100:.2f} % ({len(r['false_positives'])}/{r['negatives']})  "
        f"kept {r['kept']}/{r['keep_total']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threshold", type=float, default=0.9)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    args = parser.parse_args()
    sets = tuple(args.sets.split(","))
    corpora = {n: load(ROOT / f"tests/data/scrub_eval_{n}.jsonl") for n in sets}
    data = {n: examples(es) for n, es in corpora.items()}
    for n in sets:
        pos = sum(label for _, label in data[n])
        print(f"{n:10} {len(data[n])} candidates, {pos} positive")
    totals = [0, 0, 0, 0, 0, 0]
    off = (dict[str, float](), 2.0)
    for n in sets:
        weights = train([x for m in sets if m != n for x in data[m]])
        rules = evaluate(corpora[n], scrubber(off))
        both = evaluate(corpora[n], scrubber((weights, args.threshold)))
        print("rules     ", line(n, rules))
        print("rules+tier", line(n, both))
        if args.verbose:
            for kind, text in both["misses"]:
                print("   miss", kind, text[:150].replace("\n", "⏎"))
            for text in both["false_positives"]:
                print("   fp  ", scrubber((weights, args.threshold))(text)[:150].replace("\n", "⏎"))
            for text in both["lost"]:
                print("   lost", scrubber((weights, args.threshold))(text)[:150].replace("\n", "⏎"))
        for i, key in enumerate(("caught", "total", "negatives", "kept", "keep_total")):
            totals[i] += both[key]
        totals[5] += len(both["false_positives"])
    caught, total, negatives, kept, keep_total, fps = totals
    print(
        f"LOGO pooled: recall {caught / total:.4f} ({caught}/{total}), "
        f"FP {fps / negatives * 100:.2f} % ({fps}/{negatives}), kept {kept}/{keep_total}"
    )
    if args.write:
        weights = train([x for m in sets for x in data[m]])
        body = "\n".join(
            f"    {json.dumps(f, ensure_ascii=False)}: {w!r}," for f, w in sorted(weights.items())
        )
        WEIGHTS_FILE.write_text(
            '"""Weights of the context tier: generated by `benchmarks/scrub_context_train.py'
            f" --write`\n(logistic regression on the {len(sets)} labelled corpora);"
            ' do not edit by hand."""'
            f"\n\nTHRESHOLD = {args.threshold}\nWEIGHTS: dict[str, float] = {{\n{body}\n}}\n",
            encoding="utf-8",
        )
        print(f"wrote {len(weights)} weights to {WEIGHTS_FILE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
