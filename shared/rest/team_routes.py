"""`/api/identitaet` (who a call acts as) and `/api/teams` (the caller's teams): thin routes
over `shared.services.caller_api`, with their own OpenAPI document."""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, Field

from shared.auth.principal import Principal
from shared.rest.common import AUTH_PROBLEMS, READ, NutzerParam, Resource, service_context
from shared.rest.problems import problem_responses
from shared.services import caller_api
from shared.validation.paths import PATH_SEGMENT

PREFIX: Final = "/api/teams"

DESCRIPTION: Final = """\
Wer ein Aufruf ist und in welchen Teams: `GET /api/identitaet` nennt den handelnden
`nutzer`, Agent, Scopes, Teams, Projekte und die lesbaren Bereiche; `GET /api/teams` die
Teams des Tokens (Claim `teams`). Teammitglieder verwaltet der Identitätsanbieter.

Who a call acts as, and its teams (from the token's `teams` claim).

**Anmeldung / auth:** `Authorization: Bearer <token>`, Scope `memory:read`. Ein Team, in dem
der Aufrufer nicht ist, und eines, das es nicht gibt, bekommen dieselbe 404.
"""


class Identitaet(BaseModel):
    """Der handelnde nutzer und was sein Token ihm gibt."""

    nutzer: str
    agent: str
    subjekt: str
    konto: str | None
    geraet: str | None
    scopes: list[str]
    teams: list[str]
    projekte: list[str] = Field(description="Projekte, deren Mitglied der nutzer ist.")
    bereiche: list[str] = Field(description="Alle Bereiche, die der Aufruf lesen darf.")
    darf_als_jeder_nutzer: bool = Field(description="Das Token darf als jeder nutzer handeln.")


class Team(BaseModel):
    team: str
    bereich: str
    mitglieder_hinweis: str


class Teams(BaseModel):
    teams: list[Team]
    anzahl: int


router = APIRouter(tags=["teams"])


@router.get(
    "/api/identitaet",
    response_model=Identitaet,
    summary="Wer handelt / who is calling",
    description="Der handelnde nutzer, sein Agent, Scopes, Teams, Projekte, lesbare Bereiche.",
    responses=problem_responses(*AUTH_PROBLEMS, 422),
)
def identity(
    request: Request, principal: Annotated[Principal, READ], nutzer: NutzerParam = None
) -> dict[str, Any]:
    return caller_api.identity(service_context(request), principal, nutzer)


@router.get(
    PREFIX,
    response_model=Teams,
    summary="Meine Teams / my teams",
    description="Die Teams des Tokens (Claim teams), nach Namen. The token's teams.",
    responses=problem_responses(*AUTH_PROBLEMS, 422),
)
def list_teams(principal: Annotated[Principal, READ], nutzer: NutzerParam = None) -> Any:
    return caller_api.list_teams(principal, nutzer)


@router.get(
    PREFIX + "/{team}",
    response_model=Team,
    summary="Ein Team / one team",
    description="Ein Team des Aufrufers; jedes andere: 404 (wie ein unbekanntes).",
    responses=problem_responses(*AUTH_PROBLEMS, 404, 422),
)
def get_team(
    principal: Annotated[Principal, READ],
    team: Annotated[
        str,
        Path(max_length=200, pattern=f"^{PATH_SEGMENT.pattern}$", examples=["support"]),
    ],
    nutzer: NutzerParam = None,
) -> Any:
    return caller_api.get_team(principal, nutzer, team)


RESOURCE: Final = Resource(
    prefix=PREFIX,
    router=router,
    title="Brain Identity and Teams API",
    summary="Wer handelt, und seine Teams / who is calling, and their teams",
    description=DESCRIPTION,
    tag="teams",
    tag_description="Identität und Teams / identity and teams",
    models=(),
)
