"""Eighth held-out set (judge8 track, seed 18839): templates written apart from the scrubber's
rules and from the earlier sets, as agents write memories — chats, tickets, configs, logs, code
review, runbooks, tables; German and English about half each. Secrets: `heldout8_prose` and
`heldout8_configs`; negatives (as many texts as the positives): `heldout8_negatives` and
`heldout8_notes`. Makers: `heldout8_values` (secrets) and `heldout8_content` (look-alikes).

Invariants (checked by tests/unit/test_scrub_eval_labels.py): every labelled value is in its
text, no 8-character piece of a secret occurs elsewhere in the text, no `keep` value overlaps
a secret, and every negative template marks at least one value to keep.
"""

from __future__ import annotations

from tests.data.scrub_eval.heldout8_configs import CONFIGS
from tests.data.scrub_eval.heldout8_negatives import TECHNICAL
from tests.data.scrub_eval.heldout8_notes import NOTES
from tests.data.scrub_eval.heldout8_prose import PROSE

SECRETS = {**PROSE, **CONFIGS}
CONTENT = {**TECHNICAL, **NOTES}

FILLERS = {
    "who": ["Jana", "Herr Okafor", "Frau Lindqvist", "Mehmet", "Claire", "Tobias", "Aylin"],
    "city": ["Bremen", "Leipzig", "Graz", "Utrecht", "Basel", "Kassel"],
    "weekday": ["Monday", "Dienstag", "Wednesday", "Donnerstag", "Friday"],
}

FRAMES = [
    ("", ""),
    ("", ""),
    ("", "\n"),
    ("Notiz: ", ""),
    ("From the chat: ", ""),
    ("[memory] ", ""),
    ("## Note\n\n", ""),
    ("", "\n\n(saved by the agent)"),
    ("", " — gespeichert für später"),
    ("Context for the next session:\n", ""),
]
