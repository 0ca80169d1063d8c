"""The README a newcomer reads (issue 26): at most 12 KB, the two commands that do everything
first, and the manual in docs/ — so that it stays a five-minute read as the product grows."""

from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_is_short_and_opens_with_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= 12 * 1024
    first = [line for line in text.splitlines()[:4] if line.strip()]
    assert first[0] == "```sh"
    assert first[1].startswith("make serve") and first[2].startswith("make test")


def test_every_section_is_reachable_from_the_documentation_table() -> None:
    text = README.read_text(encoding="utf-8")
    pages = sorted(p.name for p in (README.parent / "docs").glob("*.md"))
    missing = [name for name in pages if f"(docs/{name})" not in text]
    assert not missing, f"docs pages the README does not link: {missing}"
