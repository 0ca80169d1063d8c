"""Validators of the rows for codes, cookies and symbol-rich secrets (`patterns`).

Invariants: pure functions of the candidate value and its match (no state, no I/O); each
confirms a candidate only when its shape is that of a credential - a session cookie's random
value, a list of one-time recovery codes, a secret assigned with symbols in it - never a
word of prose, a date or an identifier named as one.
"""

from __future__ import annotations

import re
from typing import Final

from shared.scrubbing.checks import generic_value, is_placeholder, looks_random, password_like

_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_SIGNED_PREFIX = re.compile(r"^s:")
_CODE = re.compile(r"[A-Za-z0-9]+(?:[- ][A-Za-z0-9]+)*")
_SYMBOLS: Final = frozenset("!$%&*#^?")


def session_value(value: str, _match: re.Match[str]) -> bool:
    """A session cookie's value: random once URL escapes and a signed-cookie `s:` are gone
    (`connect.sid=s%3A<id>.<signature>`); each dot-separated part counts."""
    plain = _SIGNED_PREFIX.sub("", _PERCENT.sub(":", value))
    if is_placeholder(plain):
        return False
    return any(looks_random(part) for part in plain.split("."))


def recovery_codes(value: str, _match: re.Match[str]) -> bool:
    """A list of recovery or backup codes: each code has a digit or is dash-grouped, at least
    one has a digit, and no code is a year or a date."""
    codes = [c for c in re.split(r"\s*[,;]\s*|\n", value) if c]
    with_digit = 0
    for code in codes:
        if not _CODE.fullmatch(code):
            return False
        digits = any(ch.isdigit() for ch in code)
        with_digit += digits
        if not digits and "-" not in code:
            return False
    return with_digit > 0 and not any(
        len(c) == 4 and c.isdigit() and c[:2] in ("19", "20") for c in codes
    )


def field_password(value: str, match: re.Match[str]) -> bool:
    """The password field of a colon-separated line (`.pgpass`): password-like with a digit
    (`line-too-long` in a linter's `file:line:col:code:message` is not one)."""
    return any(ch.isdigit() for ch in value) and password_like(value, match)


def symbol_secret(value: str, match: re.Match[str]) -> bool:
    """An unquoted value after a secret's key with symbols in it (`JWT_SECRET=aB3%x!…`): the
    generic rule holds once the symbols are set aside (the symbol-free rows stop at them)."""
    if not any(ch in _SYMBOLS for ch in value):
        return False
    return generic_value(value, match)
