"""Typed service outcomes and their one mapping to MCP envelopes and HTTP statuses.

Invariants:
- A service refusal carries its kind (`Art`) on every `FieldError`, set where the error is
  made (validation, authorization, storage, the retry layer); an `ApiRefused` carries the
  kind of the whole refusal. Nothing here or anywhere else reads a German message to
  decide a status: `tests/unit/test_outcome_seams.py` fails on a module that does.
- This is the only place that turns a kind into an HTTP status (REST problem documents and
  the tools' HTTP routes alike). MCP `isError` follows `responses.is_error` (nothing
  stored), the envelope's kinds ride in `fehler[].art`.
- Of several errors the most specific kind wins (`PRIORITY`): a request refused both for
  a rule and for the caller's rights answers 403, as before any of it is checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from shared.services import responses
from shared.validation.errors import Art, FieldError

# Most specific first; `Art.INVALID` when no error names another kind.
PRIORITY: Final = (
    Art.UNAUTHENTICATED,
    Art.FORBIDDEN,
    Art.NOT_FOUND,
    Art.CONFLICT,
    Art.IN_PROGRESS,
    Art.STORAGE,
    Art.BUDGET,
)
HTTP_STATUS: Final = {
    Art.INVALID: 422,
    Art.FORBIDDEN: 403,
    Art.NOT_FOUND: 404,
    Art.CONFLICT: 409,
    Art.IN_PROGRESS: 409,
    Art.STORAGE: 503,
    Art.BUDGET: 503,
    Art.UNAUTHENTICATED: 401,
}


class ApiRefused(Exception):
    """The operation was refused; nothing was written."""

    def __init__(self, refusal: Art, errors: Sequence[FieldError]) -> None:
        super().__init__(refusal.value)
        self.refusal = refusal
        self.errors = list(errors)

    @property
    def status(self) -> int:
        return HTTP_STATUS[self.refusal]


def art_of_status(status: int) -> Art:
    """The kind of a transport's own refusal (401 token, 403 scope, 404 path, 4xx frame)."""
    return next((art for art, code in HTTP_STATUS.items() if code == status), Art.INVALID)


def art_of(errors: Iterable[FieldError]) -> Art:
    """The kind of a refusal made of these errors (the most specific one)."""
    kinds = {error.art for error in errors}
    return next((art for art in PRIORITY if art in kinds), Art.INVALID)


def refused(errors: Sequence[FieldError]) -> ApiRefused:
    return ApiRefused(art_of(errors), errors)


def envelope_errors(envelope: Mapping[str, Any]) -> list[FieldError]:
    """The typed errors of a (whole-call or entry) envelope."""
    return [FieldError.from_dict(item) for item in envelope.get("fehler") or []]


def envelope_status(envelope: Mapping[str, Any]) -> int:
    """The HTTP twin of MCP `isError`: 200 whenever something was stored (a partly
    successful batch too: the body has the per-entry results), else the status of the
    refusal's kind (403 scope or rights, 404, 409 conflict or still running, 422, 503)."""
    if not responses.is_error(envelope):
        return 200
    return HTTP_STATUS[art_of(envelope_errors(envelope))]
