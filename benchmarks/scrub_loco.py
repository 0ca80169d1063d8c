"""Leave-one-corpus-out (LOCO) estimate of the learned scorer (`shared.scrubbing.scorer`).

    PYTHONPATH=. .venv/bin/python benchmarks/scrub_loco.py [--sets a,b] [--write] [--rules]

Data: every labelled set under tests/data/ (`SETS`), each written by a different author or
generator. For each set: train the scorer on all the others (numpy logistic regression, L2,
full-batch Adagrad, fixed seed-free initialisation: deterministic), choose its threshold on
those training sets (largest recall - 3 x false-positive rate of the candidates' proxy), then
scrub the held-out set with the provider rows of the table (`scrubber.PROVIDER_ROWS`: private
keys, provider tokens, JWTs) plus the scorer, and score it with `benchmarks/scrub.py`'s
`evaluate` (recall over secret values, false positives = negative texts changed, content kept).
Prints per set, mean and worst. `--rules` prints the whole current scrubber on each set too
(NOT a LOCO figure: its rules were tuned on every set; their LOCO equivalent is the first
figures each set had before anyone tuned on it, see docs/security.md).

Leaks: the provider rows and the lexicon (`context_lexicon.word_class`), `value_shape.shape`,
`checks.STOPWORDS`/`is_placeholder` and `value_forms.public_form` that features use were
written while looking at some of these sets; the figures are optimistic by that much.
`--write` trains on all sets and writes `shared/scrubbing/scorer_weights.py`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.scrub import evaluate, load  # noqa: E402
from shared.scrubbing import scorer  # noqa: E402
from shared.scrubbing.normalize import view  # noqa: E402
from shared.scrubbing.scrubber import assemble, find_spans, provider_hits, redact  # noqa: E402

DATA = ROOT / "tests" / "data"
SETS = (
    "scrub_eval_dev", "scrub_eval_dev2", "scrub_eval_dev3", "scrub_eval_heldout",
    "scrub_eval_heldout2", "scrub_eval_heldout3", "scrub_eval_heldout4", "scrub_eval_heldout5",
    "scrub_eval_heldout6", "scrub_eval_heldout7", "scrub_eval_heldout8", "scrub_blind",
    "scrub_holdout", "scrub_corpus",
)  # fmt: skip
WEIGHTS_FILE = ROOT / "shared" / "scrubbing" / "scorer_weights.py"
FP_COST = 3.0
MIN_COUNT = 2


class Prepared:
    """One set: its entries and, per text, the view, provider hits and labelled candidates."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.entries = load(DATA / f"{name}.jsonl")
        self.texts: list[tuple[Any, list[tuple[int, int, int, str]], list[scorer.Candidate]]] = []
        self.rows: list[tuple[tuple[str, ...], int, int, int]] = []  # feats, label, text, secret
        for ti, e in enumerate(self.entries):
            seen = view(e["text"])
            hits = provider_hits(seen.text)
            cands = scorer.candidates(seen.text)
            self.texts.append((seen, hits, cands))
            spans = []
            for si, s in enumerate(e["secrets"]):
                i = seen.text.find(s["value"])
                while i >= 0:
                    spans.append((i, i + len(s["value"]), si))
                    i = seen.text.find(s["value"], i + 1)
            covered = [(h[0], h[1]) for h in hits]
            for c in cands:
                if any(a < c.end and c.start < b for a, b in covered):
                    continue
                secret = next((si for a, b, si in spans if a < c.end and c.start < b), -1)
                self.rows.append((c.features, int(secret >= 0), ti, secret))


def train(data: list[Prepared], l2: float = 1e-3, steps: int = 400) -> dict[str, float]:
    rows = [r for p in data for r in p.rows]
    counts: dict[str, int] = {}
    for feats, *_ in rows:
        for f in set(feats):
            counts[f] = counts.get(f, 0) + 1
    vocab = sorted(f for f, n in counts.items() if n >= MIN_COUNT)
    index = {f: i + 1 for i, f in enumerate(vocab)}  # 0 is the bias
    ri, ci = [], []
    for r, (feats, *_) in enumerate(rows):
        ri.append(r)
        ci.append(0)
        for f in set(feats):
            j = index.get(f)
            if j is not None:
                ri.append(r)
                ci.append(j)
    rr, cc = np.array(ri), np.array(ci)
    y = np.array([r[1] for r in rows], dtype=float)
    w = np.zeros(len(vocab) + 1)
    g2 = np.full_like(w, 1e-8)
    n = len(rows)
    for _ in range(steps):
        z = np.bincount(rr, weights=w[cc], minlength=n)
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        grad = np.bincount(cc, weights=(p - y)[rr], minlength=len(w)) / n + l2 * w
        grad[0] -= l2 * w[0]
        g2 += grad * grad
        w -= 0.5 * grad / np.sqrt(g2)
    weights = {"bias": round(float(w[0]), 4)}
    weights.update({f: round(float(w[index[f]]), 4) for f in vocab if abs(w[index[f]]) >= 1e-3})
    return weights


