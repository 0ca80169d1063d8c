"""Validators of the rows for codes, cookies and symbol-rich secrets (`patterns`).

Invariants: pure functions of the candidate value and its match (no state, no I/O); each
confirms a candidate only when its shape is that of a credential - a session cookie's random
value, a list of one-time recovery codes, a secret assigned with symbols in it, a cell under a
table's password column, a pair under a heading that names logins, a TOTP seed in base32 on a
line that names one-time passwords - never a word of prose, a date or an identifier named as
one. The text around a match is read in bounded windows (a
few lines, a table of at most 60 rows).
"""

from __future__ import annotations

import re
from typing import Final

from shared.scrubbing.bare_checks import IDENTIFIER_LABEL
from shared.scrubbing.checks import (
    generic_value,
    is_placeholder,
    key_before,
    looks_random,
    password_bare,
    password_like,
    password_value,
    pin_value,
    prose_word,
    strong_password,
)
from shared.scrubbing.prose_checks import strong_shape

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


_CODE_LIST = re.compile(
    r"(?:\s*[,;]\s*|\n[ \t]*|\s+(?:und|and|oder|or|sowie)\s+|^)(?:(?:\d{1,2}[.)]|[-*•])[ \t]+)?"
)
"""What stands between two codes of a list: a comma, a line break or a conjunction, and a list
item's mark (`1. `, `- `)."""


def recovery_codes(value: str, _match: re.Match[str]) -> bool:
    """A list of recovery or backup codes: each code has a digit or is dash-grouped, at least
    one has a digit, and no code is a year or a date."""
    codes = [c for c in _CODE_LIST.split(value) if c]
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
    """The password field of a colon-separated line (`.pgpass`): password-like with a digit,
    or a strong password's shape (`line-too-long` in a linter's `file:line:col:code:message`
    is neither)."""
    if not (any(ch.isdigit() for ch in value) or strong_shape(value)):
        return False
    return password_like(value, match)


def symbol_secret(value: str, match: re.Match[str]) -> bool:
    """An unquoted value after a secret's key with symbols in it (`JWT_SECRET=aB3%x!…`): the
    generic rule holds once the symbols are set aside (the symbol-free rows stop at them)."""
    if not any(ch in _SYMBOLS for ch in value):
        return False
    return generic_value(value, match)


def tag_password(value: str, match: re.Match[str]) -> bool:
    """The text of a `<password>` element: a password value; one that starts with a bracket
    (`(#6IWe…`, `{nH)q…`) counts when it is long and has letters and digits (a placeholder
    such as `${db.password}` or `(none)` does not)."""
    if value[0] in "([{<":  # `is_placeholder` takes every bracket in front for a template
        return (
            len(value) >= 8
            and any(map(str.isdigit, value))
            and any(map(str.isalpha, value))
            and not _TAG_TEMPLATE.match(value)
            and not is_placeholder(value[1:])
        )
    return password_value(value, match)


_TAG_TEMPLATE = re.compile(r"\{\{|\{%|\[\[|\(\(|<%|.*[)\]}>]$")


_TABLE_ROWS: Final = 60
_SEPARATOR_ROW = re.compile(r"\s*\|?\s*:?-{3,}")
_PASSWORD_HEADER = re.compile(
    r"(?:passw(?:or[dt]|ort)|kennwort|pw|pwd|pass|passphrase|pin|puk)\w{0,12}", re.IGNORECASE
)
_SECRET_HEADER = re.compile(
    r"(?:secret|geheimnis|token|api[- _]?key|key|schl(?:ü|ue)ssel|credential)s?", re.IGNORECASE
)


def _lines_up(text: str, line_start: int, limit: int) -> list[str]:
    """Up to `limit` lines before the line at `line_start`, nearest first."""
    lines: list[str] = []
    end = line_start - 1
    while end >= 0 and len(lines) < limit:
        start = text.rfind("\n", 0, end) + 1
        lines.append(text[start:end])
        end = start - 1
    return lines


