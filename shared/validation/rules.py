"""Reusable field rules for request validation.

A rule takes the raw JSON value, its absolute field path (`inhalt.memories[3].tags[0]`) and
the error list of the envelope or entry being validated. It returns the converted value, or
appends one or more `FieldError`s and returns None. Where None is also a valid result (a
nullable field), the caller tells the two apart by the error list.

Messages (German, naming the rule) live in `messages`; sizes and limits are the constants below.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from enum import StrEnum
from typing import Any, Concatenate, Final, ParamSpec, TypeVar

from shared.domain import MEMORY_ID_PATTERN, MemoryId
from shared.validation.errors import FieldError
from shared.validation.messages import (
    NOT_BLANK,
    NOT_FINITE,
    REQUIRED,
    below_minimum,
    control_character,
    float32_range,
    memory_id_range,
    more_errors,
    must_be,
    one_of,
    only_value,
    out_of_range,
    pattern_mismatch,
    safe_key,
    too_few_items,
    too_long,
    too_many_items,
    unknown_field,
)

P = ParamSpec("P")
R = TypeVar("R")

# --- limits shared by several tools --------------------------------------------------------

MAX_BATCH: Final = 100
IDENTITY_MAX_LEN: Final = 200
TAGS_MAX_ITEMS: Final = 100
TAG_MAX_LEN: Final = 100
EMBEDDING_MAX_DIM: Final = 16384
FLOAT32_MAX: Final = 3.4028234663852886e38
ID_MAX: Final = 2**63 - 1  # 64-bit signed: what every store can hold
REFERENZFELDER_MAX_KEYS: Final = 50
REFERENZFELDER_MAX_BYTES: Final = 4096
MAX_ITEM_ERRORS: Final = 20  # per long list (embedding); the rest is summarised

MEMORY_ID_RE: Final = re.compile(MEMORY_ID_PATTERN)
# Control characters are refused in every string (nothing invisible is stored); free text may
# hold tab, line feed and carriage return. Lone surrogates cannot be stored as UTF-8 at all.
_CONTROL_IN_TEXT: Final = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_CONTROL_IN_NAME: Final = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")
# --- paths ---------------------------------------------------------------------------------


def key_path(parent: str, key: object) -> str:
    """`inhalt` + `nutzer` -> `inhalt.nutzer`; a top-level key has no parent. A key that is
    no plain field name (or holds a secret) is named "…" (`messages.safe_key`)."""
    name = safe_key(key)
    return f"{parent}.{name}" if parent else name


def index_path(parent: str, index: int) -> str:
    return f"{parent}[{index}]"


# --- reading objects -----------------------------------------------------------------------


class Fields:
    """Reads the fields of one JSON object; errors are recorded under absolute paths."""

    def __init__(self, obj: Mapping[str, Any], path: str, errors: list[FieldError]) -> None:
        self.obj = obj
        self.base = path
        self.errors = errors

    def path(self, key: str) -> str:
        return key_path(self.base, key)

    def has(self, key: str) -> bool:
        return key in self.obj

    def reject_unknown(self, allowed: Sequence[str]) -> None:
        """`additionalProperties: false`: one error per unknown field."""
        for key in self.obj:
            if key not in allowed:
                self.errors.append(FieldError(self.path(key), unknown_field(key, allowed)))

    def required(
        self,
        key: str,
        rule: Callable[Concatenate[Any, str, list[FieldError], P], R],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> R | None:
        if key not in self.obj:
            self.errors.append(FieldError(self.path(key), REQUIRED))
            return None
        return rule(self.obj[key], self.path(key), self.errors, *args, **kwargs)

    def optional(
        self,
        key: str,
        rule: Callable[Concatenate[Any, str, list[FieldError], P], R],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> R | None:
        if key not in self.obj:
            return None
        return rule(self.obj[key], self.path(key), self.errors, *args, **kwargs)


def control_error(value: str, *, name: bool) -> str | None:
    """The message for a control character in `value`; names (identifiers, tags, keys)
    also refuse tab and line breaks."""
    found = (_CONTROL_IN_NAME if name else _CONTROL_IN_TEXT).search(value)
    return None if found is None else control_character(found.start())


def present[T](value: T | None) -> T:
    """A value that validation guaranteed (no errors were recorded for it)."""
    if value is None:
        raise AssertionError("validated value missing although no error was recorded")
    return value


# --- rules ---------------------------------------------------------------------------------


def obj(value: Any, path: str, errors: list[FieldError]) -> Mapping[str, Any] | None:
    if isinstance(value, Mapping):
        return value
    errors.append(FieldError(path, must_be("ein Objekt", value)))
    return None


def array(
    value: Any,
    path: str,
    errors: list[FieldError],
    *,
    min_items: int = 0,
    max_items: int | None = None,
) -> list[Any] | None:
    if not isinstance(value, list | tuple):
        errors.append(FieldError(path, must_be("eine Liste", value)))
        return None
    if len(value) < min_items:
        errors.append(FieldError(path, too_few_items(min_items)))
        return None
    if max_items is not None and len(value) > max_items:
        errors.append(FieldError(path, too_many_items(max_items, len(value))))
        return None
    return list(value)


def _int_text(value: int) -> str | None:
    try:
        return str(value)
    except ValueError:  # too many digits to convert: longer than any limit anyway
        return None


def string_or_int(
    value: Any,
    path: str,
    errors: list[FieldError],
    *,
    max_len: int = IDENTITY_MAX_LEN,
    allow_empty: bool = False,
) -> str | None:
    """String or integer (not bool) -> trimmed string."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        errors.append(FieldError(path, must_be("eine Zeichenkette oder Ganzzahl", value)))
        return None
    raw = value if isinstance(value, str) else _int_text(value)
    if raw is None:
        errors.append(FieldError(path, too_long(max_len, None)))
        return None
    text = raw.strip()
    if not text and not allow_empty:
        errors.append(FieldError(path, NOT_BLANK))
        return None
    if len(text) > max_len:
        errors.append(FieldError(path, too_long(max_len, len(text))))
        return None
    problem = control_error(text, name=True)
    if problem is not None:
        errors.append(FieldError(path, problem))
        return None
    return text


