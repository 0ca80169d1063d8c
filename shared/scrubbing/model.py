"""The row type of the pattern table and the builder that compiles a row and its sample.

Samples are templates so that no token-shaped literal sits in the source: the marked part
`⟦...⟧` is the secret the row must remove, `{a36}` is 36 characters of a charset (`a`
alphanumeric, `h`/`H` hex, `d` digits, `u` upper+digits, `l` lower, `L` letters, `b` base64,
`w` base64url, `z` base32, `c` bech32, `B` base58) and `{jwt}`, `{basic}`, `{discord}`, `{card}`,
`{cftunnel}` are built values. Fillers are deterministic pseudo-random: a sample never changes
between runs.
"""

from __future__ import annotations

import base64
import json
import random
import re
from dataclasses import dataclass
from typing import Final

from shared.scrubbing import checks
from shared.scrubbing.checks import Validator
from shared.scrubbing.vendor_checks import B58_ALPHABET

__all__ = ["BODY_END", "VALUE_GROUPS", "SecretPattern", "bounded", "not_after", "row"]

BODY_END: Final = r"(?![A-Za-z0-9_-])"
"""After a token body: it does not go on (the end of a row's value, both pattern tables)."""

VALUE_GROUPS = ("v", "v1", "v2", "v3", "v4", "v5")
"""Names of the groups that hold the secret; the first that took part in a match is used."""


@dataclass(frozen=True, slots=True)
class SecretPattern:
    """One row of the table.

    `needles`: lowercase literals; the row runs only if one occurs in the lowered text. With
    `anchored`, they are also where a match must start (`regex.match` at each occurrence)
    or, with a `window` (before, after), the stretch around each occurrence that is searched:
    much faster than scanning a whole text with a case-insensitive keyword alternation.
    `follow`: what must come right after the value (checked after the match, so that the regex
    itself never backtracks into a long run to look for it).
    `fallback`: the row only looks at values no earlier row has found (bare credentials: their
    validators are the most expensive, and a found secret needs no second opinion).
    `min_run`: every match is a whitespace-free stretch at least this long; the row searches
    only inside such stretches (prose has few), not the whole text.
    """

    kind: str
    regex: re.Pattern[str]
    sample: str
    secret: str
    validator: Validator | None
    needles: tuple[str, ...]
    groups: tuple[str, ...]
    anchored: bool = False
    window: tuple[int, int] = (0, 0)
    follow: re.Pattern[str] | None = None
    fallback: bool = False
    min_run: int = 0


_CHARSETS = {
    "a": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
    "h": "0123456789abcdef",
    "H": "0123456789ABCDEF",
    "d": "0123456789",
    "u": "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    "l": "abcdefghijklmnopqrstuvwxyz",
    "L": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "b": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    "w": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
    "z": "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
    "c": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
    "B": B58_ALPHABET,
}
_FILL = re.compile(r"\{([ahHdulLbwzcB])(\d+)\}|\{(jwt|basic|discord|card|cftunnel)\}")


def _b64url(data: dict[str, object]) -> str:
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def expand(template: str, kind: str) -> tuple[str, str]:
    """(sample text, secret) of a template."""
    rng = random.Random(f"sample:{kind}:{template}")  # noqa: S311 - fake fillers, not crypto
    built = {
        "jwt": f"{_b64url({'alg': 'HS256', 'typ': 'JWT'})}.{_b64url({'sub': 'nutzer-7'})}.",
        "basic": base64.b64encode(b"deploy:Sommer2024!").decode(),
        "discord": base64.b64encode(b"912345678901234567").decode().rstrip("="),
        "card": "4556 7375 8689 9855",
        "cftunnel": base64.b64encode(
            json.dumps(
                {"a": "0" * 31 + "a", "t": "tunnel-7", "s": "c2VjcmV0LW9mLXRoZS10dW5uZWw="}
            ).encode()
        ).decode(),
    }

    def fill(m: re.Match[str]) -> str:
        if m.group(3):
            extra = "".join(rng.choice(_CHARSETS["w"]) for _ in range(43))
            return built[m.group(3)] + (extra if m.group(3) == "jwt" else "")
        return "".join(rng.choice(_CHARSETS[m.group(1)]) for _ in range(int(m.group(2))))

    text = _FILL.sub(fill, template)
    secret = text[text.index("⟦") + 1 : text.index("⟧")]
    return text.replace("⟦", "").replace("⟧", ""), secret


def not_after(n: int, cls: str = r"\w") -> str:
    """Placed after an n-character prefix: the prefix does not continue a word (`cls`).

    A lookbehind written after the literal prefix keeps the regex engine's fast literal scan;
    the same lookbehind in front of the prefix makes every position of the text a try.
    """
    return rf"(?<!{cls}[\s\S]{{{n}}})"


_OPEN_RANGE = re.compile(r"\{(\d+),\}")
_OPEN_REPEAT = re.compile(r"(?:(?<=\\s)|(?<=[\])]))([*+])")
_BOUND: Final = 4096
"""Upper bound of every repetition: no row matches anything longer (tokens are shorter)."""


def bounded(regex: str) -> str:
    """`regex` with every open repetition bounded: `{n,}`, and `*`/`+` after a character class,
    group or `\\s` (possessive and lazy suffixes kept). Bounded repetitions keep the work per
    match attempt bounded, which is what makes a row's scan linear in the text's length."""
    regex = _OPEN_RANGE.sub(lambda m: f"{{{m.group(1)},{_BOUND}}}", regex)
    return _OPEN_REPEAT.sub(
        lambda m: f"{{0,{_BOUND}}}" if m.group(1) == "*" else f"{{1,{_BOUND}}}", regex
    )


def row(
    kind: str,
    regex: str,
    sample: str,
    needles: tuple[str, ...] = (),
    *,
    check: Validator | None = checks.token_body,
    flags: int = 0,
    anchored: bool = False,
    window: tuple[int, int] = (0, 0),
    follow: str | None = None,
    fallback: bool = False,
    min_run: int = 0,
) -> SecretPattern:
    """Compile one row; `check` defaults to the placeholder guard of prefixed tokens."""
    compiled = re.compile(bounded(regex), flags)
    text, secret = expand(sample, kind)
    groups = tuple(g for g in VALUE_GROUPS if g in compiled.groupindex)
    anchored = anchored or window != (0, 0)
    after = re.compile(follow) if follow else None
    return SecretPattern(
        kind,
        compiled,
        text,
        secret,
        check,
        needles,
        groups,
        anchored,
        window,
        after,
        fallback,
        min_run,
    )
