"""What a candidate value looks like, as the context tier's model reads it: length, character
classes, digit share, entropy, and the public forms a value can have (date, time, version,
amount, hex digest, URL, e-mail, path, ticket, word chain, UUID) - judged on the value alone,
whatever layout put it there. Pure functions.
"""

from __future__ import annotations

import math
import re
from typing import Final

from shared.scrubbing.context_lexicon import FUNCTION

__all__ = ["DATE", "DECLARED_TYPE", "TIME", "VERSION", "shape"]

DATE: Final = re.compile(
    r"\d{1,4}[./-](?:\d{1,2}|[A-Za-z]{3,9})[./-]\d{1,4}"
    r"(?:[T:_ ]\d{1,2}(?::\d{2}){1,2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?)?"
)
"""A date, also with a month's name and a time (`03/Dec/2026:10:00:00`, `2026-12-03T10:00Z`)."""
TIME: Final = re.compile(r"\d{1,2}:\d{2}(:\d{2})?(h|uhr)?")
VERSION: Final = re.compile(r"v?\d+(\.\d+){1,3}")
AMOUNT: Final = re.compile(r"[€$£]?\d{1,3}([.,']\d{3})*([.,]\d{1,2})?[€$£]?")
HEX: Final = re.compile(r"(0x)?[0-9a-f]{8,}")
TICKET: Final = re.compile(r"[A-Z][A-Z0-9]{1,9}-\d{1,7}")
WORD_CHAIN: Final = re.compile(r"[a-zäöüß]{3,10}(?:-[a-zäöüß]{3,10}){3,11}")
DECLARED_TYPE: Final = re.compile(
    r"(?:optional\[|option<|list\[|\*|&)?(?:str|string|int|integer|bool|boolean|bytes|text"
    r"|secretstr|secretbytes|secretstring|varchar|char|number|any|object)"
    r"(?:\(\d+\))?[\]>]?(?:\s*\|\s*none)?[,;=]?"
)
"""`api_key: str = Field(…)`, `Password string`, `token: string;`: a field is declared with
its type; no value follows the credential word."""


def shape(value: str) -> list[str]:
    """The model's shape features of one value (`len=8`, `cls=dl`, `e2`, `hex`, `date`, …)."""
    compact = value.replace(" ", "")
    n = len(compact)
    digits = sum(c.isdigit() for c in compact)
    lower = sum(c.islower() for c in compact)
    upper = sum(c.isupper() for c in compact)
    other = n - digits - lower - upper
    cls = ("d" if digits else "") + ("l" if lower else "") + ("u" if upper else "")
    cls += "s" if other else ""
    lb = (
        "4"
        if n <= 4
        else "6"
        if n <= 6
        else "8"
        if n <= 8
        else "12"
        if n <= 12
        else ("20" if n <= 20 else "40" if n <= 40 else "big")
    )
    share = digits / n
    db = (
        "0"
        if not digits
        else "lo"
        if share < 0.3
        else "mid"
        if share < 0.7
        else ("hi" if share < 1 else "all")
    )
    counts: dict[str, int] = {}
    for c in compact:
        counts[c] = counts.get(c, 0) + 1
    ent = -sum(k / n * math.log2(k / n) for k in counts.values())
    eb = "e0" if ent < 2 else "e1" if ent < 3 else "e2" if ent < 4 else "e3"
    out = [f"cls={cls}", f"len={lb}", f"digits={db}", eb, f"ncls={len(cls)}"]
    low = value.lower()
    if value.isalpha():
        out.append("alpha")
        if value.islower() or value.istitle():
            out.append("wordlike")
    if low in FUNCTION:
        out.append("function")
    if DATE.fullmatch(value):
        out.append("date")
    if TIME.fullmatch(low):
        out.append("time")
    if VERSION.fullmatch(low):
        out.append("version")
    if AMOUNT.fullmatch(value) and not value.isdigit():
        out.append("amount")
    if HEX.fullmatch(low) and digits:
        out.append("hex")
    if "://" in value:
        out.append("url")
    if "@" in value and "." in value.split("@")[-1]:
        out.append("email")
    if value.startswith(("/", "~", "\\")) or "\\" in value:
        out.append("path")
    if value.count(".") >= 2 and not digits:
        out.append("dotted")
    if TICKET.fullmatch(value):
        out.append("ticket")
    if WORD_CHAIN.fullmatch(value):
        out.append("wordchain")  # `velvet-laterne-copper-anker`: a passphrase of words
    if value.count("-") == 4 and n == 36:
        out.append("uuid")
    return out
