"""Request bodies: one size limit, checked before parsing, and one JSON parser with depth and
number limits, for every transport (MCP server middleware, Lambda HTTP events).

Invariants:
* A body over `MAX_BODY_BYTES` is refused before a single byte is parsed. The limit equals the
  MCP SDK's own cap (4 MiB), so the SDK's plain-text 413 is never reached, and it fits a
  synchronous Lambda invoke (6 MB) with the principal added by the router.
* Parsing never raises anything but `BodyRejected`: invalid UTF-8, invalid JSON, nesting deeper
  than `MAX_JSON_DEPTH`, integers longer than Python converts, `NaN`/`Infinity` literals and
  numbers that overflow to infinity are all refused with a German message.
"""

from __future__ import annotations

import json
import math
from typing import Any, Final

MAX_BODY_BYTES: Final = 4 * 1024 * 1024
MAX_JSON_DEPTH: Final = 64

TOO_LARGE: Final = (
    f"Anfrage zu groß: höchstens {MAX_BODY_BYTES} Bytes pro Anfrage. Große Batches auf "
    "mehrere Aufrufe verteilen."
)
NOT_JSON: Final = "Der Rumpf ist kein gültiges JSON (UTF-8)."
TOO_DEEP: Final = f"JSON zu tief verschachtelt: höchstens {MAX_JSON_DEPTH} Ebenen."
NOT_FINITE: Final = (
    "JSON enthält eine nicht endliche oder zu große Zahl (NaN, Infinity, Überlauf oder mehr "
    "als 4300 Ziffern)."
)


class BodyRejected(Exception):
    """The body cannot be processed; `message` is the German answer, `status` the HTTP one."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _refuse_constant(name: str) -> Any:
    raise BodyRejected(NOT_FINITE)


def _check(value: Any) -> None:
    """Depth and finiteness of a parsed document, without recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth > MAX_JSON_DEPTH:
                raise BodyRejected(TOO_DEEP)
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            if depth > MAX_JSON_DEPTH:
                raise BodyRejected(TOO_DEEP)
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, float) and not math.isfinite(item):
            raise BodyRejected(NOT_FINITE)


def check_size(size: int) -> None:
    if size > MAX_BODY_BYTES:
        raise BodyRejected(TOO_LARGE, status=413)


def parse_json(body: bytes | str) -> Any:
    """The JSON document in `body`, or BodyRejected."""
    check_size(len(body))
    try:
        value = json.loads(body, parse_constant=_refuse_constant)
    except RecursionError as exc:
        raise BodyRejected(TOO_DEEP) from exc
    except UnicodeDecodeError as exc:
        raise BodyRejected(NOT_JSON) from exc
    except json.JSONDecodeError as exc:
        raise BodyRejected(NOT_JSON) from exc
    except ValueError as exc:  # an integer with more digits than Python converts
        raise BodyRejected(NOT_FINITE) from exc
    _check(value)
    return value


def check_document(value: Any) -> None:
    """The same depth and finiteness rules for a document that arrived already parsed
    (a Lambda event): BodyRejected if it breaks them."""
    _check(value)
