"""The public set: `tests/data/scrub_public.jsonl`, built from other people's fixtures.

Every text comes from the test fixtures of two public secret scanners, not from this
project's generators (`public_fixtures.json` holds them, with their sources):

* gitleaks (https://github.com/gitleaks/gitleaks, commit b58d3f10; MIT licence,
  Copyright (c) 2019 Zachary Rice): the literal true-positive (`tps`) and false-positive
  (`fps`) lines of the rule tests in `cmd/generate/config/rules/*.go`;
* detect-secrets (https://github.com/Yelp/detect-secrets, commit 5e14193; Apache License 2.0,
  https://www.apache.org/licenses/LICENSE-2.0, Copyright Yelp, Inc. and contributors): the
  cases of `tests/plugins/*_test.py` and snippets of `test_data/config.ini`, `config.env`,
  `config.yaml` and `each_secret.py`.

Changes made to the fixtures (the Apache licence asks that they be stated): lines were picked
and labelled by hand; at most six positives per gitleaks rule and eight negatives per rule
(the generic rule's all) so that no vendor dominates; lines that only exist as a random
generator call in gitleaks (`secrets.NewSecret(...)`) are left out, so every value is the
fixture's own; "should not match" cases that still look like a live credential of another
shape (a well-formed key with a wrong checksum, a signature, a CSRF token, real-looking Google
API keys on gitleaks' allow list) are left out of the negatives, since a scrubber is right to
remove them. A fixture that is a bare value (no whitespace) is wrapped in a neutral sentence an
agent might store (no credential word in the wrapper), in English or German in turn; every
other fixture keeps its own surrounding text.

Invariants (checked by `tests/unit/test_scrub_public.py`): every labelled secret is verbatim
in its text; every negative carries at least one `keep` value (the token a scanner would
have looked at), verbatim in its text; texts are unique; the build is deterministic (no
random numbers), so `python -m tests.data.scrub_eval --check` reproduces the committed file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().with_name("public_fixtures.json")
WRAPPERS = (
    ("en", "Saved from the session: {}"),
    ("de", "Aus der Sitzung gespeichert: {}"),
    ("en", "Pasted into the chat:\n{}"),
    ("de", "Vom Nutzer eingefügt:\n{}"),
    ("en", "Log line kept for later: {}"),
)
_NAME = re.compile(r"[^a-z0-9]+")


def _kind(source: str, rule: str) -> str:
    prefix = "gl" if source == "gitleaks" else "ds"
    return f"pub_{prefix}_{_NAME.sub('_', rule.lower()).strip('_')}"


def _wrap(text: str, index: int) -> tuple[str, str]:
    """(lang, text): a bare value is set in a neutral sentence; other fixtures stay as they are."""
    if any(c.isspace() for c in text):
        return "en", text
    lang, frame = WRAPPERS[index % len(WRAPPERS)]
    return lang, frame.format(text)


def build() -> list[dict[str, Any]]:
    data = json.loads(FIXTURES.read_text(encoding="utf-8"))
    entries: list[dict[str, Any]] = []
    for i, fixture in enumerate(data["positives"]):
        lang, text = _wrap(fixture["text"], i)
        kind = _kind(fixture["source"], fixture["rule"])
        entries.append(
            {
                "text": text,
                "secrets": [{"kind": kind, "value": v} for v in fixture["secrets"]],
                "keep": [],
                "group": f"secret:{fixture['source']}/{fixture['rule']}",
                "lang": lang,
            }
        )
    for i, fixture in enumerate(data["negatives"]):
        lang, text = _wrap(fixture["text"], i)
        entries.append(
            {
                "text": text,
                "secrets": [],
                "keep": list(fixture["keep"]),
                "group": f"content:{fixture['source']}/{fixture['rule']}",
                "lang": lang,
            }
        )
    return entries
