"""A password named in one sentence and given in a later one, by a word that refers back to it.

People tell a password the way they tell anything else: "the staging DB password was rotated
after the audit … the one we set yesterday is X", "Das Passwort wurde geändert … Die neue
lautet X", "… after some back and forth they sent the new one, and it is X", "That's X". The
word before the value (`one`, `value`, `Wert`, `die neue`, `neu`, `es`, `it`, `that`) names
nothing by itself; it refers to a credential word earlier in the text. `REFERENT` finds such a
referring word with its copula (`is`, `ist`, `lautet`, `'s`) and one token after it;
`referent_password` accepts the token only if

* a credential word (`CREDENTIAL_BEFORE`: password, Kennwort, passphrase, credentials, login,
  Zugang, key, token, secret) stands in the `_REACH` characters before the referring word, and
* the token has the shape of a password (letters and a digit or a symbol, or letters of both
  cases changing at random, 8 to 64 characters) and of no identifier (no host name, e-mail
  address, ticket or order number, path, date) - or it is 4 to 8 digits and a PIN word
  (`PIN`, `Geheimzahl`, `code`) stands shortly before (`My bank PIN changed; the new one is
  7293`).

`ANSWER` and `answered_secret` take the answer to a question that asks for a password or a PIN
(`Hast du das neue Kennwort?⏎⏎Ja: X`, `»welche Geheimzahl …?« – »60520, wie immer«`).

A password is also given after the sentence that names it, set apart: after a dash or in a
parenthesis in the same sentence (`das Kennwort hat sie mir diktiert – X`, `sein Kennwort
mitgeschickt (X)`: `APPOSITION`), or as the last word of a line that ends in a colon, or alone
on a line after one, within a few lines after the word (`Falls wieder jemand fragt:⏎⏎    X`,
`… na gut, für den Notfall: X`: `COLON_TAIL`). Both take only a strong password's shape
(`strong_shape`: mixed case with a digit, a symbol or random case changes, a symbol with
letters and digits, or digits inside letters; not a word and a number) that no identifier
has, and nothing an identifier label names (`Build: …`).

Invariants: nothing is removed without the credential word before it and a password-shaped
value; linear (`REFERENT` is bounded and anchored at its needles; the look-back is one bounded
search). Pure functions, safe in any thread.
"""

from __future__ import annotations

import itertools
import re
from typing import Final

from shared.scrubbing.bare_checks import IDENTIFIER_LABEL
from shared.scrubbing.checks import password_bare
from shared.scrubbing.context import NOT_A_PIN
from shared.scrubbing.value_position import value_group

__all__ = [
    "ANSWER", "APPOSITION", "COLON_TAIL", "REFERENT", "REFERENT_ANCHORS", "STRONG_ANCHORS",
    "answered_secret", "apposed_password", "colon_tail_password", "loose_password",
    "referent_password",
    "strong_shape",
]  # fmt: skip

