"""The generated parts of docs/ are current (issue 26:
docs/tools.md from the tool catalog, a table of contents on every long page).

When this fails after a change of the catalog, a schema, a limit or a heading: `make docs`
and commit what it wrote. That every anchor a page links to exists: test_docs_links.py."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from shared.docs import generate, toc
from shared.docs.tool_reference import render_reference, render_tool
from shared.tools.catalog import TOOLS
from shared.tools.limits import TOOL_LIMITS

ROOT = Path(__file__).resolve().parents[2]


def test_the_generated_parts_of_docs_are_current() -> None:
    stale = [str(page.relative_to(ROOT)) for page in generate.stale(ROOT)]
    assert stale == [], f"veraltet: {stale} — `make docs` schreibt sie neu"


def test_every_long_page_has_contents_and_a_short_one_none() -> None:
    for page in generate.pages(ROOT):
        text = page.read_text(encoding="utf-8")
        long = len(toc.without_toc(text).splitlines()) > toc.TOC_MIN_LINES
        assert (toc.TOC_BEGIN in text) is long, page.name
    assert toc.TOC_BEGIN in (ROOT / "docs/dynamodb.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Hybrid search (words + vectors)", "hybrid-search-words--vectors"),
        (
            "Identity and teams (`/api/identitaet`, `/api/teams`)",
            "identity-and-teams-apiidentitaet-apiteams",
        ),
        ("Round trips per tool (measured: `tests/x.py`)", "round-trips-per-tool-measured-testsxpy"),
        ("`update_brain_memories`", "update_brain_memories"),
        ("Größen & Grenzen — kurz", "größen--grenzen--kurz"),
        ("[Link](other.md) text", "link-text"),
    ],
)
def test_anchors_are_githubs(heading: str, anchor: str) -> None:
    assert toc.slug(heading) == anchor


def test_repeated_headings_are_numbered_and_code_is_no_heading() -> None:
    text = "# T\n\n## Tests\n\n```sh\n# not a heading\n## nor this\n```\n\n## Tests\n### Tests\n"
    assert [h.anchor for h in toc.headings(text)] == ["t", "tests", "tests-1", "tests-2"]


def _page(lines: int) -> str:
    body = "\n".join(f"Zeile {n}." for n in range(lines))
    return f"# Titel\n\nEinleitung.\n\n## Erstens\n\n{body}\n\n### Zweitens\n\n## Contents\n"


def test_contents_list_the_headings_under_the_title_with_the_final_anchors() -> None:
    written = toc.with_toc(_page(200))
    lines = written.splitlines()
    # Then the block sits after the title's lead paragraph
    assert lines[:5] == ["# Titel", "", "Einleitung.", "", toc.TOC_BEGIN]
    block = lines[lines.index(toc.TOC_BEGIN) : lines.index(toc.TOC_END)]
    # And it lists ## and ### in order; the page's own "Contents" counts after the block's
    assert block[3:] == [
        "- [Erstens](#erstens)",
        "  - [Zweitens](#zweitens)",
        "- [Contents](#contents-1)",
    ]
    assert {"erstens", "zweitens", "contents", "contents-1"} <= toc.anchors(written)
    # And writing again changes nothing; a page grown short loses its block
    assert toc.with_toc(written) == written
    assert toc.TOC_BEGIN not in toc.with_toc(_page(10))
    assert toc.with_toc(toc.with_toc(_page(10))) == _page(10)


def test_the_reference_names_every_tool_its_fields_and_the_validators_limits() -> None:
    text = (ROOT / generate.REFERENCE_PAGE).read_text(encoding="utf-8")
    start = text.index(generate.REFERENCE_BEGIN)
    section = text[start : text.index(generate.REFERENCE_END)]
    for name, spec in TOOLS.items():
        assert f"### `{name}`" in section and spec.description in section
        for field in spec.input_schema.get("properties", {}):
            assert f"| `{field}` |" in section, (name, field)
        for limit in TOOL_LIMITS.get(name, ()):
            assert str(limit.value) in section, (name, limit)


def test_the_reference_follows_the_catalog() -> None:
    # A changed description or limit is a different reference: the currency test catches it
    spec = TOOLS["recall"]
    changed = replace(spec, description="Neu beschrieben.")
    assert "Neu beschrieben." in render_tool(changed)
    assert "Neu beschrieben." not in "\n".join(render_reference())


def test_a_reference_page_without_its_markers_is_refused() -> None:
    with pytest.raises(generate.MarkersMissing, match="Marker"):
        generate.with_reference("# Tools\n\nnur Prosa\n")
