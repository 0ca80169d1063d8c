"""Area and memory paths: one normalisation for every path a client sends (the Memory OS
tools, the ledger, REST bodies and filters, `brain import`).

Invariants:
- A path is checked, authorized and stored only in its normal form (`normalise_path`):
  Unicode NFKC, case folded (one case: "Memory-OS" is "memory-os", "ß" is "ss"),
  surrounding whitespace and slashes removed.
- Then every segment matches `[a-z0-9._-]+` and is neither `.` nor `..`
  (`bad_segment`). Look-alikes NFKC does not fold (a Cyrillic "о") stay non-ASCII and are
  refused, never mapped to a Latin letter: two names that look alike never name two areas.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Final

PATH_SEGMENT: Final = re.compile(r"[a-z0-9._-]+")
PATH_NAMESPACES: Final = ("projects", "teams", "users")


def normalise_path(text: str) -> str:
    """The normal form of a path, an area or one of its names (see the module)."""
    return unicodedata.normalize("NFKC", text).casefold().strip().strip("/")


def bad_segment(segments: Iterable[str]) -> str | None:
    """The first segment that breaks the segment rule, else None."""
    for segment in segments:
        if not segment or segment in (".", "..") or not PATH_SEGMENT.fullmatch(segment):
            return segment
    return None


def normal_area(text: str) -> str | None:
    """`<namespace>/<name>` in normal form when `text` names an area by the rules, else None."""
    normal = normalise_path(text)
    segments = normal.split("/")
    if len(segments) != 2 or segments[0] not in PATH_NAMESPACES or bad_segment(segments):
        return None
    return normal
