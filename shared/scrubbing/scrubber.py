"""The scrubbing engine: run the pattern table over a text, merge the hits, replace them.

Each row of `PATTERNS` runs only if one of its needles occurs in the lowercased text (rows
without needles always run); anchored rows try their regex only where a needle starts. A hit
is the span of the row's value group (or of the whole match), kept only if the row's
validator accepts the value. Overlapping hits are merged into
one span; its kind is the kind of the longest hit in it (on a tie, the earlier row). Each
merged span is replaced by `[ENTFERNT:<kind>]`.

Pure functions over compiled, immutable regexes: safe to call from any number of threads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from shared.scrubbing.checks import MARKER_PREFIX
from shared.scrubbing.patterns import PATTERNS, SecretPattern

__all__ = ["Span", "find_spans", "marker", "redact"]


_MARKER = re.compile(re.escape(MARKER_PREFIX) + r"[a-z0-9_]+\]")


class Span(NamedTuple):
    start: int
    end: int
    kind: str


def marker(kind: str) -> str:
    """The replacement text of one secret: `[ENTFERNT:<kind>]`."""
    return f"{MARKER_PREFIX}{kind}]"


def _positions(lowered: str, needles: tuple[str, ...]) -> list[int]:
    found: set[int] = set()
    for needle in needles:
        i = lowered.find(needle)
        while i >= 0:
            found.add(i)
            i = lowered.find(needle, i + 1)
    return sorted(found)


def _matches(row: SecretPattern, text: str, lowered: str) -> Iterator[re.Match[str]]:
    """The row's candidate matches: a full scan, or only at / around its anchors."""
    if row.needles and not any(n in lowered for n in row.needles):
        return
    # Anchors are offsets into the lowered text; they are offsets into `text` only if
    # lowering kept every character's length (it does except for a few, like 'İ').
    if not row.anchored or len(lowered) != len(text):
        yield from row.regex.finditer(text)
        return
    positions = _positions(lowered, row.needles)
    before, after = row.window
    if not before and not after:
        for i in positions:
            match = row.regex.match(text, i)
            if match:
                yield match
        return
    done = 0  # windows are merged: never scan a stretch twice
    for i in positions:
        start, end = max(i - before, done), min(len(text), i + after)
        if start < end:
            yield from row.regex.finditer(text, start, end)
            done = end


def _raw_hits(text: str) -> list[tuple[int, int, int, str]]:
    lowered = text.lower()
    hits: list[tuple[int, int, int, str]] = []
    for priority, row in enumerate(PATTERNS):
        for match in _matches(row, text, lowered):
            group = next((g for g in row.groups if match.start(g) >= 0), None)
            start, end = match.span(group) if group else match.span()
            if end <= start:
                continue
            if row.validator is not None and not row.validator(text[start:end], match):
                continue
            hits.append((start, end, priority, row.kind))
    return hits


def find_spans(text: str) -> list[Span]:
    """Disjoint spans of the secrets in `text`, in text order."""
    hits = _raw_hits(text)
    if hits and MARKER_PREFIX in text:  # never find a secret inside our own markers
        markers = [m.span() for m in _MARKER.finditer(text)]
        hits = [h for h in hits if not any(s < h[1] and h[0] < e for s, e in markers)]
    if not hits:
        return []
    hits.sort(key=lambda h: (h[0], h[0] - h[1], h[2]))
    spans: list[Span] = []
    best = (0, 0)  # (length, -priority) of the hit that names the current span
    for start, end, priority, kind in hits:
        rank = (end - start, -priority)
        if spans and start < spans[-1].end:
            last = spans[-1]
            if rank > best:
                best = rank
                spans[-1] = Span(last.start, max(last.end, end), kind)
            elif end > last.end:
                spans[-1] = Span(last.start, end, last.kind)
            continue
        spans.append(Span(start, end, kind))
        best = rank
    return spans


def redact(text: str, spans: list[Span]) -> str:
    """`text` with every span replaced by its marker."""
    parts: list[str] = []
    pos = 0
    for span in spans:
        parts.append(text[pos : span.start])
        parts.append(marker(span.kind))
        pos = span.end
    parts.append(text[pos:])
    return "".join(parts)
