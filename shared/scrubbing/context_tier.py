"""The context tier: a value a credential word names is a secret, whatever its shape.

The pattern table finds what has a shape (provider prefixes, keys, URLs); what has none - an
SMS code, a PIN read out digit by digit, a Wi-Fi `psk=`, four groups of an app password - is
known only by the word that names it. This tier runs after the table, on what it left:

1. Lexicon: a token is a credential word if it (or the last part of a `-`/`_` compound, or a
   German compound ending in a long stem, or a camel-case compound: `chipTAN`) is in
   `LEXICON` (de/en: Passwort, Kennwort,
   password, passphrase, PIN, PUK, TAN, OTP, Code and its compounds, Kombination, Schlüssel,
   key, psk, secret, token, ...), minus the code compounds that name content (`NOT_SECRET`:
   Quellcode, Barcode, Fehlercode, Buchungscode, ...).
2. Candidates: on the same line and within the sentence, the next `_AFTER` tokens after it
   that it is *assigned* (`context_guards`: right after the word, or after `:`/`=`/a copula
   in the same clause; never a value before the word or merely near it; identifier shapes
   and sentences are no values); the value of a `key=value` or `key: value` token whose
   key is a credential word; a run of equal short groups (`4 7 1 9`, `abcd efgh ijkl
   mnop`, also over list marks: `4676 7902 · 3122 9424`) counts as one candidate; tokens in
   parentheses are no distance (`PIN der Karte (IBAN …) ist x`); a word ending its line
   names the next line if that is one value (`_next_line`); the cells under a header cell
   that is a credential word, in a CSV/TSV export or in columns aligned by runs of spaces
   (`_columns`). References and placeholders
   (`var.x`, `${X}`, `{{ x }}`, `lookup(`, `op://`, `--flag`, `****`, `<x>`) and function
   words are never candidates; a scan stops at a comment mark or a pipe (`# rev <sha>`,
   `.password | b64enc`; a table row's cell borders are no pipes). A word followed by a
   type (`api_key: str = Field(…)`, `Password string`) is declared, not given: no candidates.
3. Score: a logistic model over generic features - the lexicon class, distance, side, what
   stands between (colon, `=`, copula, article, preposition, other words), the value's shape
   (`value_shape`: length, character classes, digit share, entropy, date/version/URL/e-mail
   forms) and a unit word after it (`4 Stellen`, `10 minutes`). Its weights are plain data
   (`context_weights.py`, trained offline by `benchmarks/scrub_context_train.py` on the
   labelled corpora, estimated leave-one-generator-out). A candidate scoring above the
   threshold is removed.

Linear: one pass over the tokens of the lines that hold a lexicon stem; a bounded number of
candidates per credential word, each scored by a fixed number of dict lookups. Pure functions.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Final, NamedTuple

from shared.scrubbing.bare_checks import IDENTIFIER_LABEL
from shared.scrubbing.checks import MARKER_PREFIX, STOPWORDS, decodes_to_prose, is_placeholder
from shared.scrubbing.context_guards import PATH, WEAK, given, named_before
from shared.scrubbing.context_lexicon import (
    ARTICLE,
    CLOSERS,
    COPULA,
    FUNCTION,
    GENERIC_HEADERS,
    KIND,
    NAME_LABELS,
    NEEDLES,
    NOT_VALUE,
    OPENERS,
    PREPOSITION,
    TOOLS,
    UNITS,
    guarded,
    guarded_key,
    lexicon_class,
    word_class,
)
from shared.scrubbing.value_forms import filler
from shared.scrubbing.value_shape import DATE, DECLARED_TYPE, TIME, VERSION
from shared.scrubbing.value_shape import shape as value_shape

__all__ = ["Candidate", "Model", "candidates", "find", "lexicon_class", "score"]

_AFTER: Final = 8
_MAX_VALUE: Final = 200
_MAX_GROUPS: Final = 16
_MAX_ASIDE: Final = 16
_LIST_MARKS: Final = frozenset({"·", "•", "|", "/", "–", "-"})
"""Tokens in parentheses between a credential word and its value that do not count as distance
(`PIN seiner Girocard (IBAN DE61 3594 …) ist 4221`)."""
_MAX_WORDS: Final = 400
"""Credential words with candidates looked at per text (in a text stuffed with them, the
rest is not scanned; the table's own caps remove such a text's tail already)."""

_REFERENCE: Final = re.compile(
    r"\$\{|\{\{|\{%|%\(|\blookup\(|\bvar\.|\blocal\.|\bdata\.|\bmodule\.|\bsecrets\.|op://"
    r"|vault:|\bENV\[|\bos\.environ|\bgetenv|\[ENTFERNT:|^<.*>$|^\*{3,}|^x{4,}$|^•{3,}|^#{3,}"
    r"|^\.{3,}|^…|^-",
    re.IGNORECASE,
)
_TOKEN: Final = re.compile(r"\S+")
_GROUP: Final = re.compile(r"[A-Za-z0-9]{1,6}")
_SPLIT: Final = re.compile(r"(?<!:)(?<!/)(=|:)(?!//)")
_YEAR: Final = re.compile(r"(19|20)\d\d")
_EXTENDS: Final = "extends"
_UNCHECKED: Final = "unchecked"
_REVERSE: Final = "reverse"
_ACCEPTED: Final = frozenset({_EXTENDS, _UNCHECKED, _REVERSE})
_QUERY_REST: Final = re.compile(r"&[A-Za-z_][\w.-]*=.*$")
"""`token=abc&page=2`: what follows `&name=` is the next query parameter."""
_PIPES, _COMMENTS = frozenset({"|", "||", "|-", "|>"}), frozenset({"#", "--", "//"})
_NEEDLE: Final = re.compile("|".join(map(re.escape, NEEDLES)))
"""The compiled pre-filter: texts, lines and tokens without a needle start no scan."""


class Candidate(NamedTuple):
    anchor: int  # offset of the credential word (of the cell, for a column)
    start: int
    end: int
    value: str
    lexclass: str
    lexword: str
    features: tuple[str, ...]


class _Tok(NamedTuple):
    start: int
    end: int
    raw: str
    word: str  # stripped of quotes and punctuation
    low: str
    ends_sentence: bool


def _tokens(text: str, start: int, end: int) -> list[_Tok]:
    out = []
    for m in _TOKEN.finditer(text, start, end):
        raw, s = m.group(), m.start()
        lead = len(raw) - len(raw.lstrip(OPENERS))
        word = raw[lead:].rstrip(CLOSERS)
        ends = raw.rstrip("\"'”’»)]}").endswith((".", "!", "?", ";"))
        ends = ends and not VERSION.fullmatch(word)
        out.append(_Tok(s + lead, s + lead + len(word), raw, word, word.lower(), ends))
    return out


def _between(toks: Sequence[_Tok]) -> list[str]:
    feats, other = [], 0
    for t in toks:
        low = t.low
        if low in COPULA or t.raw in ("=", ":", "-", "–"):
            feats.append("btw=copula")
        elif low in ARTICLE:
            feats.append("btw=article")
        elif low in PREPOSITION:
            feats.append("btw=prep")
        else:
            other += 1
        if t.raw.endswith(":") or t.raw == ":":
            feats.append("btw=colon")
        elif t.raw.endswith((",", ")", ";")):
            feats.append("btw=comma")
    feats.append(f"btw_other={min(other, 3)}")
    return feats


def _labelled(tok: _Tok) -> bool:
    """The token before a candidate names it something else: an identifier (`request`,
    `Server-ID`, `Container`; the scrubber's one list) or an account or host."""
    low = tok.low.strip(OPENERS + CLOSERS)
    return low in NAME_LABELS or bool(IDENTIFIER_LABEL.search(low))


def _role(tok: _Tok, is_lexicon: bool) -> str:
    """What the token right before a candidate is: the credential word, a colon, ..."""
    if is_lexicon:
        return "lex"
    if tok.raw.endswith(":") or tok.raw in ("=", ":"):
        return "colon"
    low = tok.low
    if low in COPULA:
        return "copula"
    if low in ARTICLE:
        return "article"
    if low in PREPOSITION:
        return "prep"
    return "other"


def _char_kind(word: str) -> str:
    return "d" if word.isdigit() else "l" if word.isalpha() else "m"


def _group_end(toks: Sequence[_Tok], i: int) -> int:
    """The end (exclusive) of a run of equal short groups starting at token i, or i."""
    first = toks[i]
    j, size = i, len(first.word)
    single = size == 1 and first.word.isdigit()
    kind = _char_kind(first.word)
    while j < len(toks):
        t = toks[j]
        if not _GROUP.fullmatch(t.word) or _char_kind(t.word) != kind:
            break
        if single and not (len(t.word) == 1 and t.word.isdigit()):
            break
        if not single and len(t.word) != size:
            break
        if t.low in FUNCTION:
            break
        j += 1
        if t.raw != t.word or j - i >= _MAX_GROUPS:  # punctuation after it ends the run
            break
        if j + 1 < len(toks) and toks[j].raw in _LIST_MARKS and toks[j + 1].raw[:1].isalnum():
            j += 1  # `4676 7902 · 3122 9424`: a list of codes goes on after its mark
    while j > i and toks[j - 1].raw in _LIST_MARKS:
        j -= 1
    return j if j - i >= 2 and sum(len(t.word) for t in toks[i:j]) >= 4 else i


def _value_ok(value: str) -> bool:
    compact = value.replace(" ", "")
    if len(compact) < 4 or len(value) > _MAX_VALUE or "://" in value:
        return False
    if _REFERENCE.search(value) or NOT_VALUE.search(value) or is_placeholder(value):
        return False
    if filler(value):
        return False  # `demo_abcdefghijklmnop…`: typed, not drawn (`value_forms.filler`)
    if DATE.fullmatch(value) or TIME.fullmatch(value) or VERSION.fullmatch(value):
        return False  # `gültig bis 17.09.2026`, `um 14:30`, `Version 2.4.1`
    if PATH.fullmatch(value):
        return False  # `GOOGLE_CREDENTIALS=~/.config/gcloud/credentials.json`: where it is
    low = value.lower()
    words = [w.strip(OPENERS + CLOSERS) for w in low.split()]
    if any(w in STOPWORDS or w in FUNCTION or w in TOOLS or w in COPULA for w in words):
        return False  # `siehe Vault`, `im Tresor`, `stored`: words about where it is
    return lexicon_class(low) is None and not decodes_to_prose(value)


_ALIGNED_GAP = re.compile(r" {2,}")


def _fields(text: str, start: int, line: str) -> list[tuple[int, int, str]] | None:
    """The cells of a CSV/TSV line (3 or more), as (start, end, stripped value); a line of
    columns aligned by runs of spaces counts too (`Name      Benutzer   Kennwort`)."""
    sep = next((c for c in ",;\t|" if line.count(c) >= 2), None)
    if sep is None:
        body = line.strip(" ")
        if len(_ALIGNED_GAP.findall(body)) < 2:
            return None
        lead = start + len(line) - len(line.lstrip(" "))
        return [(lead + m.start(), lead + m.end(), m.group()) for m in _CELL.finditer(body)]
    cells, pos = [], 0
    for part in line.split(sep):
        lead = len(part) - len(part.lstrip(" \"'"))
        value = part.strip(" \"'")
        cells.append((start + pos + lead, start + pos + lead + len(value), value))
        pos += len(part) + 1
    return cells


_CELL = re.compile(r"\S+(?: \S+)*")
"""A cell of an aligned line: words joined by single spaces."""


def _columns(text: str, lines: list[tuple[int, str]], taken: _Taken) -> Iterator[Candidate]:
    """Cells under a header cell that is a credential word (`name,url,username,password`)."""
    header: tuple[int, int, tuple[str, str]] | None = None  # cell count, index, class
    for start, line in lines:
        cells = _fields(text, start, line)
        if cells is None or (header is not None and len(cells) != header[0]):
            header = None
        if cells is None:
            continue
        if header is None:
            for k, (_s, _e, value) in enumerate(cells):
                found = lexicon_class(value.lower())
                if found and len(value) <= 30 and value.lower() not in GENERIC_HEADERS:
                    header = (len(cells), k, found)
                    break
            continue
        s, e, value = cells[header[1]]
        if _value_ok(value) and not taken(s, e):
            feats = ["side=column", "dist=column", "btw_other=0", "csv"]
            yield _candidate(s, s, e, value, header[2], feats, [], None)


_Taken = Callable[[int, int], bool]


def candidates(
    text: str, covered: Sequence[tuple[int, int]] = (), strict: bool = True
) -> Iterator[Candidate]:
    """Every value a credential word in `text` may name, with its features, in the order the
    tier decides them (per credential word: after it, by distance). A scan
    stops at a secret already found (`covered` or a marker): a credential word names one value,
    and the one after it that is found already satisfies it. `strict=False` (training only)
    skips `context_guards`, so that the model also learns from the values they refuse."""
    if not _NEEDLE.search(text.lower()):
        return
    spans: list[tuple[int, int]] = []
    for s, e in sorted(covered):  # merged: the last span starting before `end` decides
        if spans and s <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(e, spans[-1][1]))
        else:
            spans.append((s, e))

    def taken(start: int, end: int) -> bool:
        k = bisect.bisect_left(spans, (end, end))
        # a marker's `[` is stripped from its token as an opening bracket
        return (k > 0 and spans[k - 1][1] > start) or MARKER_PREFIX in text[max(0, start - 1) : end]

    pos, lines = 0, []
    for line in text.split("\n"):
        lines.append((pos, line))
        pos += len(line) + 1
    yield from _columns(text, lines, taken)
    words = 0
    for k, (start, line) in enumerate(lines):
        if not _NEEDLE.search(line.lower()):
            continue
        toks = _tokens(text, start, start + len(line))
        for i, tok in enumerate(toks):
            if not _NEEDLE.search(tok.low):
                continue  # no credential word (every lexicon form holds a needle)
            found = list(_around(toks, i, tok, taken, strict))
            if not found and i == len(toks) - 1 and k + 1 < len(lines):
                before = toks[i - 1].low if i > 0 else ""
                found = list(_next_line(text, tok, before, lines[k + 1], taken))
            if found:
                if words >= _MAX_WORDS:  # the rest is unchecked: removed (fail safe)
                    end = len(text)
                    yield Candidate(tok.start, tok.start, end, "", "pw", "", (_UNCHECKED,))
                    return
                yield from found
                words += 1


