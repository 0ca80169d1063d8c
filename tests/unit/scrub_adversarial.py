"""Adversarial inputs for one scrubber row, derived from the row's own regex and needles.

Not a hand list: the row's regex is parsed (`re._parser`, the parser `re.compile` uses) and
for every repetition in it the classic catastrophic-backtracking probe is built:
`prefix + unit * n + terminator`, where `prefix` is the shortest text that leads the regex up
to the repetition, `unit` is one instance of the repeated body (its shortest match and a few
characters of its leading character class) and the terminator is a character that makes the
rest of the regex fail. Besides: each needle (and the regex's literal prefix, and its
shortest whole match) repeated to the size, the case where a bounded run crosses the next
anchor and every anchor costs the whole bound.

Every input is `size` characters long (1 MB in the test).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

from shared.scrubbing.model import SecretPattern

_parser: Any = importlib.import_module("re._parser")
_c: Any = importlib.import_module("re._constants")

_PROBE = "aZ09 \n\t:=/._-+~!?#@&;,'\"`<>()[]{}%$*|\\ä\u00df\u201e\u201cghpskAKIAotpauth"
_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT)
_TERMINATOR = "\x00"
_MAX_UNITS = 2


def _in_category(ch: str, cat: Any) -> bool:
    checks = {
        _c.CATEGORY_DIGIT: ch.isdigit(),
        _c.CATEGORY_NOT_DIGIT: not ch.isdigit(),
        _c.CATEGORY_SPACE: ch.isspace(),
        _c.CATEGORY_NOT_SPACE: not ch.isspace(),
        _c.CATEGORY_WORD: ch.isalnum() or ch == "_",
        _c.CATEGORY_NOT_WORD: not (ch.isalnum() or ch == "_"),
    }
    return bool(checks.get(cat, False))


def _in_set(ch: str, items: list[tuple[Any, Any]]) -> bool:
    negate = False
    hit = False
    for op, av in items:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            hit = hit or ord(ch) == av
        elif op is _c.RANGE:
            hit = hit or av[0] <= ord(ch) <= av[1]
        elif op is _c.CATEGORY:
            hit = hit or _in_category(ch, av)
    return hit != negate


def _chars(op: Any, av: Any) -> list[str]:
    """Probe characters one single-character node accepts (first the most ordinary)."""
    if op is _c.LITERAL:
        return [chr(av)]
    if op is _c.NOT_LITERAL:
        return [ch for ch in _PROBE if ord(ch) != av]
    if op is _c.ANY:
        return [ch for ch in _PROBE if ch != "\n"]
    if op is _c.IN:
        probed = [ch for ch in _PROBE if _in_set(ch, av)]
        if probed:
            return probed
        # a class of characters the probe lacks: its first literal or range start
        return [chr(a if o is _c.LITERAL else a[0]) for o, a in av if o in (_c.LITERAL, _c.RANGE)][
            :1
        ]
    if op is _c.CATEGORY:
        return [ch for ch in _PROBE if _in_category(ch, av)]
    return []


def shortest(pattern: Any, groups: dict[int, str] | None = None) -> str:
    """A short text the parsed (sub)pattern matches, lookarounds ignored."""
    groups = {} if groups is None else groups
    out: list[str] = []
    for op, av in pattern:
        if op in _REPEATS:
            low, _high, body = av
            out.append(shortest(body, groups) * low)
        elif op is _c.SUBPATTERN:
            text = shortest(av[3], groups)
            if av[0] is not None:
                groups[av[0]] = text
            out.append(text)
        elif op is _c.ATOMIC_GROUP:
            out.append(shortest(av, groups))
        elif op is _c.BRANCH:
            out.append(shortest(av[1][0], groups))
        elif op is _c.GROUPREF:
            out.append(groups.get(av, ""))
        elif op is _c.GROUPREF_EXISTS:
            out.append(shortest(av[1], groups))
        else:
            chars = _chars(op, av)
            if chars:
                out.append(chars[0])
    return "".join(out)


def _units(body: Any) -> list[str]:
    """Instances of a repeated body: its shortest match and variants of its first character."""
    base = shortest(body)
    units = [base] if base else []
    if body and len(body) >= 1:
        op, av = body[0]
        for ch in _chars(op, av)[1:]:
            if len(units) >= _MAX_UNITS:
                break
            candidate = ch + base[1:] if base else ch
            if candidate not in units:
                units.append(candidate)
    return units


def _probes(pattern: Any, before: str) -> Iterator[tuple[str, str]]:
    """(prefix, unit) for every repetition in the parsed pattern, nested ones included."""
    done = before
    for op, av in pattern:
        if op in _REPEATS:
            for unit in _units(av[2]):
                yield done, unit
            yield from _probes(av[2], done)
        elif op is _c.SUBPATTERN:
            yield from _probes(av[3], done)
        elif op is _c.ATOMIC_GROUP:
            yield from _probes(av, done)
        elif op is _c.BRANCH:
            for alternative in av[1]:
                yield from _probes(alternative, done)
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            pass
        done += shortest([(op, av)])


def _literal_prefix(pattern: Any) -> str:
    out = []
    for op, av in pattern:
        if op is not _c.LITERAL:
            break
        out.append(chr(av))
    return "".join(out)


def _fill(head: str, unit: str, tail: str, size: int) -> str:
    room = max(0, size - len(head) - len(tail))
    return (head + unit * (room // len(unit) + 1))[: size - len(tail)] + tail


def adversarial_inputs(row: SecretPattern, size: int) -> dict[str, str]:
    """Named adversarial texts of `size` characters for one row (duplicates removed)."""
    parsed = _parser.parse(row.regex.pattern, row.regex.flags)
    whole = shortest(parsed)
    inputs: dict[str, str] = {}

    def add(name: str, head: str, unit: str, tail: str) -> None:
        if unit and len(head) + len(tail) < size:
            text = _fill(head, unit, tail, size)
            if text not in inputs.values():
                inputs[name] = text

    for needle in row.needles:
        add(f"needle {needle!r} repeated", "", needle, "")
        add(f"needle {needle!r}+space repeated", "", needle + " ", "")
    add("literal prefix repeated", "", _literal_prefix(parsed), "")
    add("shortest match repeated", "", whole, "")
    add("shortest match, no separator", "", whole + whole[:1], "")
    for i, (prefix, unit) in enumerate(_probes(parsed, "")):
        add(f"repeat {i}: {prefix[-12:]!r} + {unit!r}*n", prefix, unit, _TERMINATOR)
        if prefix:
            add(f"repeat {i}: ({prefix[-12:]!r} + {unit!r}) repeated", "", prefix + unit, "")
    return inputs
