"""Held-out set 11 (seed 11863, judge11 track): the template module `__main__` builds from.

Secrets are written in `heldout11_secrets`, secret-free texts in `heldout11_negatives` (so that
about 45 % of the texts hold no secret); `FRAMES` wrap a text the way an agent stores it;
`FILLERS` are unlabelled names, hosts and handles. Invariant: frames and fillers hold no digit
and no secret, so a labelled PIN or code occurs in its text only where it is labelled.
"""

from __future__ import annotations

from tests.data.scrub_eval.heldout11_negatives import CONTENT
from tests.data.scrub_eval.heldout11_secrets import SECRETS

__all__ = ["CONTENT", "FILLERS", "FRAMES", "SECRETS"]

FRAMES: list[tuple[str, str]] = [
    ("", ""),
    ("Memory: ", ""),
    ("Gemerkt aus der Unterhaltung:\n", ""),
    ("", "\n\n-- stored by the assistant"),
    ("### Notiz\n", "\n"),
    ("From the user's message:\n> ", ""),
    ("", " (Quelle: Chatverlauf)"),
    ("Context for later:\n\n", "\n\nEnd of note."),
]

FILLERS: dict[str, list[str]] = {
    "who11": ["Lotte", "Herr Okafor", "Maren", "Tobias W.", "Ines", "Frau Lindqvist", "Rafael"],
    "svc11": ["die Telekom", "Vodafone", "einen Prepaid-Tarif", "die Firma"],
    "host11": ["files.werkstatt.example", "db-core.lan", "queue.ops.example", "vault.home.arpa"],
    "bot11": ["familien_einkauf_bot", "build_notifier_bot", "praxis_termine_bot"],
}
