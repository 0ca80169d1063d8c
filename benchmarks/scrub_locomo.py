"""False positives of the secret scrubber on public text nobody here wrote: every turn of
LoCoMo (ACL 2024; `../shared/benchmarks/locomo`, read its README) as a negative.

LoCoMo's turns are chat between two people about their lives (work, family, hobbies, plans,
shared photos as `[shares …]` captions); they hold no credentials, so every change the
scrubber makes to one counts as a false positive. Each turn is scrubbed as Brain stores it,
`"{speaker}: {text}"` (`benchmarks/locomo.py`'s `turn_text`):

* directly (`shared.scrubbing.scrub`), and
* with `--calls`, through whole calls: every turn stored by `insert_brain_longterm_memory`
  through `call_tool` on SQLite and the stored row read back (`benchmarks/scrub_calls.py`).

Prints the raw rate (turns changed / turns) and every changed turn with the removed spans,
so that a person can judge by hand whether a change is a true secret or personal-data hit
(the judged rate is that person's, written down with the figure in docs/performance.md).

Run: .venv/bin/python benchmarks/scrub_locomo.py [--calls] [--conversations 26,30] [--limit N]
A measurement, not a test: it asserts nothing (tests/unit/test_scrub_locomo.py runs a slice).
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.locomo import data_dir, turn_text  # noqa: E402
from benchmarks.scrub import shorten  # noqa: E402
from benchmarks.scrub_calls import measure  # noqa: E402
from shared.scrubbing import scrub  # noqa: E402


def turns(
    directory: Path | None = None, only: Sequence[str] | None = None, limit: int | None = None
) -> list[dict[str, Any]]:
    """Every turn (of the conversations in `only`, at most `limit`) as a corpus entry
    without secrets, in `benchmarks/scrub.py`'s format; `id` is conversation/dia_id."""
    raw = json.loads(((directory or data_dir()) / "locomo-dev.json").read_text("utf-8"))
    found = [
        {
            "id": f"{item['conversation']}/{turn['dia_id']}",
            "text": turn_text(turn),
            "secrets": [],
            "keep": [],
            "group": "locomo",
            "lang": "en",
        }
        for item in raw
        if only is None or str(item["conversation"]) in only
        for turn in item["turns"]
    ]
    return found[:limit] if limit is not None else found


def removed(before: str, after: str) -> list[tuple[str, str]]:
    """The spans of `before` that `after` replaced, with what replaced them."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [
        (before[i1:i2], after[j1:j2])
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def changed_turns(
    entries: list[dict[str, Any]], scrubber: Callable[[str], str]
) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(id, original text, removed spans) of every turn the scrubber changed."""
    found = []
    for e in entries:
        out = scrubber(e["text"])
        if out != e["text"]:
            found.append((e["id"], e["text"], removed(e["text"], out)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--conversations", help="comma-separated, e.g. 26,30 (default: all)")
    parser.add_argument("--limit", type=int, help="the first N turns only")
    parser.add_argument("--calls", action="store_true", help="also through whole calls")
    args = parser.parse_args()
    only = args.conversations.split(",") if args.conversations else None
    entries = turns(only=only, limit=args.limit)

    print(f"corpus: {len(entries)} LoCoMo turns, every one a negative")
    report_negatives(entries, "turns", calls=args.calls)


def report_negatives(entries: list[dict[str, Any]], noun: str, calls: bool) -> None:
    """Print the scrubber's raw false-positive rate on `entries` (all negatives) with every
    changed one and its removed spans; with `calls`, the rate through whole calls too."""
    changed = changed_turns(entries, lambda text: scrub(text).text)
    rate = len(changed) / len(entries) if entries else 0.0
    print(
        f"scrubber: false-positive rate {rate:.4f} ({len(changed)}/{len(entries)} {noun} changed)"
    )
    for turn_id, text, spans in changed:
        print(f"  {turn_id}: {shorten(text, 160)}")
        for gone, marker in spans:
            print(f"      {gone!r} -> {marker!r}")
    if calls:
        result, refused = measure(entries)
        print(
            f"whole calls: false-positive rate {result['fp_rate']:.4f} "
            f"({len(result['false_positives'])}/{result['negatives']} stored {noun} changed, "
            f"{refused} calls refused)"
        )


if __name__ == "__main__":
    main()
