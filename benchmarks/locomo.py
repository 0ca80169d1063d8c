"""Search quality on public data: LoCoMo (ACL 2024), recall@10 of the evidence turns.

The data lies beside the repository (`../shared/benchmarks/locomo`, never copied in; see its
README): five conversations, every turn with its all-MiniLM-L6-v2 vector, questions of
categories 1-4 (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop) naming their evidence
turns. Every turn is stored as one long-term memory of its conversation's nutzer (one area per
conversation) and every question asked as that nutzer, all through the tool dispatcher
(`call_tool`: envelope, scopes, validation, scrubbing, storage, vectors — what an MCP client
reaches) on a SQLite store, as `brain serve` runs:

- `woerter`:  `search_memory` without a vector (words only),
- `hybrid`:   `search_memory` with the question's shared MiniLM vector (the turns inserted with
  theirs, profile `all-minilm-l6-v2-384`),
- `lokal`:    `search_memory` on a server that embeds turns and questions itself with the local
  model (`--local`, needs the `local` extra and a model; its own store),
- `dicht`:    exact cosine over the shared vectors (dense only, outside Brain),
- `bm25s`:    bm25s (Okapi, English Snowball, stop words) over the same texts (outside Brain),
- `rrf`:      reciprocal rank fusion (k = 60) of the bm25s and dense top-100 lists.

recall@10 = the share of a question's evidence turns among the first 10 hits, averaged over the
questions, per category and overall; latency = the dispatcher call's wall time per search.

Run: .venv/bin/python benchmarks/locomo.py [--local] [--conversations 26,30] [--json out.json]
A measurement, not a test; tests/unit/test_locomo_floor.py runs a fixed slice against floors.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from shared.auth.principal import ALL_SCOPES, Principal  # noqa: E402
from shared.config import Settings  # noqa: E402
from shared.embedding.port import Embedder  # noqa: E402
from shared.services.context import ServiceContext  # noqa: E402
from shared.storage.sqlite import SqliteStorage  # noqa: E402
from shared.tools.dispatch import call_tool  # noqa: E402
from shared.validation.rules import DUPLICATE_FLAG  # noqa: E402

TOP = 10
BASELINE_DEPTH = 100
RRF_K = 60
PROFILE = "all-minilm-l6-v2-384"
TENANT = "locomo"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
BRAIN_MODES = ("woerter", "hybrid", "lokal")
OUTSIDE_MODES = ("dicht", "bm25s", "rrf")


def data_dir() -> Path:
    """`BRAIN_LOCOMO_DIR`, else `shared/benchmarks/locomo` in the nearest parent that has it
    (`../shared/` beside a clone, as in CI; the team folder above a worktree)."""
    given = os.environ.get("BRAIN_LOCOMO_DIR")
    if given:
        return Path(given)
    for parent in ROOT.parents:
        candidate = parent / "shared" / "benchmarks" / "locomo"
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("LoCoMo data not found: ../shared/benchmarks/locomo")


@dataclass(frozen=True)
class Conversation:
    name: str
    turns: list[dict[str, Any]]
    questions: list[dict[str, Any]]
    turn_vectors: Any  # numpy (turns x 384), unit length
    question_vectors: Any  # numpy (questions x 384)

    @property
    def nutzer(self) -> str:
        return f"locomo-{self.name}"

    def principal(self) -> Principal:
        return Principal(
            tenant=TENANT,
            subject=self.nutzer,
            nutzer=frozenset({self.nutzer}),
            agents=frozenset({"bench"}),
            scopes=frozenset(ALL_SCOPES),
        )


def turn_text(turn: dict[str, Any]) -> str:
    return f"{turn['speaker']}: {turn['text']}"


def load(directory: Path | None = None, only: Sequence[str] | None = None) -> list[Conversation]:
    """The conversations (all, or those named in `only`), with their vectors."""
    import numpy as np

    directory = directory or data_dir()
    raw = json.loads((directory / "locomo-dev.json").read_text("utf-8"))
    vectors = np.load(directory / "minilm-l6-v2-dev.npz")
    turns_all, questions_all = vectors["turns"].astype("float32"), vectors["questions"]
    found: list[Conversation] = []
    t = q = 0
    for item in raw:
        nt, nq = len(item["turns"]), len(item["questions"])
        if only is None or str(item["conversation"]) in only:
            found.append(
                Conversation(
                    str(item["conversation"]),
                    item["turns"],
                    item["questions"],
                    turns_all[t : t + nt],
                    questions_all[q : q + nq].astype("float32"),
                )
            )
        t, q = t + nt, q + nq
    return found


@dataclass
class Scores:
    """recall@10 per mode and category, and latencies (ms) per mode."""

    recall: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    latency: dict[str, list[float]] = field(default_factory=dict)

    def add(self, mode: str, category: int, value: float) -> None:
        row = self.recall.setdefault(mode, {})
        for key in (CATEGORIES[category], "alle"):
            row.setdefault(key, []).append(value)

    def table(self) -> dict[str, dict[str, float]]:
        return {
            mode: {key: statistics.fmean(values) for key, values in row.items()}
            for mode, row in self.recall.items()
        }

    def markdown(self) -> str:
        results = self.table()
        keys = [*CATEGORIES.values(), "alle"]
        lines = [
            "| system | " + " | ".join(keys) + " | p50 ms | p95 ms |",
            "|---|" + "---:|" * (len(keys) + 2),
        ]
        for mode, row in results.items():
            cells = " | ".join(f"{row.get(k, math.nan):.3f}" for k in keys)
            samples = sorted(self.latency.get(mode, []))
            p50 = f"{statistics.median(samples):.1f}" if samples else "–"
            p95 = f"{samples[max(0, int(len(samples) * 0.95) - 1)]:.1f}" if samples else "–"
            lines.append(f"| {mode} | {cells} | {p50} | {p95} |")
        return "\n".join(lines)


def recall_at(found: Sequence[str], evidence: Sequence[str], top: int = TOP) -> float:
    wanted = set(evidence)
    return len(wanted & set(found[:top])) / len(wanted) if wanted else 0.0


@contextmanager
def brain(embedder: Embedder | None = None) -> Iterator[ServiceContext]:
    """A fresh SQLite store in a temporary data directory, as `brain serve` keeps it."""
    with tempfile.TemporaryDirectory(prefix="locomo-") as tmp:
        settings = Settings(data_dir=Path(tmp))
        storage = SqliteStorage.in_data_dir(settings.data_dir)
        try:
            yield ServiceContext(storage, settings, embedder=embedder)
        finally:
            storage.close()


def envelope(ctx: ServiceContext, principal: Principal, tool: str, args: dict[str, Any]) -> Any:
    answer = call_tool(ctx, principal, tool, args)
    if not answer.get("erfolg"):
        raise RuntimeError(f"{tool} failed: {answer.get('fehler', answer)!s:.300}")
    return answer


def store(ctx: ServiceContext, conversation: Conversation, with_vectors: bool) -> dict[str, str]:
    """Every turn as one long-term memory through `insert_brain_longterm_memory`;
    {memory ID: dia_id}."""
    principal = conversation.principal()
    ids: dict[str, str] = {}
    for start in range(0, len(conversation.turns), 100):
        chunk = conversation.turns[start : start + 100]
        entries = []
        for offset, turn in enumerate(chunk):
            entry: dict[str, Any] = {
                "kurzbeschreibung": f"{turn['speaker']}, {turn['date']}",
                "memory": turn_text(turn),
                "tags": [],
                "scope": "",
                "scope_vk": "",
                "agent": "bench",
                "nutzer": conversation.nutzer,
            }
            if with_vectors:
                vector = conversation.turn_vectors[start + offset]
                entry |= {"embedding": [float(v) for v in vector], "embedding_profil_hash": PROFILE}
            entries.append(entry)
        # Every turn is evidence of its own: stored even where two turns say the same
        # (the near-duplicate check would merge them, docs/truth.md).
        args = {
            "inhalt": {"memories": entries, "nutzer": conversation.nutzer, "agent": "bench"},
            "referenzfelder": {DUPLICATE_FLAG: True},
        }
        answer = envelope(ctx, principal, "insert_brain_longterm_memory", args)
        for result, turn in zip(answer["daten"], chunk, strict=True):
            ids[result["ID"]] = turn["dia_id"]
    return ids


def ask(
    ctx: ServiceContext,
    conversation: Conversation,
    ids: dict[str, str],
    index: int,
    with_vector: bool,
) -> tuple[list[str], float]:
    """One `search_memory` (limit 10): the dia_ids found and the call's wall time (ms)."""
    args: dict[str, Any] = {"query": conversation.questions[index]["question"], "limit": TOP}
    if with_vector:
        vector = conversation.question_vectors[index]
        args |= {"embedding": [float(v) for v in vector], "embedding_profil_hash": PROFILE}
    began = time.perf_counter()
    answer = envelope(ctx, conversation.principal(), "search_memory", args)
    elapsed = (time.perf_counter() - began) * 1000
    return [ids[hit["ID"]] for hit in answer["daten"]["treffer"]], elapsed


