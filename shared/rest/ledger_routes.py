"""`/api/ledger`: the `ledger` tool over REST (issue 14) — book, reverse, pay and query.

Thin: the scope of each route is the tool's rule for its action (`ledger_api.needed_scope`),
the work is `shared.services.ledger_api` (the tool's dispatcher, models and service), off
the event loop. Its own OpenAPI document (`/api/ledger/openapi.json`) and page.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response
from pydantic import BaseModel

from shared.auth.principal import Principal
from shared.ledger.model import LedgerArt, LedgerStatus
from shared.ledger.requests import ABFRAGE_LIMIT_DEFAULT, ABFRAGE_LIMIT_MAX, TEXT_MAX_LEN
from shared.rest.common import AUTH_PROBLEMS, Resource, json_body, request_body, service_context
from shared.rest.ledger_models import (
    BuchungenIn,
    LedgerAbfrage,
    SchreibAntwort,
    StornosIn,
    ZahlungenIn,
)
from shared.rest.problems import problem_responses
from shared.rest.security import require
from shared.services import ledger_api
from shared.tools.catalog import TOOLS
from shared.validation import rules
from shared.validation.memory_requests import PATH_MAX_LEN

PREFIX: Final = "/api/ledger"

DESCRIPTION: Final = """\
Das strukturierte, unveränderliche Hauptbuch von Brain über REST — dasselbe wie das MCP-Tool
`ledger` (dieselben Felder, Regeln, Scopes, Bereiche und Daten): Ausgaben, Einnahmen,
Umbuchungen und Zahlungserinnerungen mit exakten Dezimalbeträgen. Nichts wird
überschrieben: Korrekturen sind Stornos, Zahlungen eigene Einträge.

The ledger over REST, the same as the `ledger` MCP tool: book, reverse, pay, query.

**Anmeldung / auth:** `Authorization: Bearer <token>`; Abfragen `memory:read`, Buchen,
Stornieren und Bezahlen `memory:write`. Jede Anfrage handelt als der eigene nutzer des Tokens;
Verfasser, Agent, Konto und Gerät kommen aus dem Token.

**Bereiche / areas:** `path` wie bei `remember`: `users/<nutzer>/…`, `teams/<team>/…`,
`projects/<projekt>/…` (nur Mitglieder; `create_project` legt ein fehlendes Projekt an).

**Wiederholen / retries:** Dieselbe Anfrage (oder derselbe `Idempotency-Key`) bucht innerhalb
des Idempotenzfensters nichts doppelt und bekommt die erste Antwort.

