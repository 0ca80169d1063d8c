"""The scrubbing engine: run the pattern table over a text, merge the hits, replace them.

1. Detection runs on the text's normalised view (`normalize.view`: escaped JSON unescaped,
   zero-width characters dropped, look-alike characters folded); every hit is mapped back to
   its span in the original text.
2. Each row of `PATTERNS` runs only if one of its needles occurs in the lowercased view (rows
   without needles always run). Anchored rows try their regex only where a needle starts, or
   in the windows around their needles (merged, so no stretch is searched twice); anchors
   inside an earlier match of 256+ characters are skipped. Work per row is capped (2,000
   anchors, 25,000 characters of windows): past the cap the rest of the text is removed as
   unchecked - fail safe, and only texts stuffed with one row's key words get there.
   Rows with a `min_run` search only the whitespace-free stretches at least that long. What
   rows share (needle presence and positions, anchors, long stretches) is computed once per
   text (`TextScan`).
3. A hit is the span of the row's value group (or of the whole match); an unquoted value loses
   trailing sentence punctuation, must be followed by what the row's `follow` allows, and is
   kept only if the row's validator accepts it and it holds no run of 16 of one character
   (`value_forms.filler_run`: `glc_1111…`, `…-####…`) - for every row alike.
4. Whole span: a hit is widened over the credential characters that continue it (a value cut
   at a `/`, `+`, `=`, `-` or `.` is a piece of a credential, never the whole), and over the
   next line when a long hit ends its line and that line is nothing but its continuation.
5. The context tier (`context_tier`) adds what the table left: values a credential word
   names, whatever their shape (scored by a small learned model; a scan stops at a hit).
6. Overlapping hits are merged into one span; its kind is the kind of the longest hit in it
   (on a tie, the earlier row). Each merged span is replaced by `[ENTFERNT:<kind>]`.

Linear time: every regex either fails within a bounded number of steps or consumes what it
scanned (see `context`), windows are merged, and the per-match work is bounded.

Pure functions over compiled, immutable regexes: safe to call from any number of threads.
A caller's `check` runs between the rows, so a time budget can stop one long scan early.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Final, NamedTuple

from shared.scrubbing import context_tier
from shared.scrubbing.checks import MARKER_PREFIX
from shared.scrubbing.normalize import View, view
from shared.scrubbing.patterns import PATTERNS, SecretPattern
from shared.scrubbing.value_forms import filler_run

__all__ = [
    "Check", "Span", "TextScan", "assemble", "detect", "find_spans", "marker", "provider_hits",
    "redact", "row_hits",
]  # fmt: skip


_MARKER = re.compile(re.escape(MARKER_PREFIX) + r"[a-z0-9_]{1,40}\]")
_MAX_ANCHORS: Final = 2000
"""Anchors one row tries in one text (2,000 in 50,000 characters is a key word every 25)."""
_MAX_WINDOW: Final = 25_000
"""Characters of windows one row searches in one text."""
_LONG: Final = 256
"""A match this long is a blob: anchors inside it are not tried again (keeps dense needles,
`token=token=...`, linear)."""
_TRIM: Final = ".:)]}"
_CONTINUES: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-~"
)
_LEFT_CONTINUES: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
)
_WIDEN_LEFT: Final = frozenset({"password", "generic_secret", "aws_secret_key", "high_entropy"})
_MAX_WIDEN: Final = 1024
_TIER: Final = 10_000
"""Priority of the context tier's hits: after every row of the table."""
_WRAPPED_MIN: Final = 30
"""A hit this long that ends a line may go on in the next line (a key wrapped by a terminal
or chat client): see `_wrapped`."""
_WRAPPED_LINE = re.compile(r"[A-Za-z0-9_\-+/]{8,1024}={0,2}(?=\r?\n|$)")


class Span(NamedTuple):
    start: int
    end: int
    kind: str


def marker(kind: str) -> str:
    """The replacement text of one secret: `[ENTFERNT:<kind>]`."""
    return f"{MARKER_PREFIX}{kind}]"


