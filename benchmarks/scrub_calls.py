"""The scrubber's figures through whole calls: every corpus text stored by
`insert_brain_longterm_memory` through the tool dispatcher (`call_tool`: validation,
authorization, the retry layer, scrubbing, storage) on a SQLite store in a temporary data
directory, and the stored row read back (`get_memories`): recall, false positives and kept
content are computed on what the store holds, with `benchmarks/scrub.py`'s rules.

Run: .venv/bin/python benchmarks/scrub_calls.py --corpus tests/data/scrub_eval_heldout2.jsonl
A measurement, not a test: it prints the aggregate figures only (a held-out set's misses
are not shown, so that nobody tunes on them).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.scrub import evaluate, load  # noqa: E402
from shared.auth.principal import ALL_SCOPES, Principal  # noqa: E402
from shared.config import Settings  # noqa: E402
from shared.domain import MemoryId  # noqa: E402
from shared.services.context import ServiceContext  # noqa: E402
from shared.storage.sqlite import SqliteStorage  # noqa: E402
from shared.tools.dispatch import call_tool  # noqa: E402
from shared.validation.rules import DUPLICATE_FLAG  # noqa: E402

NUTZER = "bench"
PRINCIPAL = Principal(
    tenant="bench",
    subject="bench",
    nutzer=frozenset({NUTZER}),
    agents=frozenset({"bench"}),
    scopes=frozenset(ALL_SCOPES),
)
CALLER = {"nutzer": NUTZER, "agent": "bench"}


class Stored:
    """Stores a text as one memory through the dispatcher and returns the stored text."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.refused = 0

    def __call__(self, text: str) -> str:
        entry = {
            "kurzbeschreibung": "Notiz",
            "memory": text,
            "tags": [],
            "scope": "",
            "scope_vk": "",
        }
        entry.update(CALLER)
        # Every text is a sample of its own: stored even where the near-duplicate check
        # would answer with an earlier, similar text (that would be read back instead).
        answer = call_tool(
            self.ctx,
            PRINCIPAL,
            "insert_brain_longterm_memory",
            {"inhalt": {"memories": [entry], **CALLER}, "referenzfelder": {DUPLICATE_FLAG: True}},
        )
        results = answer.get("daten") or []
        if not answer.get("erfolg") or not results or not results[0].get("erfolg"):
            self.refused += 1
            return ""  # nothing stored: no secret leaked, and no content kept
        memory_id = MemoryId.parse(results[0]["ID"])
        assert memory_id is not None
        stored = self.ctx.storage.get_memories(PRINCIPAL.tenant, [memory_id], self.ctx.clock())
        return stored[memory_id].memory


def measure(entries: list[dict[str, Any]]) -> tuple[dict[str, Any], int]:
    with tempfile.TemporaryDirectory(prefix="scrub-calls-") as data_dir:
        storage = SqliteStorage.in_data_dir(Path(data_dir))
        try:
            stored = Stored(ServiceContext(storage, Settings(data_dir=Path(data_dir))))
            return evaluate(entries, stored), stored.refused
        finally:
            storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    args = parser.parse_args()
    entries = load(args.corpus)
    result, refused = measure(entries)
    print(f"corpus: {len(entries)} texts, stored one by one through call_tool on SQLite")
    print(f"recall              {result['recall']:.4f}  ({result['caught']}/{result['total']})")
    print(
        f"false-positive rate {result['fp_rate']:.4f}  "
        f"({len(result['false_positives'])}/{result['negatives']} negative texts changed)"
    )
    print(f"content kept        {result['kept']}/{result['keep_total']} marked values survive")
    print(f"refused calls       {refused}")
    misses = sum(1 for v in result["per_kind"].values() if v[0] < v[1])
    print(f"kinds with misses   {misses} of {len(result['per_kind'])}")


if __name__ == "__main__":
    main()
