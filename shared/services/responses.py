"""The contract's response envelope, built in one place for every tool."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from shared.validation.errors import FieldError


def format_local(moment: datetime | None, zone: ZoneInfo) -> str | None:
    """ISO 8601 in the configured time zone with its offset, to the second
    (`2026-12-01T11:03:23+01:00`): unambiguous beside UTC logs, and accepted back as `datum`."""
    return None if moment is None else moment.astimezone(zone).isoformat(timespec="seconds")


def number(value: Decimal | None) -> float | int | None:
    """A Decimal as a JSON number: integral values stay integers."""
    if value is None:
        return None
    if value == value.to_integral_value():
        return int(value)
    return float(value)


def success(daten: Any, referenzfelder: dict[str, Any]) -> dict[str, Any]:
    return {"erfolg": True, "daten": daten, "referenzfelder": referenzfelder}


def failure(errors: Sequence[FieldError], referenzfelder: dict[str, Any]) -> dict[str, Any]:
    return {
        "erfolg": False,
        "daten": None,
        "fehler": [error.as_dict() for error in errors],
        "referenzfelder": referenzfelder,
    }


def is_error(envelope: Mapping[str, Any]) -> bool:
    """MCP `isError` (and a non-2xx status on the HTTP tool routes): true only when nothing
    was stored — the call was refused whole, or every entry of a batch failed. A partly
    successful batch is not an error: `erfolg` false, per-entry results, the counts."""
    if envelope.get("erfolg"):
        return False
    return not envelope.get("anzahl_erfolgreich")


def entry_failure(index: int, errors: Sequence[FieldError], **fields: Any) -> dict[str, Any]:
    return {"index": index, **fields, "erfolg": False, "fehler": [e.as_dict() for e in errors]}


def with_hinweise(
    results: Sequence[dict[str, Any]], hinweise: dict[int, str]
) -> list[dict[str, Any]]:
    """Successful entries whose texts were scrubbed say so in `hinweis`."""
    return [
        {
            **result,
            "hinweis": " ".join(filter(None, (result.get("hinweis"), hinweise[result["index"]]))),
        }
        if result["erfolg"] and result["index"] in hinweise
        else dict(result)
        for result in results
    ]


def written_areas(results: Sequence[Mapping[str, Any]]) -> list[str]:
    """The areas a batch's successful entries name (`bereich`), each once."""
    return sorted({r["bereich"] for r in results if r["erfolg"] and "bereich" in r})


def batch(results: Sequence[dict[str, Any]], referenzfelder: dict[str, Any]) -> dict[str, Any]:
    """Per-entry results in request order; top-level `fehler` repeats every entry's errors."""
    ordered = sorted(results, key=lambda result: int(result["index"]))
    failed = [result for result in ordered if not result["erfolg"]]
    response: dict[str, Any] = {
        "erfolg": not failed,
        "daten": ordered,
        "anzahl_erfolgreich": len(ordered) - len(failed),
        "anzahl_fehlgeschlagen": len(failed),
    }
    if failed:
        response["fehler"] = [error for result in failed for error in result["fehler"]]
    response["referenzfelder"] = referenzfelder
    return response
