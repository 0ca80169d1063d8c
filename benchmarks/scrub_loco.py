"""Leave-one-corpus-out (LOCO) estimate of the learned scorer (`shared.scrubbing.scorer`).

    PYTHONPATH=. .venv/bin/python benchmarks/scrub_loco.py [--sets a,b] [--write] [--rules]

Data: every labelled set under tests/data/ (`SETS`), each written by a different author or
generator. For each set: train the scorer on all the others (numpy gradient-boosted trees,
`train`; deterministic), choose its threshold on those training sets (largest recall - 3 x
false-positive rate of the candidates' proxy), then
scrub the held-out set with the provider rows of the table (`scrubber.PROVIDER_ROWS`: private
keys, provider tokens, JWTs) plus the scorer, and score it with `benchmarks/scrub.py`'s
`evaluate` (recall over secret values, false positives = negative texts changed, content kept).
Prints per set, mean and worst. `--rules` prints the whole current scrubber on each set too
(NOT a LOCO figure: its rules were tuned on every set; their LOCO equivalent is the first
figures each set had before anyone tuned on it, see docs/performance.md).

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


DEPTH, TREES, RATE, L2, MIN_HESSIAN, MIN_COUNT = 4, 150, 0.3, 1.0, 1.0, 5
Model = tuple[float, tuple[str, ...], list[tuple[tuple[int, ...], tuple[float, ...]]]]


def train(data: list[Prepared]) -> Model:
    """Gradient-boosted trees (Newton steps on the log loss) of depth `DEPTH` over the
    candidates' binary features: each level of a tree splits every node on the feature of
    largest gain, found for all nodes at once by one `bincount` over the feature matrix.
    Deterministic: no sampling, ties go to the first feature in sorted order."""
    rows = [r for p in data for r in p.rows]
    counts: dict[str, int] = {}
    for feats, *_ in rows:
        for f in set(feats):
            counts[f] = counts.get(f, 0) + 1
    vocab = sorted(f for f, n in counts.items() if n >= MIN_COUNT)
    index = {f: i for i, f in enumerate(vocab)}
    ri: list[int] = []
    ci: list[int] = []
    for r, (feats, *_) in enumerate(rows):
        for f in set(feats):
            j = index.get(f)
            if j is not None:
                ri.append(r)
                ci.append(j)
    rr, cc, width, n = np.array(ri), np.array(ci), len(vocab), len(rows)
    y = np.array([r[1] for r in rows], dtype=float)
    base = float(np.log(y.mean() / (1 - y.mean())))
    z = np.full(n, base)
    trees: list[tuple[tuple[int, ...], tuple[float, ...]]] = []
    for _ in range(TREES):
        p = 1.0 / (1.0 + np.exp(-z))
        g, h = p - y, p * (1 - p)
        node = np.zeros(n, dtype=np.int64)
        split: list[int] = []
        for d in range(DEPTH):
            nodes = 1 << d
            gsum = np.bincount(node, weights=g, minlength=nodes)
            hsum = np.bincount(node, weights=h, minlength=nodes)
            key = node[rr] * width + cc
            gr = np.bincount(key, weights=g[rr], minlength=nodes * width).reshape(nodes, width)
            hr = np.bincount(key, weights=h[rr], minlength=nodes * width).reshape(nodes, width)
            gl, hl = gsum[:, None] - gr, hsum[:, None] - hr
            gain = gr**2 / (hr + L2) + gl**2 / (hl + L2) - (gsum**2 / (hsum + L2))[:, None]
            gain[(hr < MIN_HESSIAN) | (hl < MIN_HESSIAN)] = -1.0
            best = gain.argmax(axis=1)
            chosen = np.where(gain[np.arange(nodes), best] > 0, best, -1)
            split += [int(j) for j in chosen]
            present = np.zeros(n, dtype=bool)
            present[rr[cc == chosen[node[rr]]]] = True
            node = node * 2 + present
        leaves = 1 << DEPTH
        gsum = np.bincount(node, weights=g, minlength=leaves)
        hsum = np.bincount(node, weights=h, minlength=leaves)
        values = -gsum / (hsum + L2) * RATE
        z += values[node]
        trees.append((tuple(split), tuple(round(float(v), 4) for v in values)))
    used = sorted({j for t, _ in trees for j in t if j >= 0})
    renumber = {j: k for k, j in enumerate(used)}
    names = tuple(vocab[j] for j in used)
    packed = [(tuple(renumber.get(j, -1) for j in t), v) for t, v in trees]
    return round(base, 4), names, packed


def threshold(data: list[Prepared], model: scorer.Trees, cost: float = FP_COST) -> float:
    """The threshold with the best recall - cost x FP rate on the candidates of `data`."""
    best, best_t = -1e9, 0.5
    scored = [
        (p.name, ti, si, lab, scorer.score(f, model))
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


def measure(p: Prepared, model: scorer.Trees, t: float) -> dict[str, Any]:
    outs = {}
    for e, (seen, hits, cands) in zip(p.entries, p.texts, strict=True):
        covered = [(h[0], h[1]) for h in hits]
        learned = [
            (c.start, c.end, 10_000, c.kind)
            for c in cands
            if scorer.score(c.features, model) > t
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


def _packed(items: list[str], indent: str = "    ") -> str:
    lines: list[str] = []
    for item in items:  # packed: the file stays short
        if lines and len(lines[-1]) + len(item) < 96:
            lines[-1] += " " + item
        else:
            lines.append(indent + item)
    return "".join(f"{x}\n" for x in lines)


_MODEL = """MODEL = (
    BASE,
    NAMES,
    [
        (
            SPLITS[i * INNER : (i + 1) * INNER],
            LEAVES[i * LEAVES_PER_TREE : (i + 1) * LEAVES_PER_TREE],
        )
        for i in range(len(LEAVES) // LEAVES_PER_TREE)
    ],
)
"""


def write(model: Model, t: float) -> None:
    base, names, trees = model
    splits = [f"{j}," for sp, _ in trees for j in sp]
    leaves = [f"{v}," for _, lv in trees for v in lv]
    WEIGHTS_FILE.write_text(
        '"""The learned scorer\'s trees (`scorer.Trees`): generated by `benchmarks/scrub_loco.py'
        " --write`\n(boosted trees on every labelled set); do not edit by hand.\nFlat: tree i is"
        " `SPLITS[i * INNER : (i + 1) * INNER]` and its leaves the same slice of `LEAVES`."
        '"""\n\n'
        f"THRESHOLD = {t}\nBASE = {base}\nINNER, LEAVES_PER_TREE = {len(trees[0][0])}, "
        f"{len(trees[0][1])}\n# fmt: off\nNAMES: tuple[str, ...] = (\n"
        + _packed([f"{n!r}," for n in names])
        + ")\nSPLITS: tuple[int, ...] = (\n"
        + _packed(splits)
        + ")\nLEAVES: tuple[float, ...] = (\n"
        + _packed(leaves)
        + ")\n# fmt: on\n"
        + _MODEL,
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
        model = train(data)
        t = threshold(data, model, args.fp_cost)
        write(model, t)
        print(f"wrote {WEIGHTS_FILE.relative_to(ROOT)}: {len(model[2])} trees, threshold {t}")
        return
    ours, theirs = [], []
    for p in data:
        rest = [q for q in data if q is not p]
        model = train(rest)
        t = threshold(rest, model, args.fp_cost)
        r = measure(p, model, t)
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