REFERENT: Final = (
    r"(?<![A-Za-zÄÖÜäöüß])(?P<key>one|value|wert|neue|neu|that|es|it)(?![A-Za-zÄÖÜäöüß])"
    r"(?:(?:\s{1,8}+(?!(?:is|ist|lautet|was|war)\b)[^\s.;:!?,]{1,20}+){0,6}?"
    r"(?:\s{1,8}+(?:is|ist|lautet|lautete|was|war)(?:\s{1,8}+(?:jetzt|now|nun))?(?:\s{0,4}+:)?"
    r"|['’]s(?:\s{1,8}+(?:jetzt|now|nun|still))?|\s{0,4}+:)|(?<=value)|(?<=wert))"
    r"\s{1,8}+(?P<v>[^\s\"'`<>„“”«»()\[\],;]{4,64}+)"
)
"""Anchored at the referring word itself (`one`, `value`, `Wert`, `neue`, `that`, `es`, `it`:
the article before it does not matter), so that the row's anchors are its needles."""
REFERENT_ANCHORS: Final = (
    "one", "value", "wert", "neue", "neu ", "that's", "that’s", "that is", "es ist", "es lautet",
    "es war", "it is", "it's", "it was", "es ", "it ",
)  # fmt: skip
"""Literals at which the row is tried: the referring word with what follows it, so that the
row is tried in few places (`es` and `it` without the space after them stand inside every
other word)."""
_REACH: Final = 400
CREDENTIAL_BEFORE: Final = re.compile(
    r"passw|kennw|passphrase|credential|zugangsdaten|\blog(?:ged)?[ -]?in\b|\bkey\b|token"
    r"|secret",
    re.IGNORECASE,
)
_IDENTIFIER: Final = re.compile(
    r"[\w-]+(?:\.[A-Za-z][\w-]*)+|[^@\s]+@[\w-]+(?:\.[\w-]+)+|[A-Z0-9]+(?:-[A-Z0-9]+)+"
    r"|[\w./-]*/[\w./-]*|\d{1,4}[./-]\d{1,2}[./-]\d{1,4}|[A-Za-z]+|\d+|[A-Z]+[0-9]+|0x[0-9A-Fa-f]+"
)


def referent_password(value: str, match: re.Match[str]) -> bool:
    """The value a referring word gives (`the one … is X`): a credential word before it, and a
    password's shape (see the module docstring)."""
    v = value.rstrip(".,;:!?)")
    start = match.start("key")
    if v.isdigit() and 4 <= len(v) <= 8:  # `My bank PIN changed; the new one is 7293.`
        before = match.string[max(0, start - _PIN_REACH) : start]
        counted = _NOT_COUNTED.match(match.string, match.start("v") + len(v)) is None
        if counted or _YEAR.fullmatch(v) or len(set(v)) == 1:
            return False
        return bool(_PIN_WORD.search(before))
    if len(v) < 8 or _IDENTIFIER.fullmatch(v):
        return False
    if not CREDENTIAL_BEFORE.search(match.string, max(0, start - _REACH), start):
        return False
    return password_bare(v, match) or strong_shape(v)


ANSWER: Final = (
    r"\?[«»“”\"']?[ \t]{0,8}+(?:[–—-][ \t]{0,8}+[»„\"']?|(?:\r?\n[ \t>]{0,8}+){1,3}+"
    r"(?:\[[\d:. ]{3,12}+\][ \t]{0,4}+)?(?:[A-ZÄÖÜ][\w.-]{0,20}+:[ \t]{1,4}+)?"
    r"(?:(?:ja|yes|klar|sure|hier|here)[ \t]{0,4}+[:,][ \t]{0,8}+)?)"
    r"(?P<v>[^\s\"'`<>„“”«»,]{4,64}+)(?=[«»“”\"']?(?:,|[ \t]{0,8}+(?:\r?\n|$)))"
)
"""The answer to a question that asks for a secret: a value alone on one of the three lines
after the question (`Hast du das neue Kennwort?⏎⏎Ja: X⏎Gruß`), also after a chat's time and
speaker (`[10:03] Tom: X`, `A: 7731`), or after a dash on its line
(`»welche Geheimzahl hat das Diensthandy?« – »60520, wie immer«`)."""
_QUESTION_WORD: Final = re.compile(
    r"passw|kennw|passphrase|zugangsdaten|\bpin\b|\bpwd?\b|geheimzahl"
    r"|(?:\b|zugangs|tür|tor|tresor|alarm|garagen|entsperr)code\b",
    re.IGNORECASE,
)
_PIN_WORD: Final = re.compile(r"\bpin\b|geheimzahl|code\b", re.IGNORECASE)
_PIN_REACH: Final = 160
_NOT_COUNTED: Final = re.compile(NOT_A_PIN)
"""Matches (empty) where a number counts nothing (`context.NOT_A_PIN`'s lookaheads)."""
_YEAR: Final = re.compile(r"19\d\d|20\d\d")
"""A PIN word this close before a referring word makes its 4 to 8 digits a PIN."""


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