def table_secret(value: str, match: re.Match[str]) -> bool:
    """A cell of a Markdown table whose column header names a password or a secret, or whose
    row's cell before it does (`| DB_PASSWORD | … |`): under `Passwort`/`PIN` it must look
    like a password, under `Secret`/`Token`/`Key` random."""
    text, start = match.string, match.start("v")
    line_start = text.rfind("\n", 0, start) + 1
    if not text[line_start:start].lstrip().startswith("|"):
        return False
    column = text.count("|", line_start, start) - 1
    above = _lines_up(text, line_start, _TABLE_ROWS)
    depth = next((i for i, line in enumerate(above) if not line.lstrip().startswith("|")), None)
    rows = above if depth is None else above[: depth + 1]  # nearest first, then the header
    if depth is not None and "|" not in rows[-1]:
        rows = rows[:-1]  # a frame line above the header (`Aus dem Chat kopiert:`)
    if len(rows) < 2 or not _SEPARATOR_ROW.match(rows[-2]) or "|" not in rows[-1]:
        return False  # the header may follow a few words (`Notiz: | Dienst | Passwort |`)
    cells = rows[-1].split("|", 1)[1].strip().strip("|").split("|")
    if column >= len(cells):
        return False
    header = cells[column].strip()
    row_key = text[line_start:start].rstrip().rstrip("|").rsplit("|", 1)[-1].strip()
    if _PASSWORD_HEADER.fullmatch(header) or _PASSWORD_ROW_KEY.fullmatch(row_key):
        return pin_value(value, match) if value.isdigit() else password_like(value, match)
    if _SECRET_HEADER.fullmatch(header) or _SECRET_ROW_KEY.fullmatch(row_key):
        return looks_random(value)
    return False


# The cell left of a value names it (a key/value table: `| DB_PASSWORD | Hq8x… |`).
_PASSWORD_ROW_KEY = re.compile(
    r"[\w.-]{0,30}(?:passw(?:or[dt]|ort)|kennwort|passwd)[\w.-]{0,30}", re.IGNORECASE
)
_SECRET_ROW_KEY = re.compile(
    r"[\w.-]{0,30}(?:secret|token|api[-_]?key|private[-_]?key|access[-_]?key)[\w.-]{0,30}",
    re.IGNORECASE,
)


_LOGIN_HEADING = re.compile(
    r"(?<![a-zäöü])(?:zug(?:ang|änge|aenge)\w{0,8}|logins?|credentials?|creds|passw(?:ö|oe)rter"
    r"|passwords|kennw(?:ö|oe)rter|anmeldedaten|accounts?|konten|benutzerkonten)(?![a-zäöü])",
    re.IGNORECASE,
)


def slash_password(value: str, match: re.Match[str]) -> bool:
    """`account / value` without a key word: a password's full shape (`strong_password`), or a
    password-like value under a heading or on a line that names logins (`Zugänge:` and a list
    of `- Router: admin / qwertz1975`)."""
    if strong_password(value, match):
        return True
    text, start = match.string, match.start()
    line_start = text.rfind("\n", 0, start) + 1
    near = [text[line_start:start], *_lines_up(text, line_start, 3)]
    return any(_LOGIN_HEADING.search(line) for line in near) and password_bare(value, match)


_PLAIN_PASSWORD_KEY = re.compile(r"passwor[dt]|kennwort", re.IGNORECASE)
_WIFI_LINE = re.compile(r"ssid|wlan|wi-?fi|wpa|hotspot|netzwerk|network", re.IGNORECASE)


def spaced_phrase(value: str, match: re.Match[str]) -> bool:
    """Three to eight words after a Wi-Fi key's or passphrase's name, none of them a word of
    the prose around passwords (`wie`, `ist`, `steht`, `auf`): `Nudel blue Ampel Wolke`. After
    a plain `Passwort`/`password` the line must name a Wi-Fi before it (`Das Gäste-WLAN heißt
    X, das Passwort ist …`)."""
    if _PLAIN_PASSWORD_KEY.fullmatch(match.group("key")):
        text, start = match.string, match.start("key")
        line_start = text.rfind("\n", 0, start) + 1
        if not _WIFI_LINE.search(text, max(line_start, start - 80), start):
            return False
    words = re.split(r"[ +]", value)
    return not any(prose_word(w) or w.lower() in _PHRASE_PROSE for w in words)


