"""The short description (`kurzbeschreibung`) Brain derives from a memory's text.

`remember` takes only `content`; its summary is derived here. Invariant: a summary that was
derived follows its text — an update that changes `memory` and sends no `kurzbeschreibung`
re-derives it when the stored one is still the old text's derived summary, so a memory is
never found by wording it no longer has. A summary a caller wrote is kept.
"""

from __future__ import annotations

from typing import Final

SUMMARY_MAX_LEN: Final = 120


def summary_of(text: str) -> str:
    """The text's first non-empty line, cut to SUMMARY_MAX_LEN characters (with an ellipsis)."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first if len(first) <= SUMMARY_MAX_LEN else first[: SUMMARY_MAX_LEN - 1] + "…"


def follows_text(kurzbeschreibung: str, old_text: str) -> bool:
    """Whether a stored summary was derived from `old_text` (and so should follow a new text)."""
    return kurzbeschreibung == summary_of(old_text)