class TextScan:
    """One text under scan: the text, its lowercase form, and what the rows share - which
    needles occur and where, and the long whitespace-free stretches - computed once per text
    instead of once per row (many rows share their needles: the password words, `token`)."""

    __slots__ = ("_anchors", "_any", "_positions", "_present", "_runs", "lowered", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.lowered = text.lower()
        self._present: dict[str, bool] = {}
        self._any: dict[tuple[str, ...], bool] = {}
        self._positions: dict[str, list[int]] = {}
        self._anchors: dict[tuple[str, ...], tuple[list[int], int | None]] = {}
        self._runs: list[tuple[int, int]] | None = None

    def has_any(self, needles: tuple[str, ...]) -> bool:
        """One of the needles occurs (cached per needle and per needle tuple: rows share)."""
        found = self._any.get(needles)
        if found is None:
            present, lowered, found = self._present, self.lowered, False
            for needle in needles:
                hit = present.get(needle)
                if hit is None:
                    hit = present[needle] = needle in lowered
                if hit:
                    found = True
                    break
            self._any[needles] = found
        return found

    def anchors(self, needles: tuple[str, ...]) -> tuple[list[int], int | None]:
        """`_anchors` of a needle tuple, computed once per text (eight password rows share)."""
        found = self._anchors.get(needles)
        if found is None:
            found = self._anchors[needles] = _anchors(self, needles)
        return found

    def positions(self, needle: str) -> list[int]:
        """Where `needle` starts in the lowered text: the first `_MAX_ANCHORS` + 1."""
        found = self._positions.get(needle)
        if found is None:
            found = []
            find, i = self.lowered.find, self.lowered.find(needle)
            while i >= 0 and len(found) <= _MAX_ANCHORS:
                found.append(i)
                i = find(needle, i + 1)
            self._positions[needle] = found
        return found

    def runs(self, minimum: int) -> list[tuple[int, int]]:
        """Spans of the whitespace-free stretches of at least `minimum` characters."""
        if self._runs is None:
            self._runs = []
            text, pos = self.text, 0
            for word in text.split():
                if len(word) >= _MIN_RUN:  # its first occurrence after the last long word
                    pos = text.find(word, pos)  # (a short word cannot contain it)
                    self._runs.append((pos, pos + len(word)))
                    pos += len(word)
        return [(s, e) for s, e in self._runs if e - s >= minimum]


_MIN_RUN: Final = 16
"""Shortest stretch `TextScan.runs` records (no row asks for less)."""


def _anchors(scan: TextScan, needles: tuple[str, ...]) -> tuple[list[int], int | None]:
    """Where the needles start, in text order, at most `_MAX_ANCHORS` of them, and the
    offset from which on they were not collected (None: all were)."""
    found: set[int] = set()
    limit: int | None = None
    for needle in needles:
        positions = scan.positions(needle)
        if len(positions) > _MAX_ANCHORS and (limit is None or positions[_MAX_ANCHORS] < limit):
            limit = positions[_MAX_ANCHORS]
        found.update(positions[:_MAX_ANCHORS])
    ordered = sorted(p for p in found if limit is None or p < limit)
    if len(ordered) > _MAX_ANCHORS:
        limit = ordered[_MAX_ANCHORS]
        ordered = ordered[:_MAX_ANCHORS]
    return ordered, limit


def _matches(row: SecretPattern, scan: TextScan) -> Iterator[re.Match[str] | int]:
    """The row's candidate matches: a full scan, only inside long stretches (`min_run`), or
    only at / around its anchors.

    Bounded work: after `_MAX_ANCHORS` anchors (or `_MAX_WINDOW` characters of windows) the row
    stops and yields the offset where it stopped - the caller treats the rest of the text as
    unchecked and removes it (a text that dense in one row's key words is an attack, not prose).
    """
    if row.needles and not scan.has_any(row.needles):
        return
    text = scan.text
    if row.min_run:  # every match lies inside one whitespace-free stretch that long
        for start, end in scan.runs(row.min_run):
            yield from row.regex.finditer(text, start, end)
        return
    # Anchors are offsets into `text` only if lowering kept every character's length (it
    # does except for a few, like 'İ').
    if not row.anchored or len(scan.lowered) != len(text):
        yield from row.regex.finditer(text)
        return
    positions, limit = scan.anchors(row.needles)
    before, after = row.window
    if not before and not after:
        skip = 0  # a long match (a blob) is not searched again from inside
        for i in positions:
            if i < skip:
                continue
            match = row.regex.match(text, i)
            if match:
                if match.end() - i >= _LONG:
                    skip = match.end()
                yield match
        if limit is not None:
            yield limit
        return
    done = scanned = 0  # windows are merged: never scan a stretch twice
    for i in positions:
        start, end = max(i - before, done), min(len(text), i + after)
        if start < end:
            if scanned >= _MAX_WINDOW:
                yield start
                return
            yield from row.regex.finditer(text, start, end)
            scanned += end - start
            done = end
    if limit is not None:
        yield max(done, limit - before)


def _value_span(row: SecretPattern, match: re.Match[str]) -> tuple[int, int]:
    group = next((g for g in row.groups if match.start(g) >= 0), None)
    if group is None:
        return match.span()
    start, end = match.span(group)
    if group == "v":  # an unquoted value: the sentence's punctuation is not part of it
        text = match.string
        while end > start and text[end - 1] in _TRIM:
            end -= 1
    return start, end


def row_hits(
    row: SecretPattern, scan: TextScan, covered: Sequence[tuple[int, int]] = ()
) -> Iterator[tuple[int, int]]:
    """The spans one row confirms in the text (`covered`: spans earlier rows found, which a
    fallback row skips). A span up to the end of the text means: the row's budget ran out."""
    text = scan.text
    for match in _matches(row, scan):
        if isinstance(match, int):  # the row's work budget is spent: the rest is removed
            if match < len(text):
                yield match, len(text)
            return
        start, end = _value_span(row, match)
        if end <= start:
            continue
        if row.fallback and _inside(covered, start, end):
            continue
        if row.follow is not None and not row.follow.match(text, end):
            continue
        if row.validator is not None and not row.validator(text[start:end], match):
            continue
        if filler_run(text[start:end]):
            continue
        yield start, end


Check = Callable[[], None]
"""Called between the rows of one text (the caller's time budget: it raises to stop)."""


def _raw_hits(
    text: str, check: Check | None, rows: Sequence[SecretPattern] = PATTERNS
) -> list[tuple[int, int, int, str]]:
    scan = TextScan(text)
    hits: list[tuple[int, int, int, str]] = []
    covered: list[tuple[int, int]] = []
    for priority, row in enumerate(rows):
        if check is not None:
            check()
        if row.needles and not scan.has_any(row.needles):
            continue  # most rows, for most texts: none of their needles occurs
        if row.fallback and not covered:
            covered = sorted((h[0], h[1]) for h in hits)
        hits.extend((s, e, priority, row.kind) for s, e in row_hits(row, scan, covered))
    return hits


PROVIDER_ROWS: Final = next(i for i, p in enumerate(PATTERNS) if p.kind == "jwt") + 1
"""The table's first rows - private keys, provider tokens, JWTs: shapes that are secrets
wherever they stand (high precision); the rows after them depend on context."""


def provider_hits(text: str) -> list[tuple[int, int, int, str]]:
    """Hits (start, end, priority, kind) of the provider rows alone on a view's text."""
    return _raw_hits(text, None, PATTERNS[:PROVIDER_ROWS])


def _inside(covered: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """[start, end) lies within one of the sorted spans `covered`."""
    i = bisect.bisect_right(covered, (start, 1 << 62)) - 1
    return i >= 0 and covered[i][0] <= start and end <= covered[i][1]


def _widen(text: str, start: int, end: int, kind: str) -> tuple[int, int]:
    """The whole credential around a hit: continue over the characters that continue it."""
    limit = min(len(text), end + _MAX_WIDEN)
    while end < limit and (
        text[end] in _CONTINUES
        or (text[end] == "." and end + 1 < len(text) and text[end + 1] in _CONTINUES)
    ):
        end += 1
    if kind in _WIDEN_LEFT and start > 0 and text[start - 1] in "/+":
        floor = max(0, start - _MAX_WIDEN)
        while start > floor and text[start - 1] in _LEFT_CONTINUES:
            start -= 1
    return start, _wrapped(text, start, end)


def _wrapped(text: str, start: int, end: int) -> int:
    """The end of a long credential that a line break cut: the next line is one run of token
    characters with a digit or both letter cases (an env file's next `KEY=value` line, a
    word or a sentence never is)."""
    if end - start < _WRAPPED_MIN or not text.startswith("\n", end):
        return end
    found = _WRAPPED_LINE.match(text, end + 1)
    if found is None:
        return end
    part = found.group()
    mixed = any(map(str.isupper, part)) and any(map(str.islower, part))
    return found.end() if mixed or any(map(str.isdigit, part)) else end


def _merge(hits: list[tuple[int, int, int, str]]) -> list[Span]:
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


def _outside_markers(
    text: str, hits: list[tuple[int, int, int, str]]
) -> list[tuple[int, int, int, str]]:
    """Never find a secret inside our own markers."""
    if not hits or MARKER_PREFIX not in text:
        return hits
    markers = [m.span() for m in _MARKER.finditer(text)]
    return [h for h in hits if not any(s < h[1] and h[0] < e for s, e in markers)]


def find_spans(
    text: str, check: Check | None = None, model: context_tier.Model | None = None
) -> list[Span]:
    """Disjoint spans of the secrets in `text`, in text order (offsets into `text`);
    `check` runs before each row (a time budget that raises stops the scan). After the
    table, the context tier (`context_tier`, its weights or `model`'s) looks at the rest."""
    seen = view(text)
    return assemble(text, seen, detect(seen.text, check, model))


def detect(
    text: str, check: Check | None = None, model: context_tier.Model | None = None
) -> list[tuple[int, int, int, str]]:
    """Every hit (start, end, priority, kind) of the table and the context tier on a view's
    text, unmerged (priority: the row's index; the tier's hits come after every row)."""
    hits = _raw_hits(text, check)
    covered = sorted((h[0], h[1]) for h in hits)
    return hits + [(s, e, _TIER, k) for s, e, k in context_tier.find(text, covered, model)]


def assemble(text: str, seen: View, hits: list[tuple[int, int, int, str]]) -> list[Span]:
    """The disjoint spans of `text` from hits (start, end, priority, kind) on its view `seen`:
    markers left alone, offsets mapped back, each hit widened, overlaps merged."""
    hits = _outside_markers(seen.text, hits)
    if not hits:
        return []
    if not seen.identical:
        hits = [(seen.start(s), seen.end(e), p, k) for s, e, p, k in hits]
    widened = [(*_widen(text, s, e, k), p, k) for s, e, p, k in hits]
    return _merge(_outside_markers(text, widened))


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