def _next_line(
    text: str, tok: _Tok, before: str, line: tuple[int, str], taken: _Taken
) -> Iterator[Candidate]:
    """The value of a credential word that ends its line: the next line is that value alone,
    or after a prompt label (`In [3]: os.environ['WEBHOOK_SECRET']` / `Out[3]: '9f3c…'`)."""
    if tok.word.startswith("$") or "-----" in tok.raw:  # a PEM armor line is no word
        return
    found = word_class(tok.word)
    toks = _tokens(text, line[0], line[0] + len(line[1]))
    if found is None or found[1] in WEAK or not 1 <= len(toks) <= 2:
        return
    if guarded(tok.low, before, "", found[1]):
        return  # `PUBLIC KEY` ends the line: a public key follows
    if len(toks) == 2 and not (toks[0].raw.endswith(":") and len(toks[0].raw) <= 12):
        return
    value = toks[-1]
    if _value_ok(value.word) and not taken(value.start, value.end):
        feats = ["side=after", "dist=1", "btw=colon", "btw_other=0", "prev=colon", "nextline"]
        yield _candidate(tok.start, value.start, value.end, value.word, found, feats, [], None)


def _inline(tok: _Tok, i: int, toks: Sequence[_Tok], taken: _Taken) -> Iterator[Candidate]:
    """The value of a `key=value` / `key:value` token whose key is a credential word."""
    split = _SPLIT.search(tok.word)
    if split is None or split.start() == 0 or split.end() == len(tok.word):
        return
    key = tok.word[: split.start()]
    found = word_class(key)
    if not found or guarded_key(key.lower()) or key.lower() in GENERIC_HEADERS:
        return
    rest = tok.word[split.end() :]
    lead = len(rest) - len(rest.lstrip(OPENERS))
    value = _QUERY_REST.sub("", rest[lead:].rstrip(CLOSERS))
    s = tok.start + split.end() + lead
    if _value_ok(value) and not taken(s, s + len(value)):
        feats = [f"sep={split.group()}", "inline", "dist=0", "side=after"]
        yield _candidate(tok.start, s, s + len(value), value, found, feats, toks, None)


