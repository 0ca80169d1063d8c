"""Field errors in the contract's envelope form: {"feld": ..., "meldung": ...} (German)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FieldError:
    feld: str
    meldung: str

    def as_dict(self) -> dict[str, str]:
        return {"feld": self.feld, "meldung": self.meldung}


class RequestRejected(Exception):
    """The whole request is invalid: nothing is processed, nothing is written."""

    def __init__(self, errors: list[FieldError]) -> None:
        super().__init__("; ".join(f"{e.feld}: {e.meldung}" for e in errors))
        self.errors = errors
