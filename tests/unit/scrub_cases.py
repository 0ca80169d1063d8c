"""The two assertions of the scrubber's case tables: a value is removed from its layout (and a
marker stands in the text), a content text comes back unchanged."""

from __future__ import annotations

import re

from shared.scrubbing import scrub

MARKER = re.compile(r"\[ENTFERNT:[a-z0-9_]+\]")


def assert_removed(layout: str, value: str) -> None:
    """`layout` with `value` in its `{}` (or the layout itself) loses the value to a marker."""
    text = layout.format(value) if "{}" in layout else layout
    out = scrub(text).text
    assert value not in out and MARKER.search(out), out


def assert_kept(text: str) -> None:
    assert scrub(text).text == text
