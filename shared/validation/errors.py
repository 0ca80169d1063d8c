"""Field errors in the contract's envelope form: {"feld", "meldung", "art"} (German).

Invariants:
- Every error carries its kind (`Art`, the service outcome), set where the error is made:
  validation errors are `ungueltig` unless the maker says otherwise. MCP envelopes and HTTP
  statuses are chosen from the kind alone (`shared/services/outcomes.py`), never from the
  wording of the German message.
- `as_dict` / `from_dict` carry the kind through envelopes and call records unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Art(StrEnum):
    """The kind of a refusal (why nothing, or this entry, was stored)."""

    INVALID = "ungueltig"  # the request breaks a rule: correct it
    FORBIDDEN = "nicht_berechtigt"  # scope, acting nutzer/agent, area, team, project
    NOT_FOUND = "nicht_gefunden"  # missing, expired or not visible: alike
    CONFLICT = "konflikt"  # changed concurrently, or the key names another call
    IN_PROGRESS = "in_bearbeitung"  # an identical call still runs: resend later
    STORAGE = "speicherfehler"  # storage failed: resending is safe
    BUDGET = "zeitbudget"  # the call's time budget ran out: resending is safe
    UNAUTHENTICATED = "nicht_angemeldet"  # no valid token (REST and HTTP transports)


@dataclass(frozen=True)
class FieldError:
    feld: str
    meldung: str
    # Not part of equality: the kind follows from where the error was made.
    art: Art = field(default=Art.INVALID, compare=False)

    def as_dict(self) -> dict[str, str]:
        return {"feld": self.feld, "meldung": self.meldung, "art": self.art.value}

    @classmethod
    def from_dict(cls, item: Mapping[str, Any], feld: str | None = None) -> FieldError:
        """An error read back from an envelope (`feld` renames its path)."""
        raw = item.get("art")
        art = Art(raw) if isinstance(raw, str) and raw in Art._value2member_map_ else Art.INVALID
        return cls(item["feld"] if feld is None else feld, item["meldung"], art)

    def renamed(self, feld: str) -> FieldError:
        return FieldError(feld, self.meldung, self.art)


class RequestRejected(Exception):
    """The whole request is invalid: nothing is processed, nothing is written."""

    def __init__(self, errors: list[FieldError]) -> None:
        super().__init__("; ".join(f"{e.feld}: {e.meldung}" for e in errors))
        self.errors = errors
