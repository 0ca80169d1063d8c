"""The learned scorer: boosted trees over generic features of candidate values.

Candidates are the whitespace-delimited tokens of a text, cut at `;`, `,`, `&` and at the
first `=`/`:` of a `key=value` token (never at `://`), stripped of quotes and brackets, at
least `_MIN_LEN` characters long. A token is looked at only if it is not a plain word, or if a
credential word of the lexicon stands on its line, in the line before it, or in its table
column's header (a plain word far from any cue is never a secret; this keeps the scan cheap).

Features are generic, none names a corpus, template, brand or person (`features`):
* shape: `value_shape.shape` (length, character classes, digit share, entropy, date/version/
  amount/hex/URL/e-mail/path/ticket/UUID forms) plus class transitions, the longest digit run,
  public key forms, placeholders, stop words and reference marks (`${X}`, `<x>`, `op://`);
* context: the nearest credential word before the value on its line (its lexicon class and
  distance in tokens), one after it, one in the line before, the key of a `key=value` token,
  what stands right before the value (`=`, `:`, a copula, an identifier label), quoting,
  code fences, URL user info, a table column whose header is a credential word, negation or
  reference words on the line (`nicht`, `siehe`, `not`, `see`).
Every shape feature is also crossed with whether a cue is near (`C|`) or not (`N|`), so that
the model can weigh a shape differently in a credential context and bare.

The model is a small gradient-boosted tree ensemble (150 trees of depth 4 over the binary
features), plain data in `scorer_weights.py`, trained offline with numpy by
`benchmarks/scrub_loco.py --write` and estimated there leave-one-corpus-out; inference is pure
Python (set lookups, one `exp`). Pure functions, linear in the text's length.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Final, NamedTuple

from shared.scrubbing.checks import STOPWORDS, is_placeholder
from shared.scrubbing.context_lexicon import COPULA, KIND, word_class
from shared.scrubbing.value_forms import public_form
from shared.scrubbing.value_shape import shape

__all__ = ["Candidate", "Trees", "candidates", "find", "score"]

_MIN_LEN: Final = 3
_MAX_LEN: Final = 512
_WINDOW: Final = 8
"""Tokens before a value on its line in which a credential word counts as its cue."""
_TOKEN: Final = re.compile(r"\S+")
_PARTS: Final = re.compile(r"[^;,&]+")
_KV: Final = re.compile(r"(?<!:)(?<!/)(=|:)(?!//)")
_STRIP: Final = "\"'`„“”‚‘’«»()[]{}<>.,;:!?*"
_CLOSE: Final = "\"'`“”‘’»)]}>.,;:"
_PLAIN: Final = re.compile(r"[A-Za-zÄÖÜäöüß][a-zäöüß]*")
_FORMS: Final = {
    name: re.compile(pattern)
    for name, pattern in (
        (
            "uuid",
            r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}",
        ),
        ("hexrun", r"[0-9a-f]+|[0-9A-F]+"),
        ("b64", r"[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9_-]{16,}"),
        ("digits", r"\d+"),
        ("group", r"[A-Za-z0-9]{2,6}"),
        ("reference", r"\$\{|\{\{|%\(|op://|vault:|^<.*>$|^\*{3,}|^x{4,}$|^•{3,}|\[ENTFERNT:"),
    )
}
"""Value forms by name: a UUID (dashes optional), a hex run, base64, digit runs, a short
group of a run, a reference or placeholder mark."""
_GROUP: Final = _FORMS["group"]
_ID_LABEL: Final = re.compile(
    r"(?:^|[-_])(?:id|ids|nr|no|nummer|number|hash|sha|sha256|md5|digest|commit|uuid|guid|ticket"
    r"|order|bestellung|rechnung|invoice|kunde|customer|trace|request|serial|version|build|ref)$"
)
_NEGATION: Final = frozenset(
    {"nicht", "not", "kein", "keine", "keinen", "no", "never", "niemals", "nie", "siehe", "see"}
)
_REFERENCE_WORDS: Final = frozenset(
    {"placeholder", "platzhalter", "beispiel", "example", "dummy", "redacted", "geschwärzt"}
)


class Candidate(NamedTuple):
    start: int
    end: int
    value: str
    kind: str
    features: tuple[str, ...]


def _cue(word: str) -> str | None:
    """The lexicon class of a token as written (None: no credential word)."""
    word = word.strip(_STRIP)
    if len(word) < 2 or len(word) > 40:
        return None
    found = word_class(word)
    return found[0] if found else None


def _transitions(value: str) -> int:
    last, count = "", 0
    for c in value:
        k = "d" if c.isdigit() else "l" if c.islower() else "u" if c.isupper() else "s"
        if k != last:
            count += 1
            last = k
    return count


def _bucket(n: int, edges: Sequence[int]) -> str:
    for e in edges:
        if n <= e:
            return str(e)
    return "big"


def shape_features(value: str) -> list[str]:
    """Shape of a value alone (generic forms, no context)."""
    out = shape(value)
    out.append("tr=" + _bucket(_transitions(value), (1, 2, 3, 5, 8)))
    run = max((len(m) for m in _FORMS["digits"].findall(value)), default=0)
    out.append("drun=" + _bucket(run, (0, 2, 3, 4, 6, 8, 12)))
    low = value.lower()
    if _FORMS["uuid"].fullmatch(value):
        out.append("uuidlike")
    if _FORMS["hexrun"].fullmatch(value) and len(value) >= 7:
        out.append("hexrun=" + _bucket(len(value), (12, 32, 40, 64)))
    if _FORMS["b64"].fullmatch(value):
        out.append("b64")
    if public_form(value):
        out.append("public")
    if low.startswith("data:") or value.startswith(("iVBOR", "/9j/", "R0lGOD")):
        out.append("image")
    if is_placeholder(value) or _FORMS["reference"].search(value):
        out.append("reference")
    if low in STOPWORDS:
        out.append("stopword")
    if _PLAIN.fullmatch(value):
        out.append("plain")
    if value[:1].isupper() and value[1:].islower():
        out.append("title")
    return out


def _spans(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, value, key) of each candidate piece of each token in text order."""
    out = []
    for m in _TOKEN.finditer(text):
        tok, base = m.group(), m.start()
        for p in _PARTS.finditer(tok):
            piece, ps = p.group(), base + p.start()
            key = ""
            kv = _KV.search(piece)
            if kv and kv.start() > 0 and kv.end() < len(piece):
                key, piece, ps = piece[: kv.start()], piece[kv.end() :], ps + kv.end()
            lead = len(piece) - len(piece.lstrip(_STRIP))
            value = piece[lead:].rstrip(_CLOSE)
            if value[-1:] in "!?" and _PLAIN.fullmatch(value.rstrip("!?")):
                value = value.rstrip("!?")  # a sentence mark after a word, not `Sommer2024!`
            if _MIN_LEN - 1 <= len(value) <= _MAX_LEN:
                out.append((ps + lead, ps + lead + len(value), value, key))
    return _runs(text, out)


