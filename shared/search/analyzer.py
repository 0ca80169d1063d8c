"""Text analysis for the brain full-text index: one analyser for indexing and for queries.

Pipeline: NFKC + casefold (ß -> ss) -> word tokens (runs of Unicode letters/digits) -> drop
stop words and single letters -> index terms per token.

Every token yields up to two index terms, its German and its English Snowball stem, so that
German and English word forms meet without knowing the language of a text. The German stemmer
folds umlauts itself (müller / mueller / muller -> "mull"); the English stemmer leaves
diacritics alone, so the token is folded (ä -> a, é -> e, ...) before it is stemmed in English.

The same functions must be used when writing postings and when querying: changing them
changes the terms of the stored index, which then needs a rebuild.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache
from typing import Any

import snowballstemmer

__all__ = [
    "MAX_QUERY_TOKENS",
    "STOP_WORDS",
    "document_terms",
    "normalize",
    "query_terms",
    "tokenize",
    "word_forms",
]

MAX_QUERY_TOKENS = 32
"""The most query words (distinct, after stop words) that take part in a search."""

_WORD_FORMS_CACHE_SIZE = 65_536

# Runs of Unicode letters and digits: \w without the underscore. Everything else separates.
_TOKEN_RE = re.compile(r"[^\W_]+")

# Kept small on purpose: only function words that carry no meaning of their own in either
# language. Words that are function words in one language but content words in the other are
# left out (war, man, hat, bin, will, ...), and so are "it" and "us" (IT department, US).
STOP_WORDS: frozenset[str] = frozenset(
    {
        # German
        "aber", "als", "am", "an", "auch", "auf", "aus", "bei", "bis", "da", "dass", "dem",
        "den", "der", "des", "die", "dies", "diese", "dieser", "dieses", "das", "doch", "durch",
        "ein", "eine", "einem", "einen", "einer", "eines", "er", "es", "für", "fuer", "hier",
        "ich", "im", "in", "ist", "ja", "kein", "keine", "mit", "nach", "noch", "nur", "ob",
        "oder", "sich", "sie", "sind", "so", "über", "ueber", "um", "und", "vom", "von", "vor",
        "wie", "wir", "wird", "zu", "zum", "zur",
        # English
        "a", "about", "and", "are", "as", "at", "be", "been", "but", "by", "for", "from",
        "has", "have", "he", "her", "his", "if", "into", "is", "its", "of", "on", "or", "she",
        "that", "the", "their", "them", "there", "these", "they", "this", "those", "to", "was",
        "we", "were", "what", "which", "who", "with", "you",
    }
)  # fmt: skip

# ä/ö/ü fold to the bare vowel (not ae/oe/ue) so that "Müller" meets "Muller" in English too;
# all other accents are removed through NFKD below.
_FOLD_TABLE = str.maketrans({"ä": "a", "ö": "o", "ü": "u"})


def normalize(text: str) -> str:
    """Unicode NFKC, then casefold (so "ß" becomes "ss"). Nothing else."""
    return unicodedata.normalize("NFKC", text).casefold()


def tokenize(text: str) -> list[str]:
    """The normalized word tokens of `text`, in order, without stop words and single letters.

    A token is a run of Unicode letters/digits; hyphens, punctuation, slashes, underscores and
    whitespace separate tokens. A single character is kept only if it is a digit.
    """
    return [
        token
        for token in _TOKEN_RE.findall(normalize(text))
        if (len(token) > 1 or token.isdigit()) and token not in STOP_WORDS
    ]


def _fold_diacritics(token: str) -> str:
    decomposed = unicodedata.normalize("NFKD", token.translate(_FOLD_TABLE))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


# Snowball stemmer objects keep their working state on the instance, so they must not be
# shared between threads: every thread gets its own pair.
class _Stemmers(threading.local):
    def __init__(self) -> None:
        self.german: Any = snowballstemmer.stemmer("german")
        self.english: Any = snowballstemmer.stemmer("english")


_stemmers = _Stemmers()


@lru_cache(maxsize=_WORD_FORMS_CACHE_SIZE)
def word_forms(token: str) -> frozenset[str]:
    """The index terms of one token: its German stem and its (diacritic-folded) English stem.

    Expects a token as produced by `tokenize` (it is normalized again, which is idempotent).
    A pure-digit token is its own only term. The two stems are often equal, so the set
    usually has one element.
    """
    token = normalize(token)
    if not token:
        return frozenset()
    if token.isdigit():
        return frozenset({token})
    german: str = _stemmers.german.stemWord(token)
    english: str = _stemmers.english.stemWord(_fold_diacritics(token))
    return frozenset(term for term in (german, english) if term)


def document_terms(titel: str, inhalt: str, title_weight: int = 3) -> tuple[dict[str, int], int]:
    """Weighted term frequencies and weighted length of one brain entry.

    Every title token counts `title_weight` times, every text token once. A token adds its
    weight to each of its `word_forms` (once per term, even if both stems coincide). The
    length is the sum of the token weights, independent of how many terms a token has.
    """
    if title_weight < 1:
        raise ValueError(f"title_weight must be >= 1, got {title_weight}")
    frequencies: dict[str, int] = {}
    length = 0
    for text, weight in ((titel, title_weight), (inhalt, 1)):
        for token in tokenize(text):
            length += weight
            for term in word_forms(token):
                frequencies[term] = frequencies.get(term, 0) + weight
    return frequencies, length


def query_terms(query: str) -> list[frozenset[str]]:
    """One group of alternative index terms per distinct query word, in query order.

    Repeated words (and different spellings that analyse to the same group) appear once, so
    no word is counted twice. At most MAX_QUERY_TOKENS groups are kept.
    """
    groups: list[frozenset[str]] = []
    seen_tokens: set[str] = set()
    seen_groups: set[frozenset[str]] = set()
    for token in tokenize(query):
        if token in seen_tokens:
            continue
        seen_tokens.add(token)
        group = word_forms(token)
        if not group or group in seen_groups:
            continue
        seen_groups.add(group)
        groups.append(group)
        if len(groups) >= MAX_QUERY_TOKENS:
            break
    return groups
