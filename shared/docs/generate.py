"""Which pages get which generated parts, and the text each page should have.

Invariants:
- A pure function of the repository's pages and the tool catalog: `expected(root)` never
  writes; `write(root)` writes exactly the pages whose text differs.
- The tool reference goes between `REFERENCE_BEGIN` and `REFERENCE_END` in docs/tools.md
  (the markers must be there: the hand-written prose around them decides where); then each
  page under docs/ gets its contents block when it is long (`toc.with_toc`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from shared.docs.toc import with_toc

REFERENCE_PAGE: Final = Path("docs/tools.md")
REFERENCE_BEGIN: Final = (
    "<!-- tool reference: generated from shared/tools/catalog.py by `make docs` -->"
)
REFERENCE_END: Final = "<!-- /tool reference -->"


class MarkersMissing(ValueError):
    """A page that should carry a generated part lacks its markers."""


def with_reference(text: str) -> str:
    from shared.docs.tool_reference import render_reference  # loads the catalog

    lines = text.splitlines()
    if REFERENCE_BEGIN not in lines or REFERENCE_END not in lines:
        raise MarkersMissing(f"{REFERENCE_PAGE}: Marker {REFERENCE_BEGIN!r} fehlt.")
    start = lines.index(REFERENCE_BEGIN)
    end = lines.index(REFERENCE_END, start)
    new = [*lines[: start + 1], "", *render_reference(), "", *lines[end:]]
    return "\n".join(new) + ("\n" if text.endswith("\n") else "")


def pages(root: Path) -> list[Path]:
    return sorted((root / "docs").glob("*.md"))


def expected(root: Path) -> dict[Path, str]:
    """Every page under docs/ as `make docs` would write it."""
    result: dict[Path, str] = {}
    for page in pages(root):
        text = page.read_text(encoding="utf-8")
        if page == root / REFERENCE_PAGE:
            text = with_reference(text)
        result[page] = with_toc(text)
    return result


def stale(root: Path) -> list[Path]:
    return [p for p, text in expected(root).items() if p.read_text(encoding="utf-8") != text]


def write(root: Path) -> list[Path]:
    changed = []
    for page, text in expected(root).items():
        if page.read_text(encoding="utf-8") != text:
            page.write_text(text, encoding="utf-8")
            changed.append(page)
    return changed