def measure_brain(
    scores: Scores,
    conversations: Sequence[Conversation],
    modes: dict[str, bool],
    embedder: Embedder | None = None,
    questions: Callable[[Conversation], Sequence[int]] | None = None,
) -> None:
    """The Brain modes of `modes` ({mode: send the question's vector}) on one store; the
    turns carry the shared vectors unless the server embeds (`embedder`)."""
    with brain(embedder) as ctx:
        for conversation in conversations:
            ids = store(ctx, conversation, with_vectors=embedder is None)
            chosen = questions(conversation) if questions else range(len(conversation.questions))
            for index in chosen:
                question = conversation.questions[index]
                for mode, with_vector in modes.items():
                    found, ms = ask(ctx, conversation, ids, index, with_vector)
                    scores.add(mode, question["category"], recall_at(found, question["evidence"]))
                    scores.latency.setdefault(mode, []).append(ms)


def _dense(conversation: Conversation, index: int, depth: int) -> list[str]:
    import numpy as np

    query = conversation.question_vectors[index]
    similarity = conversation.turn_vectors @ query
    order = np.argsort(-similarity, kind="stable")[:depth]
    return [conversation.turns[i]["dia_id"] for i in order]


def measure_outside(scores: Scores, conversations: Sequence[Conversation]) -> None:
    """Dense only, bm25s and their RRF: references computed outside Brain."""
    try:
        import bm25s
        import Stemmer
    except ImportError:
        bm25s = None
    for conversation in conversations:
        texts = [turn_text(t) for t in conversation.turns]
        retriever = None
        if bm25s is not None:
            stemmer = Stemmer.Stemmer("english")
            retriever = bm25s.BM25()
            tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
            retriever.index(tokens, show_progress=False)
        for index, question in enumerate(conversation.questions):
            category, evidence = question["category"], question["evidence"]
            dense = _dense(conversation, index, BASELINE_DEPTH)
            scores.add("dicht", category, recall_at(dense, evidence))
            if retriever is None:
                continue
            query = bm25s.tokenize(
                [question["question"]], stopwords="en", stemmer=stemmer, show_progress=False
            )
            depth = min(BASELINE_DEPTH, len(texts))
            docs, _ = retriever.retrieve(query, k=depth, show_progress=False)
            words = [conversation.turns[int(i)]["dia_id"] for i in docs[0]]
            scores.add("bm25s", category, recall_at(words, evidence))
            fused: dict[str, float] = {}
            for ranking in (words, dense):
                for rank, dia_id in enumerate(ranking, start=1):
                    fused[dia_id] = fused.get(dia_id, 0.0) + 1.0 / (RRF_K + rank)
            best = sorted(fused, key=lambda d: -fused[d])
            scores.add("rrf", category, recall_at(best, evidence))


def local_embedder() -> Embedder:
    """The server's local model as `brain serve` builds it (settings from the environment)."""
    from shared.embedding.factory import build_embedder

    embedder = build_embedder(Settings(embedder="local"))
    if embedder is None:
        raise SystemExit("no local model (see docs/search.md)")
    return embedder


def evaluate(
    conversations: Sequence[Conversation], *, local: bool = False, outside: bool = True
) -> Scores:
    scores = Scores()
    measure_brain(scores, conversations, {"woerter": False, "hybrid": True})
    if local:
        measure_brain(scores, conversations, {"lokal": False}, embedder=local_embedder())
    if outside:
        measure_outside(scores, conversations)
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", default=None, help="comma-separated, default all")
    parser.add_argument("--local", action="store_true", help="also the server's local model")
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    args = parser.parse_args()
    only = args.conversations.split(",") if args.conversations else None
    scores = evaluate(load(only=only), local=args.local)
    print(scores.markdown())
    if args.json:
        payload = {"recall": scores.table(), "latency_ms": scores.latency}
        args.json.write_text(json.dumps(payload, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