def _piped(tok: _Tok, toks: Sequence[_Tok]) -> bool:  # see the module docstring, 2.
    return tok.raw in _COMMENTS or (tok.raw in _PIPES and not toks[0].raw.startswith("|"))


def _around(
    toks: Sequence[_Tok], i: int, tok: _Tok, taken: _Taken, strict: bool
) -> Iterator[Candidate]:
    if _SPLIT.search(tok.word):
        yield from _inline(tok, i, toks, taken)
        return
    found = word_class(tok.word) if not tok.word.startswith("$") else None
    before = toks[i - 1].low if i > 0 else ""
    after = toks[i + 1].low if i + 1 < len(toks) else ""
    if found is None or guarded(tok.low, before, after, found[1]):
        return
    colon = tok.raw.rstrip("\"'").endswith((":", "="))
    j = i + 1 if not tok.ends_sentence else len(toks)
    if j < len(toks) and DECLARED_TYPE.fullmatch(toks[j].low.strip(OPENERS + CLOSERS)):
        # a declaration: the type follows the word; only a literal default is a value
        if not (j + 2 < len(toks) and toks[j + 1].raw == "=" and toks[j + 2].raw[:1] in "\"'"):
            return
        j += 2
    depth = aside = 0  # a parenthesis qualifies the word: its tokens do not count as distance
    seen = i + 1
    while j < len(toks):
        for t in toks[seen:j]:
            opened = depth > 0 or t.raw.startswith("(")
            depth = max(0, depth + t.raw.count("(") - t.raw.count(")"))
            aside += opened and aside < _MAX_ASIDE
        seen = max(seen, j)
        if j - aside > i + _AFTER:
            break
        if _piped(toks[j], toks):
            break  # `.password | b64enc`: what follows a pipe is code
        end = _group_end(toks, j)
        last = toks[end - 1] if end > j else toks[j]
        if taken(toks[j].start, toks[j].end):
            # the word's value is found already (nothing before it is looked at either);
            # a run of groups the table took only the first group of is taken whole
            if end > j + 1 and not taken(last.start, last.end):
                value = " ".join(t.word for t in toks[j:end])
                feats = ["side=after", f"dist={j - i}", f"group={min(end - j, 4)}"]
                c = _candidate(tok.start, toks[j].start, last.end, value, found, feats, toks, end)
                yield c._replace(features=(*c.features, _EXTENDS))
            return
        value = " ".join(t.word for t in toks[j:end]) if end > j else last.word
        plain = j - 1 == i and not colon  # `Codes 2024 erneuert`: a year, no assignment
        stop = end if end > j else j + 1
        if (
            _value_ok(value)
            and not taken(toks[j].start, last.end)
            and (j - 1 == i or not _labelled(toks[j - 1]))
            and not (plain and _YEAR.fullmatch(value))
            and (not strict or given(toks, i, j, stop, found[1], colon))
        ):
            feats = ["side=after", f"dist={j - i - aside}", *_between(toks[i + 1 : j])]
            feats.append(f"prev={_role(toks[j - 1], j - 1 == i)}")
            if colon:
                feats.append("lexcolon")
            if end > j:
                feats.append(f"group={min(end - j, 4)}")
            if toks[j].raw.startswith(("(", "[")):
                feats.append("paren")
            yield _candidate(tok.start, toks[j].start, last.end, value, found, feats, toks, stop)
        if (end > j and toks[end - 1].ends_sentence) or toks[j].ends_sentence:
            break
        j = end if end > j else j + 1
    k = named_before(toks, i) if strict else None
    if k is not None and _value_ok(toks[k].word) and not taken(toks[k].start, toks[k].end):
        feats = ["side=before", f"dist={i - k}"]  # `771204 is your code`
        c = _candidate(tok.start, toks[k].start, toks[k].end, toks[k].word, found, feats, [], None)
        yield c._replace(features=(*c.features, _REVERSE))


