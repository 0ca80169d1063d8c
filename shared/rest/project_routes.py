"""`/api/projects/{projekt}/mitglieder`: a project's owner and members, read by its members,
extended and pruned by its owner (issue 9). Thin like the memory routes: scope dependency, the
service `shared.services.project_api`, the answer's model. Its own OpenAPI document."""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Body, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from shared.auth.principal import Principal
from shared.rest.common import (
    AUTH_PROBLEMS,
    READ,
    WRITE,
    NutzerParam,
    Resource,
    json_body,
    request_body,
    service_context,
)
from shared.rest.problems import problem_responses
from shared.services import project_api
from shared.validation import rules
from shared.validation.paths import PATH_SEGMENT

PREFIX: Final = "/api/projects"
NAME_MAX_LEN: Final = 200

DESCRIPTION: Final = """\
Projekte sind Bereiche (`projects/<projekt>`) mit Mitgliedern: Nur Mitglieder lesen und
schreiben dort (Erinnerungen, Ledger). Wer ein Projekt anlegt (`remember` oder
`POST /api/memory` mit `create_project`), ist sein Eigentümer und erstes Mitglied; weitere
Mitglieder fügt der Eigentümer hier hinzu (wie `brain project add-member`) und entfernt sie
wieder, oder sie kommen aus dem Token (Claim `projects`).

Projects are areas with members. The owner (its creator) adds members here; members read
the member list.

**Anmeldung / auth:** `Authorization: Bearer <token>`; Lesen `memory:read`, Hinzufügen
`memory:write`. **Fehler / errors:** RFC 9457 `application/problem+json`, deutsch, mit Feldpfad.
Ein Projekt, das nicht existiert, und eines, dessen Eigentümer der Aufrufer nicht ist, bekommen
dieselbe Antwort (403 beim Hinzufügen, 404 beim Lesen): Projektnamen werden nicht verraten.
"""


class MitgliederIn(BaseModel):
    """Die hinzuzufügenden Nutzer / the nutzer to add."""

    model_config = ConfigDict(extra="forbid")

    mitglieder: list[str | int] | str | int = Field(
        description=(
            "Ein nutzer oder eine Liste (1–100) von nutzer-IDs (Zeichenkette oder Ganzzahl, "
            "höchstens 200 Zeichen); bereits vorhandene bleiben. One or a list of nutzer IDs."
        ),
        examples=[["bob", "carla"]],
    )


class ProjektOut(BaseModel):
    """Ein Projekt mit Eigentümer und Mitgliedern / a project with owner and members."""

    projekt: str = Field(description="Name des Projekts.")
    bereich: str = Field(description="Sein Bereich, projects/<projekt>.")
    eigentuemer: str = Field(description="Eigentümer (hat das Projekt angelegt).")
    mitglieder: list[str] = Field(description="Alle Mitglieder, sortiert (mit Eigentümer).")
    angelegt: str = Field(description="Angelegt am (lokale Zeit der Instanz).")


class ProjektEintrag(BaseModel):
    """Ein Projekt des Aufrufers; aus dem Token-Claim allein ohne Eigentümer und Liste."""

    projekt: str
    bereich: str
    eigentuemer: str | None
    mitglieder: list[str]
    angelegt: str | None


class ProjektListe(BaseModel):
    projekte: list[ProjektEintrag]
    anzahl: int
    weitere: bool = Field(description=f"Mehr als {project_api.LIST_MAX} Projekte.")


ProjektParam = Annotated[
    str,
    Path(
        min_length=1,
        max_length=NAME_MAX_LEN,
        pattern=f"^{PATH_SEGMENT.pattern}$",
        description="Name des Projekts (das <projekt> von projects/<projekt>).",
        examples=["memory-os"],
    ),
]

ADD_EXAMPLES: Final = {
    "de": {"summary": "Zwei Mitglieder hinzufügen", "value": {"mitglieder": ["bob", "carla"]}},
    "en": {"summary": "Add one member", "value": {"mitglieder": "dora"}},
}

router = APIRouter(prefix=PREFIX, tags=["projekte"])


@router.get(
    "",
    response_model=ProjektListe,
    summary="Meine Projekte / my projects",
    description=(
        "Die Projekte, deren Mitglied der nutzer ist (Eintrag oder Token-Claim projects), "
        "mit Eigentümer und Mitgliedern, nach Namen. The projects you are a member of."
    ),
    responses=problem_responses(*AUTH_PROBLEMS, 422),
)
def list_projects(
    request: Request, principal: Annotated[Principal, READ], nutzer: NutzerParam = None
) -> dict[str, Any]:
    return project_api.list_projects(service_context(request), principal, nutzer)


@router.get(
    "/{projekt}/mitglieder",
    response_model=ProjektOut,
    summary="Mitglieder eines Projekts / a project's members",
    description="Eigentümer und Mitglieder; nur für Mitglieder, sonst 404. Members only.",
    responses=problem_responses(*AUTH_PROBLEMS, 404, 422),
)
def list_members(
    request: Request,
    principal: Annotated[Principal, READ],
    projekt: ProjektParam,
    nutzer: NutzerParam = None,
) -> dict[str, Any]:
    return project_api.get_project(service_context(request), principal, nutzer, projekt)


@router.post(
    "/{projekt}/mitglieder",
    response_model=ProjektOut,
    summary="Mitglieder hinzufügen (nur Eigentümer) / add members (owner only)",
    description=(
        "Der Eigentümer fügt Mitglieder hinzu; erneutes Senden ändert nichts (idempotent). "
        "Andere Aufrufer und unbekannte Projekte: 403 mit derselben Meldung. The owner adds "
        f"members (at most {rules.MAX_BATCH} per call); resending is harmless."
    ),
    responses=problem_responses(*AUTH_PROBLEMS, 400, 415, 422),
    openapi_extra=request_body(MitgliederIn, ADD_EXAMPLES, "application/json"),
)
def add_members(
    request: Request,
    principal: Annotated[Principal, WRITE],
    projekt: ProjektParam,
    body: Annotated[Any, Body()],
    nutzer: NutzerParam = None,
) -> dict[str, Any]:
    return project_api.add_members(
        service_context(request), principal, nutzer, projekt, json_body(body)
    )


@router.delete(
    "/{projekt}/mitglieder/{mitglied}",
    response_model=ProjektOut,
    summary="Mitglied entfernen (nur Eigentümer) / remove a member (owner only)",
    description=(
        "Der Eigentümer entfernt ein Mitglied (nicht sich selbst); es liest und schreibt dann "
        "nicht mehr im Projekt. Erneutes Senden ändert nichts. Andere Aufrufer und unbekannte "
        "Projekte: 403 mit derselben Meldung. The owner removes a member."
    ),
    responses=problem_responses(*AUTH_PROBLEMS, 422),
)
def remove_member(
    request: Request,
    principal: Annotated[Principal, WRITE],
    projekt: ProjektParam,
    mitglied: Annotated[
        str,
        Path(
            max_length=rules.IDENTITY_MAX_LEN,
            description="Der nutzer, der entfernt wird.",
            examples=["bob"],
        ),
    ],
    nutzer: NutzerParam = None,
) -> dict[str, Any]:
    return project_api.remove_member(service_context(request), principal, nutzer, projekt, mitglied)


RESOURCE: Final = Resource(
    prefix=PREFIX,
    router=router,
    title="Brain Projects API",
    summary="Projekte und ihre Mitglieder / projects and their members",
    description=DESCRIPTION,
    tag="projekte",
    tag_description="Projekte und Mitglieder / projects and members",
    models=(MitgliederIn,),
)
