"""Project members over REST (`/api/projects/{projekt}/mitglieder`, issue 9).

Invariants:
- The rules are the areas module's (`add_project_members`, the same call as the CLI's
  `brain project add-member`): only the project's owner adds members; a project that does
  not exist and one the caller does not own get the same refusal (403), so names do not
  leak. Member IDs are checked there (`parse_members`): identities, no credentials.
- The member list is shown to members only (by record or by the token's `projects`
  claim); everyone else gets the 404 a missing project gets.
- The call acts as one nutzer (`acting_caller`: the `nutzer` parameter, default the
  token's own), like every REST call.
- The list of one's projects (`list_projects`) shows only projects the acting nutzer is a
  member of, as the member list does.
- Adding and removing are idempotent (members already in stay, non-members are ignored), so
  a resend is harmless. The owner cannot be removed.
"""

from __future__ import annotations

from typing import Any, Final

from shared.auth.principal import Principal
from shared.domain import Project
from shared.services import responses
from shared.services.areas import MEMBERS_FIELD, add_project_members, remove_project_members
from shared.services.context import ServiceContext
from shared.services.memory_api import acting_caller, refusal_of
from shared.services.outcomes import ApiRefused
from shared.validation import messages, rules
from shared.validation.errors import Art, FieldError, RequestRejected
from shared.validation.rules import Fields

PROJEKT_FIELD: Final = "projekt"
LIST_MAX: Final = 100


def project_view(ctx: ServiceContext, project: Project) -> dict[str, Any]:
    return {
        "projekt": project.name,
        "bereich": f"projects/{project.name}",
        "eigentuemer": project.owner,
        "mitglieder": sorted(project.members),
        "angelegt": responses.format_local(project.created_at, ctx.settings.zone),
    }


def _not_found() -> ApiRefused:
    message = (
        "nicht_gefunden: Das Projekt existiert nicht, oder der handelnde Nutzer ist kein Mitglied."
    )
    return ApiRefused(Art.NOT_FOUND, [FieldError(PROJEKT_FIELD, message, Art.NOT_FOUND)])


def get_project(
    ctx: ServiceContext, principal: Principal, nutzer: str | None, projekt: str
) -> dict[str, Any]:
    """GET: the project with its owner and members, for its members (one read)."""
    caller = acting_caller(principal, nutzer)
    found = ctx.storage.get_project(principal.tenant, projekt)
    if found is None:
        raise _not_found()
    if caller.nutzer not in found.members and projekt not in principal.projects:
        raise _not_found()
    return project_view(ctx, found)


def list_projects(ctx: ServiceContext, principal: Principal, nutzer: str | None) -> dict[str, Any]:
    """GET /api/projects: the projects the acting nutzer is a member of (by record or by the
    token's `projects` claim), by name, at most `LIST_MAX`; one read per project record.
    A claimed project without a record has no owner and lists no members."""
    caller = acting_caller(principal, nutzer)
    names = sorted(ctx.storage.projects_of(principal.tenant, caller.nutzer) | principal.projects)
    views = []
    for name in names[:LIST_MAX]:
        found = ctx.storage.get_project(principal.tenant, name)
        if found is not None and (caller.nutzer in found.members or name in principal.projects):
            views.append(project_view(ctx, found))
        elif found is None and name in principal.projects:
            views.append(_claimed_view(name))
    return {"projekte": views, "anzahl": len(views), "weitere": len(names) > LIST_MAX}


def _claimed_view(name: str) -> dict[str, Any]:
    return {
        "projekt": name,
        "bereich": f"projects/{name}",
        "eigentuemer": None,
        "mitglieder": [],
        "angelegt": None,
    }


def add_members(
    ctx: ServiceContext, principal: Principal, nutzer: str | None, projekt: str, body: Any
) -> dict[str, Any]:
    """POST: the owner adds `mitglieder`; answers the project with all its members."""
    caller = acting_caller(principal, nutzer)
    errors: list[FieldError] = []
    item = rules.obj(body, "", errors)
    if item is not None:
        fields = Fields(item, "", errors)
        fields.reject_unknown((MEMBERS_FIELD,))
        if MEMBERS_FIELD not in item:
            errors.append(FieldError(MEMBERS_FIELD, messages.REQUIRED))
    if errors:
        raise ApiRefused(Art.INVALID, errors)
    assert item is not None
    try:
        project = add_project_members(
            ctx, principal.tenant, caller.nutzer, projekt, item[MEMBERS_FIELD]
        )
    except RequestRejected as rejected:
        raise _refusal(rejected) from rejected
    return project_view(ctx, project)


def remove_member(
    ctx: ServiceContext, principal: Principal, nutzer: str | None, projekt: str, member: str
) -> dict[str, Any]:
    """DELETE: the owner removes one member (never itself); answers the project."""
    caller = acting_caller(principal, nutzer)
    try:
        project = remove_project_members(ctx, principal.tenant, caller.nutzer, projekt, member)
    except RequestRejected as rejected:
        raise _refusal(rejected, member_field="mitglied") from rejected
    return project_view(ctx, project)


def _refusal(rejected: RequestRejected, member_field: str | None = None) -> ApiRefused:
    """The areas module names the project `project` (the CLI's argument) and the members
    `mitglieder`; REST names them by its path parameters."""

    def name(feld: str) -> str:
        if feld == "project":
            return PROJEKT_FIELD
        if member_field is not None and feld.startswith(MEMBERS_FIELD):
            return member_field
        return feld

    return refusal_of([e.renamed(name(e.feld)) for e in rejected.errors])
