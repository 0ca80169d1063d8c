"""RFC 9457 problem documents (`application/problem+json`): every REST error, in one place.

A problem carries the German `detail` (the first message), `fehler` with every field path
and message (the MCP envelope's shape), and for 401/403 the MCP endpoint's `WWW-Authenticate`
challenge. Pydantic's own messages (query parameters) are translated here, never shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from shared.services.outcomes import ApiRefused, art_of_status
from shared.validation import messages
from shared.validation.errors import Art, FieldError

PROBLEM_MEDIA_TYPE: Final = "application/problem+json"
PROBLEM_BASE: Final = "urn:brain:problem:"

TITLES: Final = {
    400: "Ungültige Anfrage",
    401: "Nicht angemeldet",
    403: "Nicht berechtigt",
    404: "Nicht gefunden",
    405: "Methode nicht erlaubt",
    408: "Zeitüberschreitung",
    409: "Konflikt",
    413: "Anfrage zu groß",
    415: "Falscher Medientyp",
    422: "Ungültige Felder",
    503: "Vorübergehend nicht verfügbar",
}
SLUGS: Final = {
    400: "ungueltige-anfrage",
    401: "nicht-angemeldet",
    403: "nicht-berechtigt",
    404: "nicht-gefunden",
    405: "methode-nicht-erlaubt",
    408: "zeitueberschreitung",
    409: "konflikt",
    413: "zu-gross",
    415: "medientyp",
    422: "ungueltige-felder",
    503: "nicht-verfuegbar",
}


class ProblemField(BaseModel):
    feld: str = Field(description="Feldpfad im Dokument bzw. Parametername; field path.")
    meldung: str = Field(description="Deutsche Fehlermeldung mit der verletzten Regel.")
    art: Art = Field(
        default=Art.INVALID,
        description="Art der Ablehnung (ungueltig, nicht_berechtigt, nicht_gefunden, "
        "konflikt, in_bearbeitung, speicherfehler, zeitbudget, nicht_angemeldet); kind of "
        "refusal.",
    )


class Problem(BaseModel):
    """RFC 9457 problem details (German messages)."""

    type: str = Field(description="URI der Problemart; problem type URI.")
    title: str = Field(description="Kurzer Titel (Deutsch).")
    status: int = Field(description="HTTP-Status.")
    detail: str = Field(description="Die erste Fehlermeldung (Deutsch).")
    fehler: list[ProblemField] = Field(
        description="Alle Fehler mit Feldpfad und Meldung; every error with its field path."
    )


class ApiProblem(Exception):
    """Raised anywhere in the REST layer; answered as a problem document."""

    def __init__(
        self,
        status: int,
        errors: Sequence[FieldError],
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(status)
        self.status = status
        # A transport's own refusal (token, scope, path, frame): its kind follows its status.
        kind = art_of_status(status)
        self.errors = [FieldError(e.feld, e.meldung, kind) for e in errors]
        self.headers = dict(headers or {})


def problem_body(status: int, errors: Sequence[FieldError]) -> dict[str, Any]:
    """The problem document of `status` with these field errors."""
    fehler = [error.as_dict() for error in errors] or [
        FieldError("", TITLES.get(status, "Fehler"), art_of_status(status)).as_dict()
    ]
    return {
        "type": PROBLEM_BASE + SLUGS.get(status, "fehler"),
        "title": TITLES.get(status, "Fehler"),
        "status": status,
        "detail": fehler[0]["meldung"],
        "fehler": fehler,
    }


def problem_response(
    status: int, errors: Sequence[FieldError], headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        problem_body(status, errors),
        status_code=status,
        headers=dict(headers or {}),
        media_type=PROBLEM_MEDIA_TYPE,
    )


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` entries for these error statuses."""
    documented: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        entry: dict[str, Any] = {
            "description": TITLES[status],
            "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
        if status in (401, 403):
            entry["headers"] = {
                "WWW-Authenticate": {
                    "description": "Bearer-Challenge wie am MCP-Endpunkt (RFC 6750, RFC 9728).",
                    "schema": {"type": "string"},
                }
            }
        documented[status] = entry
    return documented


# --- pydantic errors (query and path parameters) in German ---------------------------------


def _german(error: Mapping[str, Any]) -> str:
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    value = error.get("input")
    if kind == "missing":
        return messages.REQUIRED
    if kind == "json_invalid":
        return f"Kein gültiges JSON: {ctx.get('error', 'Syntaxfehler')}."
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return messages.must_be("eine Ganzzahl", value)
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        bound = next(iter(ctx.values()), "?")
        relation = {
            "greater_than_equal": "mindestens",
            "less_than_equal": "höchstens",
            "greater_than": "größer als",
            "less_than": "kleiner als",
        }[kind]
        return f"Muss {relation} {bound} sein (erhalten: {messages.echo(value)})."
    if kind == "string_too_long":
        return messages.too_long(int(ctx.get("max_length", 0)), len(str(value)))
    if kind == "string_too_short":
        return messages.NOT_BLANK
    if kind in ("enum", "literal_error"):
        expected = str(ctx.get("expected", "")).replace("'", "")
        return f"Muss einer der Werte {expected} sein (erhalten: {messages.echo(value)})."
    if kind == "string_pattern_mismatch":
        return messages.pattern_mismatch(str(ctx.get("pattern", "")), str(value))
    if kind.startswith("datetime") or kind.startswith("date"):
        return (
            "Muss ein Zeitpunkt nach RFC 3339 sein, z. B. 2026-11-30T14:05:00+01:00 "
            f"(erhalten: {messages.echo(value)})."
        )
    if kind in ("list_type", "too_long"):
        return messages.must_be("eine Liste mit höchstens den erlaubten Einträgen", value)
    return f"Ungültiger Wert (erhalten: {messages.echo(value)})."


def _location(error: Mapping[str, Any]) -> str:
    if error.get("type") == "json_invalid":
        return ""
    loc = [str(part) for part in error.get("loc", ()) if part not in ("query", "path", "body")]
    return ".".join(loc)


def install_problem_handlers(app: FastAPI) -> None:
    async def on_problem(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiProblem)
        return problem_response(exc.status, exc.errors, exc.headers)

    async def on_refused(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiRefused)
        return problem_response(exc.status, exc.errors)

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        raw = exc.errors()
        errors = [FieldError(_location(e), _german(e)) for e in raw]
        malformed = any(e.get("type") == "json_invalid" for e in raw)
        return problem_response(400 if malformed else 422, errors)

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        messages = {
            404: (
                "Diesen Pfad gibt es nicht. Die REST-API liegt unter /api/memory, "
                "/api/ledger und /api/projects/{projekt}/mitglieder (Dokumentation: "
                "/docs/api/memory, /docs/api/ledger, /docs/api/projects)."
            ),
            405: f"Methode {request.method} ist hier nicht erlaubt.",
        }
        message = messages.get(exc.status_code, TITLES.get(exc.status_code, "Fehler"))
        return problem_response(
            exc.status_code,
            [FieldError("", message, art_of_status(exc.status_code))],
            getattr(exc, "headers", None),
        )

    app.add_exception_handler(ApiProblem, on_problem)
    app.add_exception_handler(ApiRefused, on_refused)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
