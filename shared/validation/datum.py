"""The `datum` rule: a local time in the tenant's time zone, or ISO 8601 with its offset."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, Final
from zoneinfo import ZoneInfo

from shared.validation.errors import FieldError
from shared.validation.messages import datum_format, datum_invalid, datum_nonexistent

_LOCAL_RE: Final = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2})")
# The form answers use (responses.format_local): ISO 8601 with an offset or Z, to the second.
_ISO_RE: Final = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:Z|[+-][0-9]{2}:[0-9]{2})"
)


def datum(value: Any, path: str, errors: list[FieldError], *, timezone: str) -> datetime | None:
    """`Y-m-d H:i:s` local time in `timezone`, or ISO 8601 with its offset (as the answers
    give times) -> aware UTC datetime.

    A local time that the time zone skips (spring forward) is an error; one that occurs twice
    (fall back) is taken at its first occurrence.
    """
    if not isinstance(value, str):
        errors.append(FieldError(path, datum_format(value)))
        return None
    if _ISO_RE.fullmatch(value):
        try:
            return datetime.fromisoformat(value).astimezone(UTC)
        except (ValueError, OverflowError):
            errors.append(FieldError(path, datum_invalid(value)))
            return None
    match = _LOCAL_RE.fullmatch(value)
    if match is None:
        errors.append(FieldError(path, datum_format(value)))
        return None
    try:
        year, month, day, hour, minute, second = (int(part) for part in match.groups())
        naive = datetime(year, month, day, hour, minute, second)
    except ValueError:
        errors.append(FieldError(path, datum_invalid(value)))
        return None
    zone = ZoneInfo(timezone)
    try:
        utc = naive.replace(tzinfo=zone).astimezone(UTC)
    except OverflowError:  # year 1 or 9999 pushed out of range by the offset
        errors.append(FieldError(path, datum_invalid(value)))
        return None
    if utc.astimezone(zone).replace(tzinfo=None) != naive:
        errors.append(FieldError(path, datum_nonexistent(value, timezone)))
        return None
    return utc