def _candidate(
    anchor: int,
    start: int,
    end: int,
    value: str,
    found: tuple[str, str],
    feats: list[str],
    toks: Sequence[_Tok],
    unit_at: int | None,
) -> Candidate:
    cls, word = found
    shape = value_shape(value)
    if unit_at is not None and unit_at < len(toks) and toks[unit_at].low.strip(CLOSERS) in UNITS:
        shape.append("unit_after")
    side = next(f for f in feats if f.startswith("side="))
    full = ["bias", f"lex={cls}", f"lexword={word}", *feats, *shape]
    full += [f"{cls}|{f}" for f in shape[:3]]
    full += [f"{cls}|{f}" for f in feats if f.startswith(("dist=", "btw", "sep="))]
    full += [f"{side}|{f}" for f in shape[:3]]
    return Candidate(anchor, start, end, value, cls, word, tuple(full))


def score(feats: Sequence[str], weights: dict[str, float]) -> float:
    """The model's probability that the candidate is a secret."""
    z = sum(weights.get(f, 0.0) for f in feats)
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


Model = tuple[dict[str, float], float]
"""Weights by feature name and the threshold a candidate's probability must reach."""


def find(
    text: str, covered: Sequence[tuple[int, int]] = (), model: Model | None = None
) -> list[tuple[int, int, str]]:
    """Spans (start, end, kind) of the secrets the context tier finds outside `covered`: per
    credential word the first candidate that reaches the threshold (`model`: other weights
    than the shipped ones, for training and its evaluation)."""
    if model is None:
        from shared.scrubbing.context_weights import THRESHOLD, WEIGHTS

        model = WEIGHTS, THRESHOLD
    weights, threshold = model
    out: list[tuple[int, int, str]] = []
    done: set[int] = set()
    for c in candidates(text, covered):
        if c.anchor in done:
            continue
        # a run of groups whose first group the table found is the rest of that secret
        if c.features[-1] in _ACCEPTED or score(c.features, weights) >= threshold:
            out.append((c.start, c.end, KIND[c.lexclass]))
            done.add(c.anchor)
    return out
