"""A password named in one sentence and given in a later one, by a word that refers back to it.

People tell a password the way they tell anything else: "the staging DB password was rotated
after the audit … the one we set yesterday is X", "Das Passwort wurde geändert … Die neue
lautet X", "… after some back and forth they sent the new one, and it is X", "That's X". The
word before the value (`one`, `value`, `Wert`, `die neue`, `es`, `it`, `that`) names nothing by
itself; it refers to a credential word earlier in the text. `REFERENT` finds such a referring
word with its copula (`is`, `ist`, `lautet`, `'s`) and one token after it; `referent_password`
accepts the token only if

* a credential word (`CREDENTIAL_BEFORE`: password, Kennwort, passphrase, credentials, login,
  Zugang, key, token, secret) stands in the `_REACH` characters before the referring word, and
* the token has the shape of a password (letters and a digit or a symbol, 8 to 64 characters)
  and of no identifier (no host name, e-mail address, ticket or order number, path, date).

`ANSWER` and `answered_secret` take the answer to a question that asks for a password or a PIN
(`Hast du das neue Kennwort?⏎⏎Ja: X`, `»welche Geheimzahl …?« – »60520, wie immer«`).

Invariants: nothing is removed without the credential word before it and a password-shaped
value; linear (`REFERENT` is bounded and anchored at its needles; the look-back is one bounded
search). Pure functions, safe in any thread.
"""

from __future__ import annotations

import re
from typing import Final

from shared.scrubbing.checks import password_bare

__all__ = ["ANSWER", "REFERENT", "REFERENT_ANCHORS", "answered_secret", "referent_password"]

REFERENT: Final = (
    r"(?<![A-Za-zÄÖÜäöüß])(?P<key>one|value|wert|neue|that|es|it)(?![A-Za-zÄÖÜäöüß])"
    r"(?:(?:\s{1,8}+(?!(?:is|ist|lautet|was|war)\b)[^\s.;:!?,]{1,20}+){0,6}?"
    r"(?:\s{1,8}+(?:is|ist|lautet|lautete|was|war)(?:\s{1,8}+(?:jetzt|now|nun))?(?:\s{0,4}+:)?"
    r"|['’]s|\s{0,4}+:)|(?<=value)|(?<=wert))"
    r"\s{1,8}+(?P<v>[^\s\"'`<>„“”«»()\[\],;]{8,64}+)"
)
"""Anchored at the referring word itself (`one`, `value`, `Wert`, `neue`, `that`, `es`, `it`:
the article before it does not matter), so that the row's anchors are its needles."""
REFERENT_ANCHORS: Final = (
    "one", "value", "wert", "neue", "that's", "that’s", "that is", "es ist", "es lautet",
    "es war", "it is", "it's", "it was", "es ", "it ",
)  # fmt: skip
"""Literals at which the row is tried: the referring word with what follows it, so that the
row is tried in few places (`es` and `it` without the space after them stand inside every
other word)."""
_REACH: Final = 400
CREDENTIAL_BEFORE: Final = re.compile(
    r"passw|kennw|passphrase|credential|zugangsdaten|\blogin\b|\bkey\b|token|secret",
    re.IGNORECASE,
)
_IDENTIFIER: Final = re.compile(
    r"[\w-]+(?:\.[A-Za-z][\w-]*)+|[^@\s]+@[^@\s]+|[A-Z0-9]+(?:-[A-Z0-9]+)+|[\w./-]*/[\w./-]*"
    r"|\d{1,4}[./-]\d{1,2}[./-]\d{1,4}|[A-Za-z]+|\d+"
)


def referent_password(value: str, match: re.Match[str]) -> bool:
    """The value a referring word gives (`the one … is X`): a credential word before it, and a
    password's shape (see the module docstring)."""
    v = value.rstrip(".,;:!?)")
    if len(v) < 8 or _IDENTIFIER.fullmatch(v):
        return False
    start = match.start("key")
    if not CREDENTIAL_BEFORE.search(match.string, max(0, start - _REACH), start):
        return False
    return password_bare(v, match)


ANSWER: Final = (
    r"\?[«»“”\"']?[ \t]{0,8}+(?:[–—-][ \t]{0,8}+[»„\"']?|(?:\r?\n[ \t>]{0,8}+){1,3}+"
    r"(?:(?:ja|yes|klar|sure|hier|here)[ \t]{0,4}+[:,][ \t]{0,8}+)?)"
    r"(?P<v>[^\s\"'`<>„“”«»,]{4,64}+)(?=[«»“”\"']?(?:,|[ \t]{0,8}+(?:\r?\n|$)))"
)
"""The answer to a question that asks for a secret: a value alone on one of the three lines
after the question (`Hast du das neue Kennwort?⏎⏎Ja: X⏎Gruß`), or after a dash on its line
(`»welche Geheimzahl hat das Diensthandy?« – »60520, wie immer«`)."""
_QUESTION_WORD: Final = re.compile(
    r"passw|kennw|passphrase|zugangsdaten|\bpin\b|geheimzahl|\b(?:tür|tor|tresor)?code\b",
    re.IGNORECASE,
)
_PIN_WORD: Final = re.compile(r"\bpin\b|geheimzahl|code\b", re.IGNORECASE)


def answered_secret(value: str, match: re.Match[str]) -> bool:
    """The value answers a question (the text from the line's start up to the `?`) that names
    a password or a PIN: a password's shape, or four to eight digits after a PIN word."""
    text, mark = match.string, match.start()
    line_start = text.rfind("\n", 0, mark) + 1
    question = text[max(line_start, mark - 200) : mark]
    if not _QUESTION_WORD.search(question):
        return False
    if value.isdigit():
        return 4 <= len(value) <= 8 and bool(_PIN_WORD.search(question))
    if _IDENTIFIER.fullmatch(value):
        return False
    return password_bare(value, match)