**Antworten / answers:** Schreiben liefert ein Ergebnis je Eintrag (`201` alle gebucht, `200`
nur ein Teil); wurde nichts gebucht, ein RFC-9457-Problem (`application/problem+json`) mit
deutscher Meldung und Feldpfad (`eintraege[0].betrag`).
"""

BOOK: Final = Depends(require(ledger_api.needed_scope("buchen")))
REVERSE: Final = Depends(require(ledger_api.needed_scope("storno")))
PAY: Final = Depends(require(ledger_api.needed_scope("bezahlen")))
QUERY: Final = Depends(require(ledger_api.needed_scope(ledger_api.QUERY_ACTION)))
WRITE_PROBLEMS: Final = problem_responses(*AUTH_PROBLEMS, 400, 404, 409, 415, 422, 503)
PARTIAL: Final[dict[int | str, dict[str, Any]]] = {
    200: {
        "model": SchreibAntwort,
        "description": "Nur ein Teil wurde gebucht: Ergebnis je Eintrag; partly booked.",
    }
}

IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        max_length=rules.IDENTITY_MAX_LEN,
        description=(
            "Name des logischen Schreibvorgangs (wird zu referenzfelder.idempotenz_schluessel): "
            "erneut senden bucht nichts doppelt. Ohne Schlüssel gilt das für denselben Inhalt. "
            "Retry-safe key of this write."
        ),
    ),
]
DateParam = Annotated[
    str | None,
    Query(
        max_length=10,
        json_schema_extra={"format": "date"},
        description="Datum JJJJ-MM-TT.",
        examples=["2026-11-30"],
    ),
]
TextParam = Annotated[str | None, Query(max_length=TEXT_MAX_LEN)]

_TOOL_EXAMPLE: Final = TOOLS[ledger_api.TOOL].example  # the tool's own help example
BOOK_EXAMPLES: Final = {
    "de": {
        "summary": "Ausgabe mit Zahlungserinnerung im Projekt (Beispiel des Tools)",
        "value": {
            "eintraege": _TOOL_EXAMPLE["inhalt"]["eintraege"],
            "referenzfelder": _TOOL_EXAMPLE["referenzfelder"],
        },
    },
    "en": {
        "summary": "Income into your own area (English)",
        "value": {
            "eintraege": [
                {
                    "art": "einnahme",
                    "betrag": "1200.00",
                    "waehrung": "USD",
                    "datum": "2026-11-30",
                    "gegenpartei": "Example Corp",
                    "kategorie": "consulting",
                    "path": "users/dev/finance",
                }
            ]
        },
    },
}
REVERSE_EXAMPLES: Final = {
    "de": {
        "summary": "Buchung 1 stornieren",
        "value": {"eintraege": [{"ID": 1, "grund": "doppelt gebucht"}]},
    }
}
PAY_EXAMPLES: Final = {
    "de": {
        "summary": "Erinnerung 1 als bezahlt markieren",
        "value": {"eintraege": [{"ID": 1, "bezahlt_am": "2026-12-02"}]},
    }
}

router = APIRouter(prefix=PREFIX, tags=["ledger"])


def _write_route(
    resource: str,
    scope: Any,
    model: type[BaseModel],
    examples: dict[str, Any],
    summary: str,
    description: str,
) -> None:
    """POST /api/ledger/<resource>: one write action of the tool."""

    def write(
        request: Request,
        response: Response,
        body: Annotated[Any, Body()],
        idempotency_key: IdempotencyKey = None,
        principal: Principal = scope,  # a default: the closure's dependency, not a string
    ) -> dict[str, Any]:
        status, answer = ledger_api.write(
            service_context(request), principal, resource, json_body(body), idempotency_key
        )
        response.status_code = status
        return answer

    router.add_api_route(
        f"/{resource}",
        write,
        methods=["POST"],
        status_code=201,
        response_model=SchreibAntwort,
        summary=summary,
        description=description,
        responses={**PARTIAL, **WRITE_PROBLEMS},
        openapi_extra=request_body(model, examples, "application/json"),
        name=f"ledger_{resource}",
    )


_write_route(
    "buchungen",
    BOOK,
    BuchungenIn,
    BOOK_EXAMPLES,
    "Buchen / book entries",
    "1–100 Buchungen (aktion buchen): art, betrag als Dezimaltext, waehrung (ISO 4217), "
    "datum, gegenpartei, kategorie, path; optional beschreibung, faellig_am (Erinnerung), "
    "status, iban (geprüft, maskiert), create_project, referenzfelder. Book 1-100 entries.",
)
_write_route(
    "stornos",
    REVERSE,
    StornosIn,
    REVERSE_EXAMPLES,
    "Stornieren / reverse entries",
    "Je Eintrag {ID, grund}: ein neuer Eintrag kehrt die Buchung um (storno_von); die "
    "Buchung bleibt unverändert, ein Storno je Buchung. Appends a reversal.",
)
_write_route(
    "zahlungen",
    PAY,
    ZahlungenIn,
    PAY_EXAMPLES,
    "Bezahlen / mark reminders paid",
    "Je Eintrag {ID, bezahlt_am, notiz}: ein neuer Eintrag hält fest, wer wann bezahlt "
    "hat; einmal je Buchung, nicht nach einem Storno. Records a payment.",
)


@router.get(
    "",
    response_model=LedgerAbfrage,
    summary="Abfragen / query entries, sums and reminders",
    description=(
        "Filter UND-verknüpft (aktion abfragen): exakte Summen je Währung und je Monat/"
        "Kategorie, Einträge neueste zuerst, mit faellig_bis die offenen Erinnerungen, älteste "
        "zuerst. Entries, exact sums and due reminders of the areas you may read."
    ),
    responses=problem_responses(*AUTH_PROBLEMS, 422),
)
def query(
    request: Request,
    principal: Annotated[Principal, QUERY],
    path: Annotated[
        str | None,
        Query(
            max_length=PATH_MAX_LEN,
            description="Bereich oder Pfad-Präfix, z. B. projects/memory-os; Standard: alle.",
            examples=["projects/memory-os"],
        ),
    ] = None,
    von: DateParam = None,
    bis: DateParam = None,
    kategorie: TextParam = None,
    gegenpartei: TextParam = None,
    status: Annotated[LedgerStatus | None, Query(description="offen oder bezahlt.")] = None,
    waehrung: Annotated[
        str | None, Query(max_length=3, description="ISO 4217, z. B. EUR.", examples=["EUR"])
    ] = None,
    art: Annotated[LedgerArt | None, Query(description="ausgabe, einnahme, umbuchung.")] = None,
    faellig_bis: DateParam = None,
    limit: Annotated[
        int,
        Query(ge=1, le=ABFRAGE_LIMIT_MAX, description="Höchstzahl gelisteter Einträge."),
    ] = ABFRAGE_LIMIT_DEFAULT,
) -> Any:
    filters = {
        "path": path,
        "von": von,
        "bis": bis,
        "kategorie": kategorie,
        "gegenpartei": gegenpartei,
        "status": None if status is None else status.value,
        "waehrung": waehrung,
        "art": None if art is None else art.value,
        "faellig_bis": faellig_bis,
        "limit": limit,
    }
    return ledger_api.query(service_context(request), principal, filters)


RESOURCE: Final = Resource(
    prefix=PREFIX,
    router=router,
    title="Brain Ledger API",
    summary="Hauptbuch über REST / the ledger over REST",
    description=DESCRIPTION,
    tag="ledger",
    tag_description="Buchungen, Stornos, Zahlungen, Abfragen / bookings, reversals, payments",
    models=(BuchungenIn, StornosIn, ZahlungenIn),
)
