"""The near-duplicate decision: is a new memory text one a stored memory already says?

A near-duplicate says nothing its stored twin does not: the same facts with the same values,
in other words. It is decided per pair (new text, stored text) from
- the similarity: the cosine of the two memories' vectors where both have one of the same
  profile, else the Jaccard overlap of their analysed word terms (`analyzer`, German and
  English stems), against the threshold of that measure;
- three vetoes, each of which makes the pair not a duplicate however similar it is:
  1. the values differ: the tokens with digits (dates, amounts, versions, times) and the
     e-mail addresses and `code` spans of the two texts are not the same set — an update
     ("ab 14 Uhr" after "ab 10 Uhr") changes a value and must be stored;
  2. the new text is much longer (more than `max_length_ratio` times the stored one's
     tokens): it adds a detail, and merging it into the shorter one would lose that;
  3. the new text carries a change marker the stored one does not ("jetzt", "inzwischen",
     "nicht mehr", "now", "no longer", "instead", ...): it reports a change of the fact.

Thresholds and ratio were chosen on the development half of the labelled set
(`benchmarks/data/duplicates_dev.jsonl`) and are reported on its holdout half
(`benchmarks/duplicates.py`, docs/performance.md). The rule is a pure function of the two
texts (and vectors): writes and the consolidation decide with the same rule.

The vetoes need of a text only its `DuplicateSign` (`text_sign`: term count, token count, a
digest of the value tokens, the change markers), so a stored memory's sign can ride along
with its postings (`memory_sign`, written by both adapters' posting writers, `encode_sign`)
and a write can rule stored memories out from its postings read alone
(services/duplicates.py). `vetoed` is the one definition of the vetoes; `is_duplicate` on
two texts is `vetoed` on their signs. Digests differ only where the value sets differ (a
collision could only make two different value sets look equal: a 128-bit digest).
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from shared.domain import DuplicateSign, Memory
from shared.search.analyzer import tokenize, word_forms

__all__ = [
    "CHANGE_MARKERS",
    "DuplicateRule",
    "Similarity",
    "change_markers",
    "cosine",
    "decode_sign",
    "encode_sign",
    "identifiers",
    "is_duplicate",
    "jaccard",
    "memory_sign",
    "reaches",
    "similarity",
    "term_set",
    "text_sign",
    "value_tokens",
    "vetoed",
]

# Words that report a change of a fact, German and English (analysed tokens: casefolded,
# ß -> ss). Only in the new text and not in the stored one they veto a duplicate. Not
# "statt": it is mostly the detached prefix of "stattfinden" ("findet ... statt").
CHANGE_MARKERS: Final = frozenset(
    {
        # German
        "jetzt", "nun", "inzwischen", "mittlerweile", "neuerdings", "künftig", "zukünftig",
        "sofort", "mehr", "stattdessen", "anstatt", "sondern", "korrektur",
        "korrigiert", "geändert", "verschoben", "verlegt", "umgestellt", "umgezogen",
        "gewechselt", "wechselt", "ersetzt", "revidiert", "neu", "neue", "neuer", "neues",
        "doch",
        # English
        "now", "longer", "anymore", "instead", "moved", "switched", "replaced", "replacing",
        "changed", "correction", "corrected", "updated", "renamed", "migrated", "new", "since",
    }
)  # fmt: skip

# The identifiers among the values: e-mail addresses `[\w.+-]+@[\w.-]+` and `code` spans,
# found as `re.findall` of their alternation would find them (`identifiers`), in linear time
# (the regex backtracks quadratically over a long run of word characters: 50,000 of them
# took minutes; every posting write computes the values of its memory's text).
_LOCAL_RUN: Final = re.compile(r"[\w.+-]+")
_DOMAIN_RUN: Final = re.compile(r"[\w.-]+")
_CODE_SPAN: Final = re.compile(r"`[^`]+`")


@dataclass(frozen=True)
class DuplicateRule:
    """The thresholds of the decision (Settings: `duplikat_*`)."""

    vector_threshold: float = 0.71
    word_threshold: float = 0.30
    max_length_ratio: float = 1.40


@dataclass(frozen=True)
class Similarity:
    """How alike a new text is to a stored one, and by which measure."""

    value: float
    measure: str  # "vektor" | "woerter"


def term_set(text: str) -> frozenset[str]:
    """The analysed index terms of a text (both stems of every token)."""
    return frozenset(term for token in tokenize(text) for term in word_forms(token))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """The cosine of two vectors of one dimension (0 for a zero vector)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def value_tokens(text: str) -> frozenset[str]:
    """The tokens that carry values: with a digit, e-mail addresses, `code` spans."""
    digits = {token for token in tokenize(text) if any(char.isdigit() for char in token)}
    return frozenset(digits | {match.casefold() for match in identifiers(text)})


