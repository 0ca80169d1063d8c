"""False positives of the secret scrubber on public technical documentation nobody here wrote:
paragraphs and config blocks that talk about passwords, tokens, keys and credentials.

Input: one or more git mirrors of public documentation repositories (e.g. the ones `fetch`
brings to /work/.mirror/<owner>+<name>/repo); the text is read from each mirror's HEAD and
never copied into this repository. Every Markdown/reStructuredText file (`.md`, `.mdx`,
`.rst`; paths under `--skip` prefixes left out, by default translations and `.github/`) is
cut into blocks: a fenced code block whole, otherwise the paragraphs between blank lines (an
indented block right after a paragraph stays with it). Blocks of 40–4,000 characters that
name a credential word (password, secret, token, API key, credential, private key,
passphrase, auth) are the candidates; `--per-repo` of them per repository are drawn with
`--seed` from the sorted candidates, so a run is reproducible on the same mirrors.

Documentation holds no real credentials, only placeholders and published examples
(`<password>`, `changeme`, `$TOKEN`, `AKIA…EXAMPLE`); the sampled blocks are checked by hand
with `--list` before the measurement. Every block is a negative, so every change is counted
(raw rate) and printed with its removed spans, to be judged by hand: an example value in a
credential's place (`password: changeme`) or a change with no credential value at all.

Run: .venv/bin/python benchmarks/scrub_docs.py MIRROR [MIRROR ...] [--per-repo 100]
     [--seed 5] [--calls] [--list]
A measurement, not a test: it asserts nothing (tests/unit/test_scrub_docs.py runs the cutting
and sampling on a small repository built in the test).
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.scrub_locomo import report_negatives  # noqa: E402

SUFFIXES = (".md", ".mdx", ".rst")
SKIP = ("i18n/", ".github/", "changelogs/")
MIN_CHARS, MAX_CHARS = 40, 4000
CREDENTIAL_WORD = re.compile(
    r"passw|secret|token|api[-_ ]?key|credential|private[-_ ]key|passphrase|\bauth", re.I
)
_FENCE = re.compile(r"^\s*(```|~~~)")


def repo_name(mirror: Path) -> str:
    """`/work/.mirror/owner+name/repo` → `owner/name` (else the directory's name)."""
    parent = mirror.parent.name if mirror.name == "repo" else mirror.name
    return parent.replace("+", "/", 1)


def documents(mirror: Path, skip: Sequence[str] = SKIP) -> Iterator[tuple[str, str]]:
    """(path, text) of every documentation file at the mirror's HEAD, in path order."""
    listing = subprocess.run(
        ["git", "-C", str(mirror), "ls-tree", "-r", "-z", "HEAD"],
        capture_output=True,
        check=True,
    ).stdout.decode()
    wanted = []
    for row in filter(None, listing.split("\0")):
        meta, path = row.split("\t", 1)
        kind, sha = meta.split()[1:3]
        if kind == "blob" and path.endswith(SUFFIXES) and not path.startswith(tuple(skip)):
            wanted.append((path, sha))
    for path, sha in sorted(wanted):
        blob = subprocess.run(
            ["git", "-C", str(mirror), "cat-file", "blob", sha], capture_output=True, check=True
        ).stdout
        yield path, blob.decode("utf-8", errors="replace")


def blocks(text: str) -> list[str]:
    """A fenced code block whole; else paragraphs between blank lines, an indented paragraph
    joined to the one before it (reStructuredText `::` blocks, Markdown indented code)."""
    found: list[list[str]] = []
    current: list[str] = []
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            if not fenced and current:
                found.append(current)
                current = []
            current.append(line)
            if fenced:
                found.append(current)
                current = []
            fenced = not fenced
        elif fenced or line.strip():
            if not fenced and not current and line[:1] in " \t" and found:
                current = [*found.pop(), ""]
            current.append(line)
        elif current:
            found.append(current)
            current = []
    if current:
        found.append(current)
    return ["\n".join(b).strip("\n") for b in found]


def candidates(mirror: Path, skip: Sequence[str] = SKIP) -> list[dict[str, Any]]:
    """Every block of the mirror that names a credential word, as a corpus entry (a negative)
    in `benchmarks/scrub.py`'s format; `id` is `owner/name:path#n`."""
    name = repo_name(mirror)
    found = []
    for path, text in documents(mirror, skip):
        for n, block in enumerate(blocks(text)):
            if MIN_CHARS <= len(block) <= MAX_CHARS and CREDENTIAL_WORD.search(block):
                found.append(
                    {
                        "id": f"{name}:{path}#{n}",
                        "text": block,
                        "secrets": [],
                        "keep": [],
                        "group": name,
                        "lang": "en",
                    }
                )
    return found


def sample(
    mirrors: Sequence[Path], per_repo: int, seed: int, skip: Sequence[str] = SKIP
) -> list[dict[str, Any]]:
    """`per_repo` candidates of each mirror (all if fewer), drawn with `seed`; texts unique."""
    rng = random.Random(seed)
    chosen: list[dict[str, Any]] = []
    seen: set[str] = set()
    for mirror in mirrors:
        pool = [e for e in candidates(mirror, skip) if e["text"] not in seen]
        unique = list({e["text"]: e for e in pool}.values())
        picked = rng.sample(unique, min(per_repo, len(unique)))
        seen.update(e["text"] for e in picked)
        chosen += sorted(picked, key=lambda e: str(e["id"]))
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("mirrors", nargs="+", type=Path, help="git directories of the repos")
    parser.add_argument("--per-repo", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--calls", action="store_true", help="also through whole calls")
    parser.add_argument("--list", action="store_true", help="print the sample only, unscrubbed")
    args = parser.parse_args()
    entries = sample(args.mirrors, args.per_repo, args.seed)
    if args.list:
        for e in entries:
            print(f"===== {e['id']}\n{e['text']}")
        return
    for mirror in args.mirrors:
        head = subprocess.run(
            ["git", "-C", str(mirror), "rev-parse", "HEAD"], capture_output=True, check=True
        )
        print(f"mirror {repo_name(mirror)} at {head.stdout.decode().strip()}")
    print(f"corpus: {len(entries)} documentation blocks naming a credential word, all negatives")
    report_negatives(entries, "blocks", calls=args.calls)


if __name__ == "__main__":
    main()
