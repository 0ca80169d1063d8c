"""Quality and speed of the secret scrubber (shared.scrubbing) on the labelled corpus.

Prints:
* recall: a secret counts as caught only if its whole value is gone from the scrubbed text
  AND no 8-character piece of it survives (a partial hit that leaves a key body behind is a
  miss); per kind too, with the misses shown (shortened, the corpus is fake anyway);
* false-positive rate: negative texts (no secrets) that were changed at all;
* throughput: texts per second on ~1 KB texts built by concatenating corpus sentences
  (at least `--seconds` of work, single thread, CPU time, best pass);
* the same numbers for detect-secrets, if it is importable (it is not a dependency; install
  it anywhere on PYTHONPATH to compare, e.g. `pip install --target /tmp/ds detect-secrets` and
  `PYTHONPATH=/tmp/ds`). detect-secrets only detects; its findings are redacted the same way.

Run: .venv/bin/python benchmarks/scrub.py [--seconds 2] [--corpus tests/data/scrub_corpus.jsonl]
A measurement, not a test: it prints numbers and asserts nothing (the quality gate is
tests/unit/test_scrub_corpus.py).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from shared.scrubbing import scrub

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "scrub_corpus.jsonl"

Scrubber = Callable[[str], str]


_MARKER = re.compile(r"\[ENTFERNT:[a-z0-9_]+\]")


def leaks(value: str, text: str) -> bool:
    """The value, or any 8-character piece of it, is still in `text` (markers not counted:
    `[ENTFERNT:github_pat]` shares 'github_pat' with the token prefix, but is not a leak)."""
    text = _MARKER.sub("\0", text)
    if value in text:
        return True
    return any(value[i : i + 8] in text for i in range(max(0, len(value) - 7)))


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def evaluate(entries: list[dict[str, Any]], scrubber: Scrubber) -> dict[str, Any]:
    per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # caught, total
    misses: list[tuple[str, str]] = []
    false_positives: list[str] = []
    per_group: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # changed, total
    lost: list[str] = []  # content a text marks as `keep` that did not survive
    negatives = 0
    for e in entries:
        out = scrubber(e["text"])
        lost += [e["text"] for v in e.get("keep", ()) if v not in out]
        if not e["secrets"]:
            negatives += 1
            per_group[e.get("group", "negative")][1] += 1
            if out != e["text"]:
                false_positives.append(e["text"])
                per_group[e.get("group", "negative")][0] += 1
            continue
        for s in e["secrets"]:
            ok = not leaks(s["value"], out)
            per_kind[s["kind"]][0] += ok
            per_kind[s["kind"]][1] += 1
            if not ok:
                misses.append((s["kind"], e["text"]))
    caught = sum(c for c, _ in per_kind.values())
    total = sum(t for _, t in per_kind.values())
    return {
        "recall": caught / total if total else 1.0,
        "caught": caught,
        "total": total,
        "fp_rate": len(false_positives) / negatives if negatives else 0.0,
        "false_positives": false_positives,
        "negatives": negatives,
        "per_kind": dict(per_kind),
        "per_group": dict(per_group),
        "kept": (sum(len(e.get("keep", ())) for e in entries) - len(lost)),
        "keep_total": sum(len(e.get("keep", ())) for e in entries),
        "lost": lost,
        "misses": misses,
    }


def kilobyte_texts(entries: list[dict[str, Any]], count: int = 500) -> list[str]:
    rng = random.Random(7)
    sentences = [e["text"] for e in entries]
    texts = []
    for _ in range(count):
        parts: list[str] = []
        while sum(len(p) + 1 for p in parts) < 1000:
            parts.append(rng.choice(sentences))
        texts.append(" ".join(parts)[:1024])
    return texts


def throughput(scrubber: Scrubber, texts: list[str], seconds: float) -> float:
    """Texts per second of the thread's CPU time (`time.thread_time`): on a shared machine
    wall time mostly measures the neighbours. The best of the passes over `texts` counts."""
    best = 0.0
    spent = 0.0
    while spent < seconds:
        start = time.thread_time()
        for t in texts:
            scrubber(t)
        elapsed = time.thread_time() - start
        spent += elapsed
        best = max(best, len(texts) / elapsed)
    return best


_KEEP: list[AbstractContextManager[Any]] = []


def detect_secrets_scrubber() -> Scrubber | None:
    """detect-secrets as it scans a file (default plugins and filters), one text per file.

    detect-secrets reports lines, not spans (its `secret_value` is sometimes just a regex
    group such as 'ghp'), so a flagged line is redacted whole: line-level recall, and a
    negative text counts as a false positive if any of its lines is flagged. Its ad-hoc
    `scan_line` reports every word with its entropy and is no detector; the file scan's line
    processing (module-private) is used instead.
    """
    try:
        from detect_secrets.core import scan  # type: ignore[import-not-found]
        from detect_secrets.settings import default_settings  # type: ignore[import-not-found]
    except ImportError:
        return None
    settings = default_settings()
    settings.__enter__()  # kept for the whole run: entering it per text costs more than a scan
    _KEEP.append(settings)  # a collected context manager would restore the empty settings

    def run(text: str) -> str:
        lines = text.split("\n")
        numbered = list(enumerate(lines, 1))
        flagged = {s.line_number for s in scan._process_line_based_plugins(numbered, "memory.txt")}
        return "\n".join(
            "[ENTFERNT:detect_secrets]" if i in flagged else line for i, line in numbered
        )

    return run


def shorten(text: str, width: int = 110) -> str:
    text = text.replace("\n", "⏎")
    return text if len(text) <= width else text[: width - 1] + "…"


def report(name: str, result: dict[str, Any], rate: float, verbose: bool) -> None:
    print(f"\n=== {name} ===")
    print(f"recall              {result['recall']:.4f}  ({result['caught']}/{result['total']})")
    print(
        f"false-positive rate {result['fp_rate']:.4f}  "
        f"({len(result['false_positives'])}/{result['negatives']} negative texts changed)"
    )
    print(f"throughput          {rate:,.0f} texts/s (~1 KB of corpus sentences each, one thread)")
    if result["keep_total"]:
        print(f"content kept        {result['kept']}/{result['keep_total']} marked values survive")
    weak = {k: v for k, v in result["per_kind"].items() if v[0] < v[1]}
    print(f"kinds with misses   {len(weak)} of {len(result['per_kind'])}")
    if not verbose:
        return
    for kind, (caught, total) in sorted(weak.items(), key=lambda kv: kv[1][0] / kv[1][1]):
        print(f"  {kind:<26} {caught}/{total}")
    for group, (changed, total) in sorted(result["per_group"].items()):
        if changed:
            print(f"  changed {group:<26} {changed}/{total}")
    for kind, text in result["misses"]:
        print(f"  miss [{kind}] {shorten(text)}")
    for text in result["false_positives"]:
        print(f"  fp   {shorten(text)}")
    for text in result["lost"]:
        print(f"  lost {shorten(text)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="aggregate figures only: no kinds, groups, misses or FPs (for a held-out corpus)",
    )
    args = parser.parse_args()

    entries = load(args.corpus)
    kinds = Counter(s["kind"] for e in entries for s in e["secrets"])
    negatives = sum(not e["secrets"] for e in entries)
    langs = Counter(e["lang"] for e in entries)
    print(
        f"corpus: {len(entries)} texts, {sum(kinds.values())} secrets of {len(kinds)} kinds, "
        f"{negatives} negatives ({negatives / len(entries):.0%}), "
        + ", ".join(f"{k}={v}" for k, v in sorted(langs.items()))
    )
    texts = kilobyte_texts(entries)
    clean = kilobyte_texts([e for e in entries if not e["secrets"]])
    print(f"throughput texts: {len(texts)} x {sum(map(len, texts)) / len(texts):.0f} chars")

    def ours(text: str) -> str:
        return scrub(text).text

    report(
        "shared.scrubbing",
        evaluate(entries, ours),
        throughput(ours, texts, args.seconds),
        not args.quiet,
    )
    rate = throughput(ours, clean, args.seconds / 2)
    print(f"throughput (no-secret texts only) {rate:,.0f} texts/s")

    other = detect_secrets_scrubber()
    if other is None:
        print("\n(detect-secrets not installed: comparison skipped)")
        return
    report(
        "detect-secrets (default plugins and filters)",
        evaluate(entries, other),
        throughput(other, texts[:50], args.seconds),
        verbose=False,
    )
    for settings in _KEEP:
        settings.__exit__(None, None, None)


if __name__ == "__main__":
    main()
