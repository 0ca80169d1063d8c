"""`python -m shared.docs [--check] [root]`: write (or check) the generated parts of docs/."""

from __future__ import annotations

import sys
from pathlib import Path

from shared.docs.generate import stale, write


def main(argv: list[str]) -> int:
    check = "--check" in argv
    roots = [a for a in argv if a != "--check"]
    root = Path(roots[0]) if roots else Path.cwd()
    if check:
        old = stale(root)
        for page in old:
            print(f"veraltet: {page.relative_to(root)} (make docs schreibt es neu)")
        return 1 if old else 0
    for page in write(root):
        print(f"geschrieben: {page.relative_to(root)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
