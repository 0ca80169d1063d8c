"""Where a password row's value stands in its text: the facts `checks.password_value` needs
beyond the value itself (a psql variable's colon before it, a line break between the key and
the next line's prose, a type after a field's colon). Pure functions of the match."""

from __future__ import annotations

import re

from shared.scrubbing.value_shape import DECLARED_TYPE


def value_group(match: re.Match[str]) -> str | None:
    """The name of the value's group (`v` or `v1`…`v5`) that matched."""
    names = [n for n in match.re.groupindex if n.startswith("v") and match.group(n) is not None]
    return names[-1] if names else None


def prose_after_prompt(value: str, match: re.Match[str]) -> bool:
    """A prompt ends its line (`Password:`) and the value is the first word of a line of prose
    under it (`Login succeeded`)."""
    name = value_group(match)
    if name is None:
        return False
    text, end = match.string, match.end(name)
    if not crosses_line(value, match):
        return False
    line_end = text.find("\n", end)
    rest = text[end : len(text) if line_end < 0 else line_end]
    return bool(re.match(r" [a-zäöüß]{2,}", rest))


def variable_before(match: re.Match[str]) -> bool:
    """The value is a psql/SQL*Plus variable (`PASSWORD :'name'`, `:name`): a colon glued to it
    after a space, with an identifier after the colon."""
    name = value_group(match)
    if name is None:
        return False
    start, text = match.start(name), match.string
    head = text[max(0, start - 3) : start]
    glued = head.endswith((" :'", ' :"')) or (head.endswith(" :") and start < len(text))
    return glued and bool(re.match(r"[A-Za-z_]\w*\b", text[start:]))


_PATH_WORD = re.compile(r"(?:~/|\./|/)[\w.-]+(?:/[\w.-]+)+")
_BOUNDARY = frozenset(" \t\n\"'`=(<[,;")


def inside_path(match: re.Match[str]) -> bool:
    """The value is the tail of a path (`credentials=~/.config/gcloud/x.json` read as the
    pair `~` / `.config/…`): the word it ends is a file path, not a password."""
    name = value_group(match)
    if name is None:
        return False
    text, start, end = match.string, match.start(name), match.end(name)
    if start == 0 or text[start - 1] != "/":
        return False
    left = start
    while left > 0 and text[left - 1] not in _BOUNDARY and start - left < 64:
        left -= 1
    return bool(_PATH_WORD.fullmatch(text, left, end))


def crosses_line(value: str, match: re.Match[str]) -> bool:
    """A line break lies between the rule's key and the value."""
    if "key" not in match.re.groupindex or match.start("key") < 0:
        return False
    whole = match.group(0)
    at = whole.rfind(value)
    return at >= 0 and "\n" in match.string[match.end("key") : match.start() + at]


def declares_a_type(value: str, match: re.Match[str]) -> bool:
    """An unquoted type after the key's colon (`password: SecretStr`, `token: str | None`): a
    field declared in a class or schema, no value given. `Passwort: Str1ng!` is no type."""
    name = value_group(match)
    if name != "v" or not DECLARED_TYPE.fullmatch(value.lower()):
        return False
    head = match.string[max(0, match.start(name) - 8) : match.start(name)]
    return head.rstrip().endswith(":")