STRONG_ANCHORS: Final = ("passw", "kennw", "passphrase")
"""The words that name a password by themselves (no weak word: `login`, `Zugang`)."""
_STRONG_WORD: Final = r"(?<![A-Za-zÄÖÜäöüß])(?:passw|kennw|passphrase)[A-Za-zÄÖÜäöüß]{0,12}+"
APPOSITION: Final = (
    _STRONG_WORD + r"(?:[^\n.!?–—()\[\]\-]|-(?=\w)){0,80}?"
    r"(?:[ \t]?[–—][ \t]?|[ \t]-[ \t]{1,4}+)(?P<v>[^\s\"'`()<>\[\]„“”«»–—]{6,64}+)"
    r"(?=[ \t]*+(?:$|\r?\n|[–—(]|[.,;!?](?:\s|$)))"
    r"|" + _STRONG_WORD + r"(?:[ \t]{1,4}+[^\s.!?()\[\]]{1,30}+){0,2}?[ \t]{0,2}+"
    r"\((?P<v2>[^\s()\[\]]{8,64}+)\)"
)
"""`… Kennwort hat mir Frau Aydin am Telefon diktiert – X`, `password—X—works`, `sein
aktuelles Kennwort mitgeschickt (X)`: the value set apart in the sentence that names it."""
COLON_TAIL: Final = (
    r"(?<=[A-Za-zÄÖÜäöüß)\]\s]):[ \t]{0,8}+(?:\r?\n[ \t]{0,16}+){0,3}+"
    r"(?P<v>[^\s\"'`<>()\[\]„“”«»:]{8,64}+)"
    r"[ \t]{0,8}+(?=\r?\n|$)"
)
"""The last word of a line after its colon, or a line's only word after a line that ends in one
(`Falls wieder jemand fragt:⏎⏎    X`): searched in a window after a password word."""
_LEADING_MARK: Final = re.compile(r"[A-Za-zÄÖÜäöüß]\d+[A-Za-zÄÖÜäöüß]")
_WORD_NUMBER: Final = re.compile(r"(?:[A-Za-z][a-z]+){1,3}[-_.]*\d{1,4}")
"""Words and a number (`Regulatory--21`, `ProjectAlpha2024`): a label's value as often as a
password."""
_STRONG_SYMBOLS: Final = frozenset("!@#$%^&*+=?~§€|")
_TAIL_REACH: Final = 300
_TAIL_LINES: Final = 4
"""At most this many line breaks between the password word and the value (`COLON_TAIL`)."""


_RANDOM_CASE: Final = 6
"""Case changes in a value that make it random-looking (`gqLXmFcLjW_dOV` has 8; a name in
camel case such as `MyCompanyName` has 2, `getUserSettingsFromCache` 4)."""


def _case_changes(value: str) -> int:
    letters = [ch.isupper() for ch in value if ch.isalpha()]
    return sum(a != b for a, b in itertools.pairwise(letters))


def strong_shape(value: str) -> bool:
    """A password's shape that words and identifiers lack: 8+ characters, and mixed case with a
    digit, a symbol with letters and digits, or digits inside letters (`st3rnschnupp3586`)."""
    v = value.rstrip(".,;:!?")
    if len(v) < 8 or _IDENTIFIER.fullmatch(v) or _WORD_NUMBER.fullmatch(v):
        return False
    upper = any(map(str.isupper, v))
    lower = any(map(str.islower, v))
    digit = any(map(str.isdigit, v))
    symbol = any(ch in _STRONG_SYMBOLS for ch in v)
    if upper and lower and (digit or symbol or _case_changes(v) >= _RANDOM_CASE):
        return True
    if (upper or lower) and digit and symbol:
        return True
    return lower and sum(map(str.isdigit, v)) >= 2 and bool(_LEADING_MARK.search(v))


