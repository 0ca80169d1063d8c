"""Held-out set 12 (seed 60917, judge11 track, the judge of session 11): the template module
`__main__` builds from.

Secrets are written in `heldout12_secrets`, secret-free texts in `heldout12_negatives` (so that
about 45 % of the texts hold no secret); `FRAMES` wrap a text the way an agent stores it;
`FILLERS` are unlabelled names. Invariant: frames and fillers hold no digit and no secret, so a
labelled PIN or code occurs in its text only where it is labelled.
"""

from __future__ import annotations

from tests.data.scrub_eval.heldout12_negatives import CONTENT
from tests.data.scrub_eval.heldout12_secrets import SECRETS

__all__ = ["CONTENT", "FILLERS", "FRAMES", "SECRETS"]

FRAMES: list[tuple[str, str]] = [
    ("", ""),
    ("Aus dem Verlauf übernommen:\n", ""),
    ("", "\n\n[memory saved by agent]"),
    ("Remember this:\n", ""),
    ("---\nthema: Zugänge\n---\n", ""),
    ("", "\n— Ende der Notiz"),
    ("Summary of the conversation so far:\n\n", "\n\nNo further action."),
    ("Wichtig: ", ""),
]

FILLERS: dict[str, list[str]] = {
    "person12": ["Yusuf", "Frau Brenner", "Agnieszka", "Herr Dahl", "Nele", "Mr. Osei", "Carla"],
}
