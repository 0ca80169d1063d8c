"""The memory filters as query parameters, declared once for every route that filters
memories (`GET /api/memory`, `/api/memory/suche`, `/api/memory/loeschvorschau`): one
dependency that turns them into `memory_listing.ListFilters` (normalised, a time without
offset read in the instance's zone)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Final

from fastapi import Depends, Query, Request

from shared.rest.common import service_context
from shared.services.memory_api import Bucket
from shared.services.memory_listing import ListFilters
from shared.validation.requests import QUERY_MAX_LEN
from shared.validation.supersede import VERLAUF_DESCRIPTION

NAME_PATTERN: Final = r"^[a-z0-9._-]+$"  # a team or project name (a path segment)


def _filters(
    request: Request,
    pfad: Annotated[
        str | None,
        Query(
            max_length=300,
            pattern=r"^/?(users|teams|projects)(/[a-z0-9._-]+)*/?$",
            description="Bereich oder Pfad-Präfix, z. B. projects/memory-os oder "
            "projects/memory-os/decisions; area or path prefix.",
            examples=["projects/memory-os"],
        ),
    ] = None,
    bucket: Annotated[Bucket | None, Query(description="kurzzeit oder langzeit.")] = None,
    team: Annotated[
        str | None,
        Query(max_length=200, pattern=NAME_PATTERN, description="Nur der Bereich teams/<team>."),
    ] = None,
    projekt: Annotated[
        str | None,
        Query(
            max_length=200, pattern=NAME_PATTERN, description="Nur der Bereich projects/<projekt>."
        ),
    ] = None,
    agent: Annotated[str | None, Query(max_length=200, description="Verfassender Agent.")] = None,
    konto: Annotated[str | None, Query(max_length=200, description="Konto (account).")] = None,
    geraet: Annotated[str | None, Query(max_length=200, description="Gerät (device).")] = None,
    quelle: Annotated[
        str | None, Query(max_length=100, description="Quellsystem (quelle.system).")
    ] = None,
    tag: Annotated[
        list[str] | None,
        Query(max_length=20, description="Tags; mehrfach angeben = alle müssen passen."),
    ] = None,
    erstellt_ab: Annotated[
        datetime | None,
        Query(description="Erstellt ab (RFC 3339, inklusive), z. B. 2026-11-01T00:00:00Z."),
    ] = None,
    erstellt_bis: Annotated[
        datetime | None, Query(description="Erstellt vor (RFC 3339, exklusive).")
    ] = None,
    q: Annotated[
        str | None,
        Query(max_length=QUERY_MAX_LEN, description="Suchtext; text query (German/English)."),
    ] = None,
    verlauf: Annotated[bool, Query(description=VERLAUF_DESCRIPTION)] = False,
) -> ListFilters:
    return ListFilters.of(
        pfad=pfad,
        bucket=bucket,
        team=team,
        projekt=projekt,
        agent=agent,
        konto=konto,
        geraet=geraet,
        quelle=quelle,
        tags=tag or [],
        erstellt_ab=erstellt_ab,
        erstellt_bis=erstellt_bis,
        q=q,
        zone=service_context(request).settings.zone,
        verlauf=verlauf,
    )


Filters = Annotated[ListFilters, Depends(_filters)]


PageLimit = Annotated[int, Query(ge=1, le=100, description="Einträge pro Seite (1–100).")]
PageCursor = Annotated[
    str | None, Query(max_length=2000, description="naechster_cursor der vorigen Seite.")
]
