"""`/api/memory/suche` (ranked search with filters), `/api/memory/loeschvorschau` and
`/api/memory/loeschungen` (bulk delete by a filter after a preview): part of the memory
resource's document (`memory_resource`), thin like its other routes."""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Body, Header, Request
from pydantic import BaseModel, ConfigDict, Field

from shared.auth.principal import Principal
from shared.rest.common import (
    AUTH_PROBLEMS,
    READ,
    WRITE,
    NutzerParam,
    json_body,
    request_body,
    service_context,
)
from shared.rest.memory_filters import Filters, PageCursor, PageLimit
from shared.rest.memory_models import MemoryOut
from shared.rest.problems import problem_responses
from shared.services import memory_bulk, memory_search_api
from shared.services.outcomes import ApiRefused
from shared.validation import rules
from shared.validation.errors import Art, FieldError

PREFIX: Final = "/api/memory"


class Treffer(MemoryOut):
    """Ein Suchtreffer: die Erinnerung, ihre Relevanz und welche Signale sie fanden."""

    relevanz: float = Field(description="BM25 (nur Wörter) oder fusioniert (0, 1].")
    treffer_durch: list[str] = Field(description="woerter, vektor; the signals that found it.")


class Suchseite(BaseModel):
    """Eine Seite der Rangliste, beste zuerst."""

    treffer: list[Treffer]
    anzahl: int
    naechster_cursor: str | None = Field(description="Nächste Seite; null am Ende.")
    ende_der_rangliste: bool = Field(
        description=f"Die Filter wurden auf die besten {memory_search_api.SEARCH_DEPTH} "
        "Treffer angewandt, und diese sind ausgeschöpft."
    )


class Vorschaueintrag(BaseModel):
    ID: str
    kurzbeschreibung: str
    bereich: str
    pfad: str
    bucket: str
    erstellt: str


class Loeschvorschau(BaseModel):
    """Wie viele Erinnerungen der Filter trifft und welche zuerst gelöscht würden."""

    anzahl: int = Field(description="Treffer des Filters (genau, wenn anzahl_genau).")
    anzahl_genau: bool
    ids: list[str] = Field(description="Die ersten Treffer: diese an /loeschungen senden.")
    eintraege: list[Vorschaueintrag]
    hoechstens_je_loeschung: int


class LoeschungenIn(BaseModel):
    """Die IDs aus der Vorschau / the IDs of the preview."""

    model_config = ConfigDict(extra="forbid")

    ids: list[str] = Field(min_length=1, max_length=rules.MAX_BATCH, examples=[["longterm_3"]])


class Loeschergebnis(BaseModel):
    geloescht: list[str]
    nicht_gefunden: list[str] = Field(description="Fehlt, oder für diesen Aufruf unsichtbar.")
    anzahl_geloescht: int


router = APIRouter(prefix=PREFIX, tags=["memory"])


@router.get(
    "/suche",
    response_model=Suchseite,
    summary="Erinnerungen suchen (Wörter und Vektoren) / search memories",
    description=(
        "Die Suche von `search_memory` (Wörter, mit Embedder auch Vektoren; `treffer_durch` "
        "nennt die Signale) über alle lesbaren Bereiche, mit den Filtern der Liste; beste "
        "zuerst, seitenweise. `q` ist Pflicht. Ranked search with the listing's filters."
    ),
    responses=problem_responses(*AUTH_PROBLEMS, 422),
)
def search(
    request: Request,
    principal: Annotated[Principal, READ],
    filters: Filters,
    nutzer: NutzerParam = None,
    limit: PageLimit = 20,
    cursor: PageCursor = None,
) -> dict[str, Any]:
    if filters.q is None:
        raise ApiRefused(Art.INVALID, [FieldError("q", "Pflichtfeld: der Suchtext.")])
    context = service_context(request)
    return memory_search_api.search_memories(context, principal, nutzer, filters, cursor, limit)


@router.get(
    "/loeschvorschau",
    response_model=Loeschvorschau,
    summary="Vorschau einer Massenlöschung / preview a bulk delete",
    description=(
        "Wie viele Erinnerungen die Filter der Liste treffen (genau bis "
        f"{memory_bulk.COUNT_MAX}) und die IDs der ersten {rules.MAX_BATCH}, neueste zuerst; "
        "löscht nichts. How many memories the filters match, and which come first."
    ),
    responses=problem_responses(*AUTH_PROBLEMS, 422),
)
def deletion_preview(
    request: Request,
    principal: Annotated[Principal, WRITE],
    filters: Filters,
    nutzer: NutzerParam = None,
) -> dict[str, Any]:
    return memory_bulk.deletion_preview(service_context(request), principal, nutzer, filters)


@router.post(
    "/loeschungen",
    response_model=Loeschergebnis,
    summary="Mehrere Erinnerungen löschen / delete several memories",
    description=(
        "Löscht genau die gesendeten IDs (die der Vorschau), nie später geschriebene; wie "
        "`delete_brain_memories` mit Bewertungen und Embedding. Erneutes Senden (oder derselbe "
        "`Idempotency-Key`) antwortet wie beim ersten Mal. Deletes exactly these IDs."
    ),
    responses=problem_responses(*AUTH_PROBLEMS, 400, 409, 415, 422, 503),
    openapi_extra=request_body(
        LoeschungenIn,
        {"de": {"summary": "IDs der Vorschau", "value": {"ids": ["longterm_3", "shortterm_1"]}}},
        "application/json",
    ),
)
def delete_many(
    request: Request,
    principal: Annotated[Principal, WRITE],
    body: Annotated[Any, Body()],
    nutzer: NutzerParam = None,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            max_length=rules.IDENTITY_MAX_LEN,
            description="Name dieser Löschung: erneut senden antwortet wie beim ersten Mal.",
        ),
    ] = None,
) -> dict[str, Any]:
    return memory_bulk.delete_many(
        service_context(request), principal, nutzer, json_body(body), idempotency_key
    )


MODELS: Final = (LoeschungenIn,)
