"""Value encodings both storage adapters share (SQLite columns, DynamoDB attributes).

Datetimes are integer microseconds since the Unix epoch and read back timezone-aware UTC; a
naive datetime is refused. JSON text is compact and keeps non-ASCII characters as they are.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def to_us(value: datetime) -> int:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"naive datetime {value!r}: storage needs timezone-aware datetimes")
    return (value - _EPOCH) // _MICROSECOND


def opt_us(value: datetime | None) -> int | None:
    return None if value is None else to_us(value)


def from_us(value: int) -> datetime:
    return _EPOCH + timedelta(microseconds=value)


def opt_datetime(value: int | None) -> datetime | None:
    return None if value is None else from_us(value)


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
