"""Every relative link in README.md and docs/*.md points at a file that exists and, where it
names an anchor, at a heading of that file (GitHub's anchors, as the generated contents
blocks write them: `shared.docs.toc`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared.docs import toc

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"```.*?```", flags=re.DOTALL)


def anchors(page: Path) -> set[str]:
    return toc.anchors(page.read_text(encoding="utf-8"))


def links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_relative_links_resolve(page: Path) -> None:
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or (anchor and file.suffix == ".md" and anchor not in anchors(file)):
            broken.append(target)
    assert not broken, f"{page.name}: {broken}"