def identifiers(text: str) -> list[str]:
    """`re.findall` of the e-mail address and code span patterns' alternation (see above),
    in linear time: leftmost matches, the address first where both start at one position,
    each scan after the last match; a match found ahead is kept until a match passes it."""
    found: list[str] = []
    at, address, code = 0, _address(text, 0), _CODE_SPAN.search(text)
    while address is not None or code is not None:
        if address is not None and (code is None or address[0] <= code.start()):
            start, end = address
        else:
            assert code is not None
            start, end = code.span()
        found.append(text[start:end])
        at = end
        if address is not None and address[0] < at:
            address = _address(text, at)
        if code is not None and code.start() < at:
            code = _CODE_SPAN.search(text, at)
    return found


def _address(text: str, at: int) -> tuple[int, int] | None:
    """The leftmost e-mail address match at or after `at`: a run of local characters (from
    `at` on) that ends at an "@" followed by domain characters."""
    for run in _LOCAL_RUN.finditer(text, at):
        end = run.end()
        if text.startswith("@", end):
            domain = _DOMAIN_RUN.match(text, end + 1)
            if domain is not None:
                return run.start(), domain.end()
    return None


def change_markers(text: str) -> frozenset[str]:
    return frozenset(token for token in tokenize(text) if token in CHANGE_MARKERS)


def similarity(
    new_text: str,
    stored_text: str,
    new_vector: Sequence[float] | None = None,
    stored_vector: Sequence[float] | None = None,
) -> Similarity:
    """Cosine where both vectors are given (same profile and dimension), else Jaccard."""
    if (
        new_vector is not None
        and stored_vector is not None
        and len(new_vector) == len(stored_vector)
    ):
        return Similarity(cosine(new_vector, stored_vector), "vektor")
    return Similarity(jaccard(term_set(new_text), term_set(stored_text)), "woerter")


def text_sign(text: str, profile: str | None = None, dim: int | None = None) -> DuplicateSign:
    """What the vetoes (and the Jaccard's denominator) need of a text."""
    values = "\x1f".join(sorted(value_tokens(text))).encode()
    digest = base64.b32encode(hashlib.blake2b(values, digest_size=16).digest()).decode()
    return DuplicateSign(
        terms=len(term_set(text)),
        tokens=len(tokenize(text)),
        values=digest.rstrip("="),
        markers=change_markers(text),
        profile=profile,
        dim=dim,
    )


def memory_sign(memory: Memory) -> DuplicateSign:
    """The sign of a stored memory: of its text, with its vector's profile and dimension."""
    return text_sign(memory.memory, memory.embedding_profil_hash, memory.embedding_dim)


def encode_sign(sign: DuplicateSign) -> str:
    """A sign as one compact JSON string (a posting attribute or column)."""
    fields = {"n": sign.terms, "l": sign.tokens, "v": sign.values, "m": sorted(sign.markers)}
    if sign.profile is not None:
        fields |= {"p": sign.profile, "d": sign.dim}
    return json.dumps(fields, separators=(",", ":"), ensure_ascii=False)


def decode_sign(raw: str | None) -> DuplicateSign | None:
    """`encode_sign`'s inverse; None for a posting written without a sign."""
    if not raw:
        return None
    fields = json.loads(raw)
    return DuplicateSign(
        terms=int(fields["n"]),
        tokens=int(fields["l"]),
        values=str(fields["v"]),
        markers=frozenset(fields["m"]),
        profile=fields.get("p"),
        dim=None if fields.get("d") is None else int(fields["d"]),
    )


def vetoed(new: DuplicateSign, stored: DuplicateSign, rule: DuplicateRule) -> bool:
    """Whether one of the three vetoes (see the module doc) makes the pair not a duplicate."""
    if new.values != stored.values:
        return True
    if new.tokens > rule.max_length_ratio * max(stored.tokens, 1):
        return True
    return bool(new.markers - stored.markers)


def reaches(alike: Similarity, rule: DuplicateRule) -> bool:
    """Whether the similarity reaches the threshold of its measure."""
    threshold = rule.vector_threshold if alike.measure == "vektor" else rule.word_threshold
    return alike.value >= threshold


def is_duplicate(
    new_text: str, stored_text: str, alike: Similarity, rule: DuplicateRule = DuplicateRule()
) -> bool:
    """Whether `new_text` is a near-duplicate of `stored_text` (see the module doc)."""
    return reaches(alike, rule) and not vetoed(text_sign(new_text), text_sign(stored_text), rule)