_PHRASE_PROSE: Final = frozenset({
    "auf", "unter", "hinten", "router", "zettel", "karte", "aufkleber", "sticker", "label",
    "back", "on", "under", "printed", "gedruckt", "schrank", "im", "in", "dein", "your",
    "our", "unser", "unsere", "mein", "my", "wir", "we", "ich", "i", "du", "you", "es", "it",
    "kommt", "comes", "gibt", "frag", "ask",
})  # fmt: skip


_PASSWORD_WORD = re.compile(r"passw|kennwort|pwd", re.IGNORECASE)
_SESSION_WORD = re.compile(r"sess", re.IGNORECASE)


def attr_secret(value: str, match: re.Match[str]) -> bool:
    """The `value` of a name/value setting whose `key`/`name` names a password (a password
    value), a session (a session cookie's value) or a secret, token or key (random, as after
    `secret=`)."""
    key = key_before(match)
    if _PASSWORD_WORD.search(key):
        return password_value(value, match)
    if _SESSION_WORD.search(key):  # `{"name":"sessionid","value":X}`: a session cookie
        return session_value(value, match)
    return generic_value(value, match)


TOTP_SEED: Final = (
    r"(?<![A-Za-z0-9])(?<![A-Za-z0-9] )(?P<v>[A-Z2-7]{16,64}+|[A-Z2-7]{4}(?: [A-Z2-7]{4}){3,15}+"
    r"|[a-z2-7]{4}(?: [a-z2-7]{4}){3,15}+)(?![A-Za-z0-9])(?! [A-Za-z0-9])"
)
"""A TOTP seed as authenticator apps take it: base32, in one run or in groups of four
(`JBSW Y3DP EHPK 3PXP`, as Google shows it) - the whole run of groups (a part of a longer run,
such as an OpenPGP fingerprint's last groups, is none)."""
TOTP_ANCHORS: Final = ("totp", "2fa", "mfa", "otp", "authenticator", "seed")
_OTP_WORD = re.compile(
    r"(?<![a-z0-9])(?:totp|hotp|2fa|mfa|otp|authenticator|authy|zwei-?faktor|two-?factor"
    r"|one-?time)(?![a-z])|(?:otp|totp|2fa|mfa)[ _-]?seed|\bseed\b"
)
_SEED_REACH: Final = 160


def totp_seed(value: str, match: re.Match[str]) -> bool:
    """A base32 seed: letters and digits both (2-7), not one character repeated, on a line (or
    after the line before it) that names one-time passwords, and not labelled an identifier."""
    core = value.replace(" ", "")
    digits = sum(ch.isdigit() for ch in core)
    if not 2 <= digits <= len(core) - 4 or len(set(core)) < 8:
        return False
    text, start = match.string, match.start("v")
    line_start = text.rfind("\n", 0, start) + 1
    label = text[max(line_start, start - 48) : start].lower()
    if IDENTIFIER_LABEL.search(label):
        return False
    prev_line = text.rfind("\n", 0, max(0, line_start - 1)) + 1
    line_end = text.find("\n", match.end("v"))
    around = text[max(prev_line, start - _SEED_REACH) : start].lower()
    after = text[match.end("v") : len(text) if line_end < 0 else line_end][:60].lower()
    return bool(_OTP_WORD.search(around) or _OTP_WORD.search(after))


_SLACK_BODY = re.compile(r"x(?:ox[a-z](?:\.xox[a-z])?|app)-(?P<b>[A-Za-z0-9-]+)")


def slack_value(value: str, match: re.Match[str]) -> bool:
    """A Slack token's body as Slack issues them: 20+ characters in dash-separated groups, one
    of them 8+ digits or two of 5+ (the workspace and user ids), no trailing dash before filler
    (`xoxp-…-####`); `xoxb-12345-abcd234`, `xoxb-my-bot-token` are documentation."""
    found = _SLACK_BODY.fullmatch(value)
    if found is None:
        return False
    body = found.group("b")
    if len(body) < 20 or body.endswith("-") or "-" not in body:
        return False
    ids = [len(g) for g in body.split("-") if g.isdigit()]
    if not (any(n >= 8 for n in ids) or sum(n >= 5 for n in ids) >= 2):
        return False
    return not is_placeholder(value) and len(set(value[-16:])) > 3
