"""Maps of scalar values (`referenzfelder`, a record's reference fields): keys, values, size."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from shared.validation.errors import FieldError
from shared.validation.messages import (
    NOT_FINITE,
    empty_key,
    key_too_long,
    scalar_only,
    too_long,
    too_many_bytes,
    too_many_keys,
)
from shared.validation.rules import (
    REFERENZFELDER_MAX_BYTES,
    REFERENZFELDER_MAX_KEYS,
    control_error,
    key_path,
    obj,
)


def _scalar_error(value: Any, max_str_len: int | None) -> str | None:
    if value is None or isinstance(value, bool | int):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else NOT_FINITE
    if isinstance(value, str):
        if max_str_len is not None and len(value) > max_str_len:
            return too_long(max_str_len, len(value))
        return control_error(value, name=False)
    return scalar_only(value)


def _json_size(value: Mapping[str, Any]) -> int | None:
    try:
        encoded = json.dumps(dict(value), ensure_ascii=False, separators=(",", ":"))
    except (ValueError, TypeError, RecursionError):  # huge integers, non-JSON keys, depth
        return None
    return len(encoded.encode("utf-8"))


def scalar_map(
    value: Any,
    path: str,
    errors: list[FieldError],
    *,
    max_keys: int,
    max_key_len: int | None = None,
    max_str_len: int | None = None,
    max_bytes: int | None = None,
    echo_keys: bool = True,
) -> dict[str, Any] | None:
    """An object of scalar values (string, finite number, bool, null) -> a copy.

    Sizes are checked before anything looks at the values. With `echo_keys=False` error
    paths name a key by its position (`referenzfelder[Schlüssel 2]`), never by its text.
    """
    mapping = obj(value, path, errors)
    if mapping is None:
        return None
    if len(mapping) > max_keys:
        errors.append(FieldError(path, too_many_keys(max_keys, len(mapping))))
        return None
    if max_bytes is not None:
        size = _json_size(mapping)
        if size is None or size > max_bytes:
            errors.append(FieldError(path, too_many_bytes(max_bytes, size)))
            return None
    before = len(errors)
    for position, (key, item) in enumerate(mapping.items()):
        name = str(key)
        item_path = key_path(path, name) if echo_keys else f"{path}[Schlüssel {position}]"
        if max_key_len is not None and not name.strip():
            errors.append(FieldError(path, empty_key()))
            continue
        if max_key_len is not None and len(name) > max_key_len:
            errors.append(FieldError(item_path, key_too_long(max_key_len, len(name))))
            continue
        problem = control_error(name, name=True) or _scalar_error(item, max_str_len)
        if problem is not None:
            errors.append(FieldError(item_path, problem))
    if len(errors) != before:
        return None
    return dict(mapping)


def referenzfelder(value: Any, path: str, errors: list[FieldError]) -> dict[str, Any] | None:
    """The caller's reference data: <= 50 keys, scalar values, <= 4096 bytes as JSON."""
    return scalar_map(
        value,
        path,
        errors,
        max_keys=REFERENZFELDER_MAX_KEYS,
        max_bytes=REFERENZFELDER_MAX_BYTES,
        echo_keys=False,
    )
