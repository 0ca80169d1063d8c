"""Held-out13 (judge13, seed 13579): the templates the builder instantiates.

SECRETS come from `heldout13_secrets`/`heldout13_secrets2` (every text holds a labelled secret),
CONTENT from `heldout13_negatives` (no text holds one). Frames wrap a text the way a memory is
written by an agent; they hold no credential word and no value of either side.
"""

from __future__ import annotations

from tests.data.scrub_eval import heldout13_negatives as neg
from tests.data.scrub_eval import heldout13_secrets as s1
from tests.data.scrub_eval import heldout13_secrets2 as s2

SECRETS = {
    "user_facts": s1.USER_FACTS,
    "chat": s1.CHAT,
    "tickets": s1.TICKETS,
    "configs": s1.CONFIGS,
    "shell_logs": s2.SHELL_AND_LOGS,
    "handover": s2.HOME_AND_TEAM,
    "keys": s2.KEYS,
}
CONTENT = {
    "digests": neg.DIGESTS,
    "ids": neg.IDS,
    "commerce": neg.COMMERCE,
    "public_material": neg.PUBLIC_MATERIAL,
    "credential_talk": neg.CREDENTIAL_TALK[:8],
    "credential_words": neg.CREDENTIAL_TALK[8:],
    "references": neg.REFERENCES,
}
FRAMES = [
    ("", ""),
    ("Notiz: ", ""),
    ("[memory] ", "\n(gespeichert vom Support-Agenten)"),
    ("Aus der Unterhaltung vom Dienstag:\n", ""),
    ("", "\n-- saved by assistant"),
    ("Kontext für später:\n", "\n"),
]
FILLERS = {
    "name": ["Frau Schubert", "Herr Okonkwo", "Mira Hartl", "Tarek Nowak", "Ole Brandt", "Leyla"],
    "name_en": ["Priya", "Dan", "Mr. Haas", "Ms. Lindqvist", "Tom", "Aiko"],
    "kunde": [
        "Bäckerei Lindner",
        "Kanzlei Aydin & Roth",
        "Acme Logistics",
        "Praxis Dr. Feld",
        "Northwind Foods",
        "Stadtwerke Kelheim",
    ],
}