def identity(value: Any, path: str, errors: list[FieldError]) -> str | None:
    """`nutzer`, `agent`, `vk_referenz_id`: string or integer, non-empty, <= 200 chars."""
    return string_or_int(value, path, errors, max_len=IDENTITY_MAX_LEN)


def scope(value: Any, path: str, errors: list[FieldError]) -> str | None:
    """`scope`, `scope_vk`: string or integer, <= 200 chars, empty allowed."""
    return string_or_int(value, path, errors, max_len=IDENTITY_MAX_LEN, allow_empty=True)


def identity_or_list(
    value: Any, path: str, errors: list[FieldError], *, max_items: int
) -> list[str] | None:
    """A single identity or a non-empty list of them -> list, duplicates removed."""
    if not isinstance(value, list | tuple):
        if isinstance(value, bool) or not isinstance(value, str | int):
            kind = "eine Zeichenkette, Ganzzahl oder Liste davon"
            errors.append(FieldError(path, must_be(kind, value)))
            return None
        single = identity(value, path, errors)
        return None if single is None else [single]
    items = array(value, path, errors, min_items=1, max_items=max_items)
    if items is None:
        return None
    before = len(errors)
    result: list[str] = []
    for index, item in enumerate(items):
        text = identity(item, index_path(path, index), errors)
        if text is not None and text not in result:
            result.append(text)
    return result if len(errors) == before else None


def text(value: Any, path: str, errors: list[FieldError], *, max_len: int) -> str | None:
    """Free text: a string, not blank, at most `max_len` characters; returned unchanged."""
    if not isinstance(value, str):
        errors.append(FieldError(path, must_be("eine Zeichenkette", value)))
        return None
    if not value.strip():
        errors.append(FieldError(path, NOT_BLANK))
        return None
    if len(value) > max_len:
        errors.append(FieldError(path, too_long(max_len, len(value))))
        return None
    problem = control_error(value, name=False)
    if problem is not None:
        errors.append(FieldError(path, problem))
        return None
    return value


def nullable_string(value: Any, path: str, errors: list[FieldError], *, max_len: int) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        errors.append(FieldError(path, must_be("eine Zeichenkette oder null", value)))
        return None
    if len(value) > max_len:
        errors.append(FieldError(path, too_long(max_len, len(value))))
        return None
    problem = control_error(value, name=True)
    if problem is not None:
        errors.append(FieldError(path, problem))
        return None
    return value


# The write flag that stores a memory even as a near-duplicate (insert entries, REST POST
# /api/memory, remember; services/duplicates.py).
DUPLICATE_FLAG: Final = "duplikat_erlaubt"


def boolean(value: Any, path: str, errors: list[FieldError]) -> bool | None:
    """A JSON boolean (not 0/1, not a string)."""
    if not isinstance(value, bool):
        errors.append(FieldError(path, must_be("true oder false", value)))
        return None
    return value


