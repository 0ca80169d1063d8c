"""The detection view of a text: what the patterns see, and the way back to the original.

Secrets hide behind spellings the patterns would not read: escaped JSON (`{\\"password\\":
\\"X\\"}`), zero-width and soft-hyphen characters inside a key word (`Pass\\u200bwort`), full-width
or other look-alike punctuation and letters (`Passwort：X`, Cyrillic `а` in `pаssword`), exotic
spaces. `view(text)` returns the normalised text and a map from every view position back to the
original, so that a secret found in the view is replaced over its whole span in the original
(zero-width characters inside it included).

Linear: one regex pass finds the spots to change; a text without any (plain ASCII without a
backslash, the common case) is its own view and costs one scan.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

__all__ = ["View", "view"]

# Format characters that render as nothing: zero-width space/joiners, word joiner, BOM, soft
# hyphen, Mongolian vowel separator, invisible operators, bidi marks and embeddings.
_INVISIBLE: Final = "\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
# Look-alikes NFKC does not fold: Cyrillic and Greek letters that look Latin, colon-likes.
_CONFUSABLE: Final = str.maketrans(
    "аеорсхуіѕјԁӏАВЕКМНОРСТХՍІЅЈοαρτνκΑΒΕΗΙΚΜΝΟΡΤΧΥΖ∶꞉˸׃᠄﹕︓",
    "aeopcxyisjdlABEKMHOPCTXUISJoaptvkABEHIKMNOPTXYZ:::::::",
)
_SPECIAL: Final = re.compile(
    rf"(?P<invisible>[{_INVISIBLE}]++)|(?P<escape>\\++[\"'/]|\\++[nrt](?![A-Za-z0-9]))"
    r"|(?P<char>[^\x00-\x7f])"
)
_UNESCAPE: Final = {"n": "\n", "r": " ", "t": " "}
# Texts with nothing but ASCII (no backslash) and the letters the patterns know (umlauts, ß)
# are their own view: one charset scan (fast in `re`) instead of the three-way `_SPECIAL`.
_NEEDS_VIEW: Final = re.compile(r"[^\x00-\x5b\x5d-\x7fäöüÄÖÜß]")


@lru_cache(maxsize=4096)
def _fold(ch: str) -> str:
    """One non-ASCII character as the patterns should see it (NFKC plus look-alikes)."""
    folded = unicodedata.normalize("NFKC", ch).translate(_CONFUSABLE)
    if folded.isspace():
        return " " if ch != "\n" else ch
    # Keep letters the patterns know (umlauts, ß); fold the rest only when NFKC gives ASCII or
    # a look-alike was mapped, so that ordinary non-Latin text keeps its length and letters.
    return folded if folded.isascii() else ch


@dataclass(frozen=True, slots=True)
class View:
    """The normalised text and the map back: `breaks` are (view offset, original offset) of
    each change; between changes, the two texts run in step."""

    text: str
    _view_at: tuple[int, ...] = ()
    _orig_at: tuple[int, ...] = ()
    _orig_end: tuple[int, ...] = ()
    _view_end: tuple[int, ...] = ()

    def start(self, pos: int) -> int:
        """Original offset of the character at view offset `pos`."""
        i = bisect.bisect_right(self._view_at, pos) - 1
        if i < 0:
            return pos
        if pos < self._view_end[i]:  # inside a replacement: its whole original stretch
            return self._orig_at[i]
        return self._orig_end[i] + (pos - self._view_end[i])

    def end(self, pos: int) -> int:
        """Original offset just after the view stretch that ends at `pos`."""
        i = bisect.bisect_left(self._view_end, pos)
        # a replacement that ends at or covers `pos` maps to its original end
        if i < len(self._view_end) and self._view_at[i] < pos <= self._view_end[i]:
            return self._orig_end[i]
        j = bisect.bisect_right(self._view_end, pos) - 1
        if j < 0:
            return pos
        return self._orig_end[j] + (pos - self._view_end[j])

    @property
    def identical(self) -> bool:
        return not self._view_at


def view(text: str) -> View:
    """The detection view of `text` (the text itself when nothing needs changing)."""
    if (text.isascii() and "\\" not in text) or not _NEEDS_VIEW.search(text):
        return View(text)
    parts: list[str] = []
    view_at: list[int] = []
    orig_at: list[int] = []
    orig_end: list[int] = []
    view_end: list[int] = []
    pos = vpos = 0
    for m in _SPECIAL.finditer(text):
        s, e = m.span()
        chunk = m.group()
        if m.lastgroup == "escape":
            new = _UNESCAPE.get(chunk[-1], chunk[-1])
        elif m.lastgroup == "char":
            new = _fold(chunk)
            if new == chunk:
                continue
        else:
            new = ""
        parts.append(text[pos:s])
        vpos += s - pos
        view_at.append(vpos)
        orig_at.append(s)
        parts.append(new)
        vpos += len(new)
        view_end.append(vpos)
        orig_end.append(e)
        pos = e
    if not view_at:
        return View(text)
    parts.append(text[pos:])
    return View("".join(parts), tuple(view_at), tuple(orig_at), tuple(orig_end), tuple(view_end))