def _runs(text: str, pieces: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str, str]]:
    """Pieces with each run of equal short groups (`4556 7375 8689 9855`, `abcd efgh`) joined
    into one candidate (its value keeps the spaces); single pieces shorter than `_MIN_LEN` go."""
    out: list[tuple[int, int, str, str]] = []
    i = 0
    while i < len(pieces):
        s, e, value, key = pieces[i]
        j = i + 1
        if not key and _GROUP.fullmatch(value):
            digit = value.isdigit()
            while j < len(pieces):
                s2, _e2, v2, k2 = pieces[j]
                gap = text[pieces[j - 1][1] : s2]
                if k2 or len(v2) != len(value) or v2.isdigit() != digit or len(gap) > 3:
                    break
                if not _GROUP.fullmatch(v2) or gap.strip(" -·") or "\n" in gap:
                    break
                j += 1
        if j - i > 1:
            end = pieces[j - 1][1]
            out.append((s, end, text[s:end], ""))
        elif len(value) >= _MIN_LEN:
            out.append((s, e, value, key))
        i = j
    return out


def candidates(text: str) -> list[Candidate]:
    """The scorer's candidates of one text (the detection view), with their features."""
    out: list[Candidate] = []
    fence = False
    pos = 0
    header: list[str | None] = []
    prev_cue: str | None = None
    prev_d = 0
    for line in text.split("\n"):
        start, pos = pos, pos + len(line) + 1
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = not fence
            prev_cue = None
            continue
        toks = _spans(line)
        words = [m.group() for m in _TOKEN.finditer(line)]
        cues = [_cue(w) for w in words]
        word_starts = [m.start() for m in _TOKEN.finditer(line)]
        cells = (
            [c.strip() for c in re.split(r"\s*[|;\t]\s*", stripped)]
            if "|" in line or "\t" in line or ";" in line
            else []
        )
        if cells and not header:
            header = [_cue(c) for c in cells]
        line_cue = any(cues)
        lows = {w.lower().strip(_STRIP) for w in words}
        negated = bool(lows & _NEGATION)
        referenced = bool(lows & _REFERENCE_WORDS)
        near = line_cue or prev_cue is not None or any(header)
        for s, e, value, key in toks:
            plain = bool(_PLAIN.fullmatch(value)) and not key
            if plain and not near:
                continue
            wi = 0
            while wi + 1 < len(word_starts) and word_starts[wi + 1] <= s:
                wi += 1
            feats: list[str] = []
            cue_before = None
            for d in range(1, _WINDOW + 1):
                j = wi - d
                if j < 0:
                    break
                if cues[j]:
                    cue_before = cues[j]
                    feats.append(f"cue={cues[j]}")
                    feats.append(f"cue_d={min(d, 5)}")
                    break
            key_cue = _cue(key) if key else None
            if key:
                feats.append(f"kv={key_cue or 'other'}")
                if _ID_LABEL.search(key.lower().strip(_STRIP)):
                    feats.append("kv_id")
            after = next((cues[j] for j in range(wi + 1, min(len(cues), wi + 4)) if cues[j]), None)
            if after:
                feats.append(f"cue_after={after}")
            if prev_cue:
                feats.append(f"prev_line={prev_cue}")
                feats.append(f"prev_d={min(prev_d, 3)}")
                if len(words) <= 2:
                    feats.append("prev_line_alone")
            if cells and header and len(header) == len(cells):
                col = next((i for i, c in enumerate(cells) if value in c), -1)
                if col >= 0 and header[col]:
                    feats.append(f"col={header[col]}")
            sep = "none"
            if wi > 0:
                prior = words[wi - 1]
                plow = prior.lower().strip(_STRIP)
                if prior.endswith((":", "=")):
                    sep = "colon"
                elif plow in COPULA:
                    sep = "copula"
                feats.append(f"sep={sep}")
                if _ID_LABEL.search(plow):
                    feats.append("id_label")
            raw = words[wi] if wi < len(words) else ""
            if raw[:1] in "\"'`„“«":
                feats.append("quoted")
            if "://" in raw and "@" in raw:
                feats.append("userinfo")
            if fence:
                feats.append("fence")
            if negated:
                feats.append("negated")
            if referenced:
                feats.append("ref_word")
            if line_cue:
                feats.append("line_cue")
            ctx = "C|" if (cue_before or key_cue or prev_cue or after) else "N|"
            shp = shape_features(value)
            feats.extend(shp)
            feats.extend(ctx + f for f in shp)
            if cue_before and not key:
                feats.extend(f"{cue_before}|{f}" for f in shp[:3])
                feats.append(f"{cue_before}|sep={sep}|{feats[1]}")
            if " " in value:
                feats.append("run=" + _bucket(value.count(" ") + 1, (2, 3, 4, 6, 8)))
            if key_cue:
                feats.extend(f"kv{key_cue}|{f}" for f in shp[:3])
            cls = cue_before or key_cue or prev_cue or "key"
            out.append(
                Candidate(
                    start + s, start + e, value, KIND.get(cls, "generic_secret"), tuple(feats)
                )
            )
        here = next((c for c in reversed(cues) if c), None)
        if here and (stripped.endswith(":") or len(words) <= 3):
            prev_cue, prev_d = here, 1  # a credential word ends its line: the next lines
        elif prev_cue and stripped and len(words) <= 3 and not here:
            prev_d += 1  # a list of short values under it goes on
        else:
            prev_cue = None
    return out


Trees = tuple[float, Sequence[str], Sequence[tuple[Sequence[int], Sequence[float]]]]
"""A boosted tree ensemble: base log-odds, the feature names its splits test, and per tree
the split of each inner node (heap order, an index into the names; -1: no split, go left)
and the leaf values; a present feature goes right."""


def score(features: Sequence[str], model: Trees) -> float:
    """Probability that the candidate is a secret."""
    base, names, trees = model
    present = set(features)
    z = base
    for splits, leaves in trees:
        i = 0
        for d in range(len(leaves).bit_length() - 1):
            j = splits[(1 << d) - 1 + i]
            i = 2 * i + (1 if j >= 0 and names[j] in present else 0)
        z += leaves[i]
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def find(
    text: str,
    covered: Sequence[tuple[int, int]],
    model: Trees,
    threshold: float,
) -> list[tuple[int, int, str]]:
    """(start, end, kind) of each candidate scoring above `threshold` outside `covered`."""
    found = []
    for c in candidates(text):
        if any(a < c.end and c.start < b for a, b in covered):
            continue
        if score(c.features, model) > threshold:
            found.append((c.start, c.end, c.kind))
    return found