def integer(
    value: Any,
    path: str,
    errors: list[FieldError],
    *,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int | None:
    """An integer (not bool, not 1.0) within the inclusive bounds."""
    if isinstance(value, bool) or not isinstance(value, int):
        errors.append(FieldError(path, must_be("eine Ganzzahl", value)))
        return None
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        if maximum is None:
            errors.append(FieldError(path, below_minimum(minimum, value)))
        else:
            errors.append(FieldError(path, out_of_range(minimum, maximum, value)))
        return None
    return value


def record_id(value: Any, path: str, errors: list[FieldError]) -> int | None:
    """A stored record's integer ID: 1 .. 2^63-1."""
    return integer(value, path, errors, minimum=1, maximum=ID_MAX)


def _number_error(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return must_be("eine Zahl", value)
    if isinstance(value, float) and not math.isfinite(value):
        return NOT_FINITE
    return None


def number(value: Any, path: str, errors: list[FieldError]) -> int | float | None:
    """A finite JSON number (not bool)."""
    problem = _number_error(value)
    if problem is not None:
        errors.append(FieldError(path, problem))
        return None
    result: int | float = value
    return result


def score(
    value: Any, path: str, errors: list[FieldError], *, minimum: Decimal, maximum: Decimal
) -> Decimal | None:
    """A finite number within [minimum, maximum] -> Decimal(str(value))."""
    checked = number(value, path, errors)
    if checked is None:
        return None
    if not minimum <= checked <= maximum:
        errors.append(FieldError(path, out_of_range(minimum, maximum, checked)))
        return None
    return Decimal(str(checked))


def enum_member[E: StrEnum](
    value: Any, path: str, errors: list[FieldError], enum_type: type[E]
) -> E | None:
    allowed = [member.value for member in enum_type]
    if isinstance(value, str) and value in allowed:
        return enum_type(value)
    errors.append(FieldError(path, one_of(allowed, value)))
    return None


def constant(value: Any, path: str, errors: list[FieldError], allowed: str) -> str | None:
    if value == allowed and isinstance(value, str):
        return value
    errors.append(FieldError(path, only_value(allowed, value)))
    return None


def memory_id(value: Any, path: str, errors: list[FieldError]) -> str | None:
    """A memory ID string matching the seed pattern exactly (no trailing newline)."""
    if not isinstance(value, str):
        errors.append(FieldError(path, must_be("eine Zeichenkette", value)))
        return None
    if not MEMORY_ID_RE.fullmatch(value):
        errors.append(FieldError(path, pattern_mismatch(MEMORY_ID_PATTERN, value)))
        return None
    parsed = MemoryId.parse(value)
    if parsed is None or parsed.number > ID_MAX:
        errors.append(FieldError(path, memory_id_range(ID_MAX, value)))
        return None
    return value


def memory_id_list(value: Any, path: str, errors: list[FieldError]) -> list[str] | None:
    """Up to 100 memory IDs -> request order, duplicates removed."""
    items = array(value, path, errors, max_items=MAX_BATCH)
    if items is None:
        return None
    before = len(errors)
    result: list[str] = []
    for index, item in enumerate(items):
        checked = memory_id(item, index_path(path, index), errors)
        if checked is not None and checked not in result:
            result.append(checked)
    return result if len(errors) == before else None


def record_id_list(value: Any, path: str, errors: list[FieldError]) -> list[int] | None:
    """Up to 100 integer IDs >= 1 -> request order, duplicates removed."""
    items = array(value, path, errors, max_items=MAX_BATCH)
    if items is None:
        return None
    before = len(errors)
    result: list[int] = []
    for index, item in enumerate(items):
        checked = record_id(item, index_path(path, index), errors)
        if checked is not None and checked not in result:
            result.append(checked)
    return result if len(errors) == before else None


def tags(value: Any, path: str, errors: list[FieldError]) -> list[str] | None:
    """Tag names: trimmed, non-empty, <= 100 chars; duplicates (ignoring case) dropped."""
    items = array(value, path, errors, max_items=TAGS_MAX_ITEMS)
    if items is None:
        return None
    before = len(errors)
    result: list[str] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        item_path = index_path(path, index)
        if not isinstance(item, str):
            errors.append(FieldError(item_path, must_be("eine Zeichenkette", item)))
            continue
        name = item.strip()
        if not name:
            errors.append(FieldError(item_path, NOT_BLANK))
        elif len(name) > TAG_MAX_LEN:
            errors.append(FieldError(item_path, too_long(TAG_MAX_LEN, len(name))))
        elif (problem := control_error(name, name=True)) is not None:
            errors.append(FieldError(item_path, problem))
        elif name.casefold() not in seen:
            seen.add(name.casefold())
            result.append(name)
    return result if len(errors) == before else None


def embedding(value: Any, path: str, errors: list[FieldError]) -> list[float] | None:
    """null -> None; else 1..16384 finite numbers within float32 range -> floats.

    At most MAX_ITEM_ERRORS bad values are reported one by one; the rest are counted.
    """
    if value is None:
        return None
    if not isinstance(value, list | tuple):
        errors.append(FieldError(path, must_be("eine Liste von Zahlen oder null", value)))
        return None
    items = array(value, path, errors, min_items=1, max_items=EMBEDDING_MAX_DIM)
    if items is None:
        return None
    bad = 0
    result: list[float] = []
    for index, item in enumerate(items):
        problem = _number_error(item)
        if problem is None and abs(item) > FLOAT32_MAX:
            problem = float32_range(FLOAT32_MAX, item)
        if problem is None:
            result.append(float(item))
            continue
        bad += 1
        if bad <= MAX_ITEM_ERRORS:
            errors.append(FieldError(index_path(path, index), problem))
    if bad > MAX_ITEM_ERRORS:
        errors.append(FieldError(path, more_errors(bad - MAX_ITEM_ERRORS)))
    return None if bad else result
