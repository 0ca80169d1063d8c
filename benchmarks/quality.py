"""Retrieval quality: recall@10 of words only, vectors only (the test embedder) and both
fused (reciprocal rank fusion), per query class, German and English.

The corpus (`data/quality_corpus.json`, 525 memories, 350 labelled queries in 7 classes) was
built before any tuning; see `quality_corpus.py` for how and why each class is made. The
memories are stored and searched through the services on a SQLite store, as `brain serve`
does with `BRAIN_EMBEDDER=test`:
- words:   `search_memory` without an embedder (BM25 over the area postings),
- vectors: `StoragePort.search_vectors` with the test embedder's query vector,
- fused:   `search_memory` with the embedder (words + vectors, RRF).
recall@10 = the share of a class's queries whose relevant memory is among the first 10.

Run: .venv/bin/python benchmarks/quality.py [--queries N] [--json out.json]
A measurement, not a test; the smoke test runs a slice of it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from shared.auth.principal import ALL_SCOPES, Principal  # noqa: E402
from shared.config import Settings  # noqa: E402
from shared.domain import MemoryType  # noqa: E402
from shared.embedding.hashed import HashedEmbedder  # noqa: E402
from shared.embedding.port import Purpose  # noqa: E402
from shared.search.vectors import VectorQuery  # noqa: E402
from shared.services.context import ServiceContext  # noqa: E402
from shared.services.memories import insert_memories  # noqa: E402
from shared.services.memory_os import search_memory  # noqa: E402
from shared.storage.sqlite import SqliteStorage  # noqa: E402
from shared.validation.parsed import SearchRequest  # noqa: E402
from shared.validation.requests import parse_insert  # noqa: E402
from shared.validation.rules import DUPLICATE_FLAG  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "data" / "quality_corpus.json"
MODES = ("woerter", "vektoren", "fusion")
TOP = 10
TENANT, NUTZER = "bench", "bench"
PRINCIPAL = Principal(
    tenant=TENANT,
    subject="bench",
    nutzer=frozenset({NUTZER}),
    agents=frozenset({"bench"}),
    scopes=frozenset(ALL_SCOPES),
)


def load(path: Path = CORPUS) -> dict[str, Any]:
    corpus: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return corpus


def _store(ctx: ServiceContext, memories: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Insert through the service (the embedder embeds); {memory ID: corpus key}."""
    keys: dict[str, str] = {}
    for start in range(0, len(memories), 100):
        chunk = memories[start : start + 100]
        entries = [
            {
                "kurzbeschreibung": m["kurz"],
                "memory": m["text"],
                "tags": [],
                "scope": "",
                "scope_vk": "",
                "nutzer": NUTZER,
                "agent": "bench",
            }
            for m in chunk
        ]
        batch = parse_insert(
            # every corpus memory is stored, near-duplicates too (docs/truth.md)
            {
                "inhalt": {"memories": entries, "nutzer": NUTZER, "agent": "bench"},
                "referenzfelder": {DUPLICATE_FLAG: True},
            },
            ctx.settings.parse_options(),
            shortterm=False,
        )
        answer = insert_memories(ctx, PRINCIPAL, batch, MemoryType.LONGTERM)
        assert answer["erfolg"], answer
        keys |= {result["ID"]: m["key"] for result, m in zip(answer["daten"], chunk, strict=True)}
    return keys


def evaluate(corpus: dict[str, Any], queries: int | None = None) -> dict[str, dict[str, float]]:
    """recall@10 per class and mode, plus the class `alle`."""
    embedder = HashedEmbedder()
    chosen = corpus["queries"] if queries is None else _spread(corpus["queries"], queries)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp))
        storage = SqliteStorage.in_data_dir(settings.data_dir)
        try:
            fused = ServiceContext(storage, settings, embedder=embedder)
            words = ServiceContext(storage, settings)
            keys = _store(fused, corpus["memories"])
            hits: dict[str, dict[str, int]] = {}
            counts: dict[str, int] = {}
            for query in chosen:
                request = SearchRequest(query=query["query"], limit=TOP)
                found = {
                    "woerter": _ids(search_memory(words, PRINCIPAL, request)),
                    "fusion": _ids(search_memory(fused, PRINCIPAL, request)),
                    "vektoren": _vector_ids(storage, embedder, query["query"]),
                }
                relevant = set(query["relevant"])
                for cls in (query["class"], "alle"):
                    counts[cls] = counts.get(cls, 0) + 1
                    row = hits.setdefault(cls, dict.fromkeys(MODES, 0))
                    for mode, ids in found.items():
                        row[mode] += bool(relevant & {keys[i] for i in ids})
        finally:
            storage.close()
    return {cls: {m: row[m] / counts[cls] for m in MODES} for cls, row in sorted(hits.items())}


def _spread(queries: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """`count` queries spread evenly over the classes (for the smoke run)."""
    by_class: dict[str, list[dict[str, Any]]] = {}
    for query in queries:
        by_class.setdefault(query["class"], []).append(query)
    per = max(1, count // len(by_class))
    return [q for group in by_class.values() for q in group[:per]]


def _ids(answer: dict[str, Any]) -> list[str]:
    return [hit["ID"] for hit in answer["daten"]["treffer"]]


def _vector_ids(storage: SqliteStorage, embedder: HashedEmbedder, text: str) -> list[str]:
    from datetime import UTC, datetime

    (vector,) = embedder.embed([text], Purpose.QUERY)
    query = VectorQuery(
        TENANT,
        embedder.profile.hash,
        tuple(vector),
        frozenset({f"users/{NUTZER}"}),
        datetime.now(UTC),
        TOP,
    )
    return [str(hit.memory_id) for hit in storage.search_vectors(query)]


def table(results: dict[str, dict[str, float]]) -> str:
    lines = [
        "| Klasse | Wörter | Vektoren (Test-Embedder) | Fusion (RRF) |",
        "|---|---:|---:|---:|",
    ]
    for cls, row in results.items():
        cells = " | ".join(f"{row[m]:.2f}" for m in MODES)
        lines.append(f"| {cls} | {cells} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=None, help="a spread subset")
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    args = parser.parse_args()
    results = evaluate(load(), args.queries)
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
