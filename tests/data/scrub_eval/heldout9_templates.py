"""Held-out set 9 (seed 47093, judge9 track): the template module `__main__` builds from.

Secrets and content are written in `heldout9_secrets` and `heldout9_negatives` (as many
templates each, so half the texts hold no secret); `FRAMES` wrap a text the way an agent
stores it; `FILLERS` are unlabelled names and hosts. Invariant: frames and fillers hold no
digits and no secret, so a labelled PIN or code occurs in its text only where it is labelled.
"""

from __future__ import annotations

from tests.data.scrub_eval.heldout9_negatives import CONTENT
from tests.data.scrub_eval.heldout9_secrets import SECRETS

__all__ = ["CONTENT", "FILLERS", "FRAMES", "SECRETS"]

FRAMES: list[tuple[str, str]] = [
    ("", ""),
    ("Notiz: ", ""),
    ("", "\n\n(gespeichert aus dem Chat)"),
    ("Note from the support channel:\n", ""),
    ("## Kontext\n\n", "\n"),
    ("", " — saved by the assistant"),
    ("Memo for the team:\n\n", "\n\nEnd of memo."),
    ("Aus dem Ticketverlauf:\n", ""),
]

FILLERS: dict[str, list[str]] = {
    "who9": ["Katrin", "Jonas B.", "Frau Aydin", "Ole", "Priya", "Herr Brandt", "Sven", "Mei"],
    "svc9": ["Personio", "das Intranet", "Jenkins", "den Webshop", "Metabase", "Zammad"],
    "team9": ["Vertrieb Nord", "Plattform", "Buchhaltung", "Datenteam", "Kundenservice"],
    "host9": ["db.shop.example", "crm.internal", "pg-main.lan", "mq.ops.example", "nas.office"],
    "slackpath": ["TQXVBWKPJ/BRMZLDHSN", "TJHWQPRXM/BKDLTZNVQ", "TFNRWXLJQ/BMQPZHKTD"],
}
