"""`/api/memory/{id}/bewertungen` (the rating log) and `/api/memory/{id}/brain` (the brain
entries a memory is linked to): part of the memory resource's document (`memory_resource`)."""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from shared.auth.principal import Principal, Scope
from shared.rest.common import AUTH_PROBLEMS, READ, NutzerParam, service_context
from shared.rest.memory_routes import IdParam
from shared.rest.problems import problem_responses
from shared.rest.security import require
from shared.services import memory_details

PREFIX: Final = "/api/memory"
BRAIN_READ: Final = Depends(require(Scope.BRAIN_READ))


class Bewertung(BaseModel):
    score: int | float
    agent: str
    nutzer: str
    datum: str = Field(description="Zeitpunkt der Bewertung (lokale Zeit der Instanz).")


class Bewertungen(BaseModel):
    """Die Bewertungen einer Erinnerung, neueste zuerst, mit laufendem Mittel."""

    ID: str
    score_avg: int | float | None
    score_count: int
    last_call: str | None = Field(description="Letzte Bewertung.")
    bewertungen: list[Bewertung]


class BrainEintrag(BaseModel):
    ID: int
    titel: str
    inhalt: str
    vk_typ: str
    vk_referenz_id: str
    tags: list[str]
    erstellt: str
    geaendert: str


class Verknuepfungen(BaseModel):
    """Die Brain-Einträge über die Entität der Erinnerung (scope, scope_vk)."""

    ID: str
    scope: str
    scope_vk: str
    eintraege: list[BrainEintrag]
    anzahl: int


router = APIRouter(prefix=PREFIX, tags=["memory"])


@router.get(
    "/{memory_id}/bewertungen",
    response_model=Bewertungen,
    summary="Bewertungen einer Erinnerung / a memory's ratings",
    description=(
        "Das Bewertungsprotokoll (neueste zuerst) mit laufendem Mittel und letzter "
        "Bewertung, wie `rate_brain_memories` sie zählt; 404 für unsichtbare Erinnerungen. "
        "The rating log with the running average."
    ),
    responses=problem_responses(*AUTH_PROBLEMS, 404, 422),
)
def ratings(
    request: Request,
    principal: Annotated[Principal, READ],
    memory_id: IdParam,
    nutzer: NutzerParam = None,
) -> dict[str, Any]:
    return memory_details.ratings(service_context(request), principal, nutzer, memory_id)


@router.get(
    "/{memory_id}/brain",
    response_model=Verknuepfungen,
    summary="Verknüpfte Brain-Einträge / linked brain entries",
    description=(
        "Die Brain-Einträge über die Entität der Erinnerung: `scope` ist ein Eintragstyp "
        "(kunde, produkt, mitarbeiter, projekt), `scope_vk` die Referenz-ID. Braucht "
        "zusätzlich `brain:read`. The brain entries about the memory's entity."
    ),
    responses=problem_responses(*AUTH_PROBLEMS, 404, 422),
)
def linked(
    request: Request,
    principal: Annotated[Principal, READ],
    _brain: Annotated[Principal, BRAIN_READ],
    memory_id: IdParam,
    nutzer: NutzerParam = None,
) -> dict[str, Any]:
    return memory_details.linked_brain_entries(
        service_context(request), principal, nutzer, memory_id
    )
