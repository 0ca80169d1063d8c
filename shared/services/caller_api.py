"""Who a REST call acts as, and the caller's teams (`/api/identitaet`, `/api/teams`).

Invariants:
- Everything shown comes from the token and the project records the call may read anyway
  (`readable_areas`): the acting nutzer (`acting_caller`, as every REST call), the token's
  agent, scopes, account and device, the areas it reads. Nothing about other nutzer.
- Teams exist only as the token's claim `teams` (the identity provider keeps their members;
  Brain has no team records): a team the caller is not in and a team that does not exist get
  the same 404, so team names do not leak.
"""

from __future__ import annotations

from typing import Any, Final

from shared.auth.principal import ANY, Principal
from shared.services.areas import readable_areas
from shared.services.context import ServiceContext
from shared.services.memory_api import acting_caller
from shared.services.outcomes import ApiRefused
from shared.validation.errors import Art, FieldError

TEAM_FIELD: Final = "team"
MEMBERS_FROM_IDP: Final = (
    "Teammitglieder verwaltet der Identitätsanbieter (Claim 'teams' im Token), nicht Brain."
)


def identity(ctx: ServiceContext, principal: Principal, nutzer: str | None) -> dict[str, Any]:
    """The acting nutzer with what its token grants and the areas the call may read."""
    caller = acting_caller(principal, nutzer)
    areas = readable_areas(ctx, principal, caller.nutzer)
    return {
        "nutzer": caller.nutzer,
        "agent": caller.agent,
        "subjekt": principal.subject,
        "konto": principal.account or None,
        "geraet": principal.device or None,
        "scopes": sorted(principal.scopes),
        "teams": sorted(principal.teams),
        "projekte": sorted(area.removeprefix("projects/") for area in areas if _project(area)),
        "bereiche": sorted(areas),
        "darf_als_jeder_nutzer": ANY in principal.nutzer,
    }


def _project(area: str) -> bool:
    return area.startswith("projects/")


def _team_view(team: str) -> dict[str, Any]:
    return {"team": team, "bereich": f"teams/{team}", "mitglieder_hinweis": MEMBERS_FROM_IDP}


def list_teams(principal: Principal, nutzer: str | None) -> dict[str, Any]:
    acting_caller(principal, nutzer)  # the same identity checks as every call
    teams = [_team_view(team) for team in sorted(principal.teams)]
    return {"teams": teams, "anzahl": len(teams)}


def get_team(principal: Principal, nutzer: str | None, team: str) -> dict[str, Any]:
    acting_caller(principal, nutzer)
    if team not in principal.teams:
        message = (
            f"nicht_gefunden: Das Team '{team[:60]}' existiert nicht, oder der Nutzer ist "
            "kein Mitglied."
        )
        raise ApiRefused(Art.NOT_FOUND, [FieldError(TEAM_FIELD, message, Art.NOT_FOUND)])
    return _team_view(team)
