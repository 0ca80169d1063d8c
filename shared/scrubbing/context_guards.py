"""What makes a context-tier candidate a value at all, before the model sees it.

The model scores candidates by their features and learns from the styles it was shown; these
checks are about grammar and identifier shapes, which hold in any style:

- **Assignment.** A credential word names the value it is *given*: the token right after it
  (`PIN 4711`, `Passwort: x`), or a value after an assignment mark within the same clause
  (`:`, `=`, a copula `ist/is/lautet/sei/was`, `->`, a dash, `to`/`auf` as in "set to") with
  only a qualifier between the word and the mark (`Passwort für den Router ist x`, `API-Token
  (Partnerportal) x`) and at most an adverb between the mark and the value (`ist immer noch
  x`). A value merely near the word (`hard-code, see OPS-3062`), behind a clause break
  (`Token ist abgelaufen, deshalb … – neuer`) or before it is not named by it.
- **Weak words** (`login`, `access`, `Zugang`, `seed`, `credentials`, …) name a username, a
  place or a topic as often as a secret: they need an explicit mark, never bare adjacency,
  and a value that is not a plain word.
- **Identifier shapes are never values**: a phone number (`+49 154 3668229`, `0171
  1290612`), an OpenPGP fingerprint (ten groups of four hex digits), a token that is itself a
  key (`aws_access_key_id =`, `Status:`), a path (`/home/x/projects`), an OpenPGP key ID
  (`3AA5C34371567BD2`), colon-separated name segments (`tenant:17:cache`) or a setting
  (`example.io/skip-reconcile=true`), several words of which one is a credential word
  (`neuer Token folgt`), two words of equal length (`client script`: a run of letter groups
  is an app password only from three groups on).
- **A sentence is not a value**: a plain word right after the credential word, with the
  sentence going on in function words (`Token folgt per …`, `Passwort geändert am …`).

Pure functions of the tokens; each looks at a bounded number of neighbours.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, Protocol

from shared.scrubbing.context_lexicon import (
    ARTICLE,
    CLOSERS,
    COPULA,
    FUNCTION,
    OPENERS,
    PREPOSITION,
    lexicon_class,
)

__all__ = [
    "PATH",
    "WEAK",
    "assigned",
    "given",
    "identifier_shape",
    "named_before",
    "sentence_goes_on",
]


class Token(Protocol):
    """What the guards read of a token (the tier's `_Tok`)."""

    @property
    def raw(self) -> str: ...
    @property
    def word(self) -> str: ...
    @property
    def low(self) -> str: ...


WEAK: Final = frozenset(
    {
        "login", "access", "zugang", "seed", "seeds", "credentials", "credential",
        "zugangsdaten", "anmeldedaten", "logindaten", "phrase", "losung", "secrets",
        "geheimnis", "kombination", "combination", "2fa", "mfa",
    }
)  # fmt: skip
"""Credential words that need an explicit mark (`:`, `=`, a copula) before their value."""
SET_TO: Final = frozenset({"to", "auf", "zu", "into", "->", "→", "=>"})
"""`changed the password to x`, `PIN auf 2381 gesetzt`: the value a word is set to."""
ADVERBS: Final = frozenset(
    {
        "jetzt", "nun", "now", "still", "noch", "immer", "weiterhin", "wieder", "again",
        "currently", "aktuell", "derzeit", "neu", "new", "also", "auch", "wohl",
        "simply", "einfach", "just", "nur", "unverändert", "unchanged", "vorerst",
        "übergangsweise", "temporarily", "vorläufig",
    }
)  # fmt: skip
RELATIVE: Final = frozenset(
    {"das", "die", "der", "den", "dem", "welches", "welche", "welcher", "which", "that", "who",
     "wie", "as"}
)  # fmt: skip
_PHONE_PREFIX: Final = re.compile(r"\+\d{1,3}|\(?\+?\d{1,3}\)|\(?0\d{2,5}\)?")
PATH: Final = re.compile(
    r"(?:~?/|[A-Za-z]:\\)[\w.-]+(?:[/\\][\w.-]+)+[/\\]?|HKEY_\w+(?:\\[\w .-]+)+"
)
_KEY_ID: Final = re.compile(r"(?:0x)?(?=[0-9A-F]{0,15}[A-F])[0-9A-F]{16}|0x[0-9A-Fa-f]{8}")
"""An OpenPGP key ID (`3AA5C34371567BD2`, `0xA1B2C3D4`): printed upper-case, public."""
_SEGMENTED: Final = re.compile(r"[a-z][\w-]*(?::[\w-]+){2,}")
"""`user:42:profile`: a cache key or URN, colon-separated name segments."""
_PAIR: Final = re.compile(
    r"[a-z][a-z0-9]*[./_-][a-z0-9./_-]*=[^=\s]+|(?P<key>[A-Za-z_][A-Za-z_.-]{2,})=\S+"
)
"""`skip-reconcile=true`, `user=h.hoffmann6`: a setting of its own (unless its key is a
credential word), not the value of the word before it."""
_LOGIN_NAME: Final = re.compile(r"[a-z]{1,20}[._-][a-z]{2,30}\d{0,4}|[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
"""`m.okafor7`, `jana_k`, `anna@example.org`: the form of a login name."""
_HEX4: Final = re.compile(r"[0-9A-Fa-f]{4}")
_FINGERPRINT_GROUPS: Final = 8


def _mark(tok: Token) -> bool:
    raw = tok.raw
    return raw.endswith((":", "=")) or tok.low in COPULA or raw in SET_TO or tok.low in SET_TO


def _clause_break(tok: Token) -> bool:
    return tok.raw.rstrip(CLOSERS.replace(",", "").replace(";", "")).endswith((",", ";"))


def assigned(toks: Sequence[Token], i: int, j: int, word: str, colon: bool) -> bool:
    """The credential word at token i is given the value that starts at token j (> i)."""
    weak = word in WEAK
    if weak and (toks[j].word.isalpha() or _LOGIN_NAME.fullmatch(toks[j].word)):
        return False  # `Zugang ist freigeschaltet`, `Login: anna.k`: words and login names
    if j == i + 1:
        return colon or not weak
    between = toks[i + 1 : j]
    depth, marks = 0, []
    relative = _clause_break(toks[i]) and between[0].low in RELATIVE
    for k, t in enumerate(between):
        depth += t.raw.count("(") - t.raw.count(")")
        if depth <= 0 and _mark(t):
            marks.append(k)
        if depth <= 0 and _clause_break(t) and k < len(between) - 1:
            # the clause that gave the word its value ended (`Token ist abgelaufen, deshalb …
            # – neuer`, `token: "<X>", region: eu-1`); only a relative clause before the
            # mark is a qualifier (`Das Passwort, das ich dir gab, lautet x`)
            if marks or colon or not relative:
                return False
            relative = False
    if not marks:
        # only a parenthesis between: `API-Token (Partnerportal) 91bd…`
        return (not weak) and between[0].raw.startswith("(") and between[-1].raw.endswith(")")
    return all(t.low in ADVERBS for t in between[marks[-1] + 1 :])


def identifier_shape(toks: Sequence[Token], j: int, end: int) -> bool:
    """Tokens j..end-1 are (part of) a phone number or a fingerprint, or the token is itself a
    key (`aws_access_key_id =`, `Status:`)."""
    tok = toks[j]
    nxt = toks[end] if end < len(toks) else None
    if (tok.raw.endswith(":") and len(tok.raw) > 1) or (
        nxt is not None and nxt.raw.startswith("=")
    ):
        return True
    if PATH.fullmatch(tok.word) or _KEY_ID.fullmatch(tok.word) or _SEGMENTED.fullmatch(tok.word):
        return True  # `pwd: /home/root/projects/x`, a key ID, `user:42:profile`
    pair = _PAIR.fullmatch(tok.word)
    if pair and (pair.group("key") is None or lexicon_class(pair.group("key").lower()) is None):
        return True  # `argocd.argoproj.io/skip-reconcile=true`, `user=x`: a setting of its own
    words = [t.word for t in toks[j:end]]
    if len(words) > 1 and any(lexicon_class(w.lower()) for w in words):
        return True  # `neuer Token folgt`: a phrase about the credential
    if len(words) == 2 and all(w.isalpha() for w in words):
        return True
    if tok.word.startswith("+") and sum(c.isdigit() for c in tok.word) >= 8:
        return True
    if tok.word.isdigit():
        lo = j
        while lo > 0 and toks[lo - 1].word.isdigit() and j - lo < 3:
            lo -= 1
        if lo > 0 and _PHONE_PREFIX.fullmatch(toks[lo - 1].word.strip(",;")):
            return True  # `+49 154 3668229`
        if _PHONE_PREFIX.fullmatch(toks[lo].raw) and lo < j:
            return True  # `0171 1290612`: the second group of a number
        if nxt is not None and _PHONE_PREFIX.fullmatch(tok.raw) and nxt.word.isdigit():
            return len(nxt.word) >= 5 and len(tok.word) >= 4
    if _HEX4.fullmatch(tok.word):
        lo = hi = j
        while lo > 0 and _HEX4.fullmatch(toks[lo - 1].word):
            lo -= 1
        while hi + 1 < len(toks) and _HEX4.fullmatch(toks[hi + 1].word):
            hi += 1
        return hi - lo + 1 >= _FINGERPRINT_GROUPS  # an OpenPGP fingerprint
    return False


def sentence_goes_on(toks: Sequence[Token], i: int, j: int, end: int, colon: bool) -> bool:
    """A plain word right after the credential word, and the sentence goes on in function
    words: `Token folgt per Passwortmanager`, `Passwort geändert am 3.3.`."""
    if colon or j != i + 1 or end != j + 1:
        return False
    word = toks[j].word
    if not word.isalpha() or not (word.islower() or word.istitle()):
        return False
    if toks[j].raw != word and not toks[j].raw.startswith(OPENERS):
        return False  # `Passwort sonnenblume.`: ends there
    if end >= len(toks):
        return False
    low = toks[end].low.strip(OPENERS + CLOSERS)
    return low in FUNCTION or low in PREPOSITION or low in ARTICLE


def given(toks: Sequence[Token], i: int, j: int, stop: int, word: str, colon: bool) -> bool:
    """The word at token i is given the value at tokens j..stop-1, and it is a value."""
    return (
        assigned(toks, i, j, word, colon)
        and not identifier_shape(toks, j, stop)
        and not sentence_goes_on(toks, i, j, stop, colon)
    )


_REVERSE_COPULA: Final = frozenset({"is", "ist", "lautet", "as", "als", "="})
_POSSESSIVE: Final = frozenset(
    {"your", "dein", "deine", "ihr", "ihre", "euer", "eure", "the", "der", "die", "das"}
)  # fmt: skip
_MAX_REVERSE: Final = 4
_ENTER: Final = frozenset({"use", "enter", "type", "nutze", "verwende", "gib", "bitte", "please"})


def named_before(toks: Sequence[Token], i: int) -> int | None:
    """The one value a credential word names *before* it, as one-time-code messages put it:
    `771204 is your code`, `583920 ist dein Bestätigungscode`, `use 882910 as your login
    code` - the value with a digit starts its sentence (or follows `use`/`enter`), a copula
    right after it, then a possessive or article and at most two more words before the word.
    None otherwise."""
    for k in range(i - 2, max(-1, i - 2 - _MAX_REVERSE), -1):
        if toks[k + 1].low not in _REVERSE_COPULA:
            continue
        value, rest = toks[k], toks[k + 2 : i]
        if toks[k + 1].raw != toks[k + 1].word or value.raw != value.word.rstrip(":"):
            return None  # `…, is your code`: a clause break between
        if not any(c.isdigit() for c in value.word) or not rest or rest[0].low not in _POSSESSIVE:
            return None
        if (
            k > 0
            and not toks[k - 1].raw.endswith((".", "!", "?", ":"))
            and (toks[k - 1].low not in _ENTER)
        ):
            return None  # `Room 2040 is your key …`: the number belongs to a noun
        return k if len(rest) <= 3 and not identifier_shape(toks, k, k + 1) else None
    return None