def _labelled(match: re.Match[str], name: str) -> bool:
    """An identifier label stands right before the value (`Build: …`, `Ticket (…`), after the
    last password word (`im Ticket sein Kennwort mitgeschickt (X)`: the password word names X)."""
    text, start = match.string, match.start(name)
    line_start = text.rfind("\n", 0, start) + 1
    head = text[max(line_start, start - 48) : start].lower()
    if not head.strip(" \t:(") and line_start > 0:  # alone on its line: the line above
        above = text.rfind("\n", 0, max(0, line_start - 1))
        head = text[max(above + 1, line_start - 48) : line_start].lower()
    word = max(head.rfind("passw"), head.rfind("kennw"))  # the password word names it
    return bool(IDENTIFIER_LABEL.search(head[word + 1 :].rstrip()))


def apposed_password(value: str, match: re.Match[str]) -> bool:
    """The value set apart after a password word (`APPOSITION`): a strong password's shape
    and no identifier label before it."""
    name = "v" if match.start("v") >= 0 else "v2"
    return strong_shape(value) and not _labelled(match, name) and password_bare(value, match)


def colon_tail_password(value: str, match: re.Match[str]) -> bool:
    """The value after a colon at a line's end or under it (`COLON_TAIL`): a password word in
    the few lines before it, a strong password's shape, no identifier label before it."""
    text, start = match.string, match.start("v")
    head = text[max(0, start - _TAIL_REACH) : start].lower()
    word = max(head.rfind("passw"), head.rfind("kennw"))
    if word < 0 or head.count("\n", word) > _TAIL_LINES:
        return False
    if _label_before(text, match.start()):
        return False
    return strong_shape(value) and not _labelled(match, "v") and password_bare(value, match)


_GAP_BREAK: Final = re.compile(r"[.!?](?:\s|$)|\s[–—-]\s")
"""A sentence's end or a dash between a password word and a later colon: the colon's label
names another value (`Passwort steht im Tresor. Rechnungsnummer: RE2024-118833`)."""


_LABEL_NOUN: Final = re.compile(
    r"(?:host(?:name)?|server|rechner|gerät|geraet|device|modell|model|branch|benutzer(?:name)?"
    r"|user(?:name)?|account|konto|projekt|project|raum|room|standort|location|pfad|path"
    r"|ordner|folder|datei|file|archiv|archive|tag|label|team|gruppe|group|rolle|role|status"
    r"|typ|type|kategorie|category|bewertung|rating|termin|datum|date|zeit|time|kunde|customer"
    r"|fehler(?:meldung|code)?|error|meldung|hinweis|hint)\W{0,3}$"
)
"""Nouns that label the value after their colon (`Hostname: …`, `neues Gerät:⏎…`)."""


_PLACE_PREPOSITION: Final = frozenset(
    {"im", "in", "auf", "unter", "bei", "beim", "am", "at", "on", "the", "dem", "der"}
)


def _label_before(text: str, colon: int) -> bool:
    """The words right before a colon label another value: an identifier label or a noun
    such as `Hostname`, `Gerät`, `Benutzer`."""
    head = text[max(0, colon - 40) : colon].lower()
    head = head[max(head.rfind("\n"), head.rfind(","), head.rfind(". ")) + 1 :]
    if _LABEL_NOUN.search(head):
        return True
    words = head.split()
    if len(words) >= 2 and words[-2] in _PLACE_PREPOSITION:
        return False  # `steht im Ticket:`: where it is written, not an identifier's label
    return bool(IDENTIFIER_LABEL.search(head.rstrip()))


def loose_password(value: str, match: re.Match[str]) -> bool:
    """The value after a colon that follows a password word at a distance (`Passwort steht im
    Ticket: X`): only within one clause, and not after a label of another value (`…nummer:`,
    `, Branch:`)."""
    text, key_end, start = match.string, match.end("key"), match.start(value_group(match) or "v")
    mark = max(text.rfind(m, key_end, start) for m in (":", "=", "->", "→"))
    gap = text[key_end : mark if mark > key_end else start]
    if _GAP_BREAK.search(gap):
        return False
    if mark > key_end and ("," in gap or _label_before(text, mark)):
        return False
    return password_bare(value, match)