def threshold(data: list[Prepared], weights: dict[str, float], cost: float = FP_COST) -> float:
    """The threshold with the best recall - cost x FP rate on the candidates of `data`."""
    best, best_t = -1e9, 0.5
    scored = [
        (p.name, ti, si, lab, scorer.score(f, weights))
        for p in data
        for f, lab, ti, si in p.rows
    ]  # fmt: skip
    negatives = {(p.name, ti) for p in data for ti, e in enumerate(p.entries) if not e["secrets"]}
    secrets = sum(len(e["secrets"]) for p in data for e in p.entries)
    for t in np.arange(0.3, 0.96, 0.025):
        fp = {(n, ti) for n, ti, _, lab, s in scored if not lab and s > t and (n, ti) in negatives}
        # a secret is caught if every candidate on it scores above t (provider hits aside)
        low = {(n, ti, si) for n, ti, si, lab, s in scored if lab and s <= t}
        value = (secrets - len(low)) / secrets - cost * len(fp) / max(1, len(negatives))
        if value > best:
            best, best_t = value, float(t)
    return round(best_t, 3)


def measure(p: Prepared, weights: dict[str, float], t: float) -> dict[str, Any]:
    outs = {}
    for e, (seen, hits, cands) in zip(p.entries, p.texts, strict=True):
        covered = [(h[0], h[1]) for h in hits]
        learned = [
            (c.start, c.end, 10_000, c.kind)
            for c in cands
            if scorer.score(c.features, weights) > t
            and not any(a < c.end and c.start < b for a, b in covered)
        ]
        outs[e["text"]] = redact(e["text"], assemble(e["text"], seen, hits + learned))
    return evaluate(p.entries, lambda text: outs[text])


def rules(p: Prepared) -> dict[str, Any]:
    return evaluate(p.entries, lambda text: redact(text, find_spans(text)))


def line(name: str, r: dict[str, Any]) -> str:
    kept = f"{r['kept']}/{r['keep_total']}" if r["keep_total"] else "-"
    return (
        f"{name:<22} recall {r['recall']:.4f} ({r['caught']}/{r['total']})  "
        f"FP {100 * r['fp_rate']:5.2f} % ({len(r['false_positives'])}/{r['negatives']})  "
        f"kept {kept}"
    )


def summary(label: str, results: list[dict[str, Any]]) -> None:
    rec = [r["recall"] for r in results]
    fp = [r["fp_rate"] for r in results]
    print(
        f"{label}: mean recall {np.mean(rec):.4f}, worst {min(rec):.4f}; "
        f"mean FP {100 * np.mean(fp):.2f} %, worst {100 * max(fp):.2f} %"
    )


def write(weights: dict[str, float], t: float) -> None:
    lines: list[str] = []
    for k, v in sorted(weights.items()):  # packed: the file stays short
        item = f"{k!r}: {v},"
        if lines and len(lines[-1]) + len(item) < 96:
            lines[-1] += " " + item
        else:
            lines.append("    " + item)
    body = "".join(f"{x}\n" for x in lines)
    WEIGHTS_FILE.write_text(
        '"""Weights of the learned scorer (`scorer`): generated by `benchmarks/scrub_loco.py'
        ' --write`\n(logistic regression on every labelled set); do not edit by hand."""\n\n'
        f"THRESHOLD = {t}\n# fmt: off\nWEIGHTS: dict[str, float] = {{\n{body}}}\n# fmt: on\n",
        encoding="utf-8",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--fp-cost", type=float, default=FP_COST, help="threshold objective")
    parser.add_argument("--rules", action="store_true", help="also the current scrubber per set")
    args = parser.parse_args()
    data = [Prepared(n) for n in args.sets.split(",")]
    if args.write:
        weights = train(data)
        t = threshold(data, weights, args.fp_cost)
        write(weights, t)
        print(f"wrote {WEIGHTS_FILE.relative_to(ROOT)}: {len(weights)} weights, threshold {t}")
        return
    ours, theirs = [], []
    for p in data:
        rest = [q for q in data if q is not p]
        weights = train(rest)
        t = threshold(rest, weights, args.fp_cost)
        r = measure(p, weights, t)
        ours.append(r)
        print(line(p.name, r) + f"  t={t}", flush=True)
        if args.rules:
            theirs.append(rules(p))
            print(line("  rules (tuned)", theirs[-1]), flush=True)
    summary("LOCO scorer", ours)
    if theirs:
        summary("rules, tuned on all (not LOCO)", theirs)


if __name__ == "__main__":
    main()
