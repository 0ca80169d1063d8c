"""Areas (contract §2): who may read and write `users/<n>`, `teams/<t>`, `projects/<p>`.

Invariants:
- A call acts as one nutzer: the envelope's `inhalt.nutzer` for the Brain tools, the
  token's own (`acting_nutzer`) for the Memory OS tools and REST. It reads exactly that
  nutzer's area plus the areas of its teams (token claim `teams`) and projects (token
  claim `projects`, and the project records whose member it is) — never more, whatever
  else the token may act as.
- Writes: `users/<n>` only as n itself, `teams/<t>` only with t in the token's teams,
  `projects/<p>` only as a member of p. A project that exists but is closed to the nutzer
  and one that does not exist are refused with the same answer, so project names do not
  leak. `create_project` creates a missing project (the nutzer becomes owner and first
  member, a brain entry about it is created too); plugin profiles may not.
- Projects granted by the token's `projects` claim are governed by their claims: the first
  write of a member by claim gives the project a record (that member its owner), and a
  project area that already holds memories or ledger records counts as existing even
  without a record - so no non-member can create, own or read such a project.
- Project memberships are read from storage lazily (`Visibility`): only when a project
  area that the token does not grant is in question — one read per call at most, no cache;
  searches read them in the same round trip as the postings.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, Final

from shared.auth.hints import (
    not_own_area_message,
    not_project_member_message,
    not_team_member_message,
)
from shared.auth.principal import ANY, Principal
from shared.domain import (
    AREA_NAMESPACES,
    BrainEntry,
    BrainWrite,
    CounterName,
    Memory,
    Project,
    VkTyp,
    area_may_match,
    area_of_path,
    user_area,
    within,
)
from shared.search.analyzer import document_terms
from shared.services.context import ServiceContext
from shared.services.secrets import name_errors
from shared.validation import rules
from shared.validation.errors import Art, FieldError, RequestRejected

__all__ = [
    "AREA_NAMESPACES",
    "PLUGIN_PROFILES",
    "Visibility",
    "acting_agent",
    "acting_nutzer",
    "add_project_members",
    "area_may_match",
    "area_of_path",
    "authorize_write",
    "may_write_team",
    "parse_members",
    "readable_areas",
    "remove_project_members",
    "unread_by_token_hint",
    "unread_hint",
    "user_area",
    "within",
]

# Client profiles of the plugins (token claim `profile`): no create_project there (seed 004).
PLUGIN_PROFILES: Final = frozenset({"chatgpt", "claude"})
_PROJECTS = "projects/"


def acting_nutzer(principal: Principal) -> str:
    """The token's own nutzer: its one concrete nutzer, else (several, or only `*`) its
    subject — a stable identity of the caller."""
    own = sorted(name for name in principal.nutzer if name != ANY)
    return own[0] if len(own) == 1 else principal.subject


def unread_by_token_hint(principal: Principal, area: str) -> str | None:
    """The note of a write into another nutzer's area than the one the token's Memory OS
    tools act as (a development or service token that may act as several): without it the
    memory is stored where the same token's search_memory and recall never look."""
    own = acting_nutzer(principal)
    if not area.startswith("users/") or area == user_area(own):
        return None
    nutzer = area.removeprefix("users/")
    return (
        f"Gespeichert im Bereich {area}. search_memory, recall und recall_context handeln mit "
        f"diesem Token als '{own}' und finden es dort nicht. Lesen als {nutzer}: "
        f"fetch_brain_memories oder select_brain mit nutzer '{nutzer}', REST mit "
        f"?nutzer={nutzer}, oder ein Token nur für {nutzer} "
        f"(lokal: brain token --nutzer {nutzer} …)."
    )


# A call's hint names at most this many areas (a batch may write into many).
UNREAD_HINT_AREAS: Final = 3


def unread_hint(principal: Principal, areas: Iterable[str]) -> str | None:
    """The one note of a whole write (insert, update) about the areas it wrote that this
    token's Memory OS tools do not read (`unread_by_token_hint`), once per call."""
    wanted = sorted(set(areas))[:UNREAD_HINT_AREAS]
    notes = [hint for area in wanted if (hint := unread_by_token_hint(principal, area))]
    return " ".join(notes) if notes else None


def acting_agent(principal: Principal) -> str:
    own = sorted(name for name in principal.agents if name != ANY)
    return own[0] if len(own) == 1 else principal.subject


def _granted_by_token(principal: Principal, nutzer: str) -> set[str]:
    return {
        user_area(nutzer),
        *(f"teams/{team}" for team in principal.teams),
        *(f"{_PROJECTS}{project}" for project in principal.projects),
    }


def readable_areas(ctx: ServiceContext, principal: Principal, nutzer: str) -> frozenset[str]:
    """Every area the call acting as `nutzer` may read (one storage read for projects)."""
    records = ctx.storage.projects_of(principal.tenant, nutzer)
    return frozenset(_granted_by_token(principal, nutzer) | {_PROJECTS + p for p in records})


class Visibility:
    """`readable_areas` answered lazily: project records are read only when a project
    area the token does not grant is asked about (at most once per instance)."""

    def __init__(
        self, ctx: ServiceContext, principal: Principal, nutzer: str, *, verlauf: bool = False
    ) -> None:
        self._ctx = ctx
        self._principal = principal
        self.nutzer = nutzer
        # History (issue 25): superseded memories are shown too (`shows`).
        self.verlauf = verlauf
        self._granted = frozenset(_granted_by_token(principal, nutzer))
        self._records: frozenset[str] | None = None

    @property
    def granted(self) -> frozenset[str]:
        """The areas the token grants by itself (no storage read)."""
        return self._granted

    def know_projects(self, projects: frozenset[str] | None) -> None:
        """Project memberships read along with other data (saves the separate read)."""
        if projects is not None:
            self._records = frozenset(_PROJECTS + name for name in projects)

    def readable(self) -> frozenset[str]:
        """Every readable area (reads the project records unless known already)."""
        if self._records is None:
            names = self._ctx.storage.projects_of(self._principal.tenant, self.nutzer)
            self._records = frozenset(_PROJECTS + name for name in names)
        return self._granted | self._records

    def shows(self, memory: Memory) -> bool:
        """Whether a search or listing shows this loaded memory: readable, and current
        unless the history is asked for (a superseded memory has `gueltig_bis`)."""
        return (self.verlauf or not memory.superseded) and self.may_read(memory.area)

    def may_read(self, area: str) -> bool:
        if area in self._granted:
            return True
        if not area.startswith(_PROJECTS):
            return False
        if self._records is None:
            names = self._ctx.storage.projects_of(self._principal.tenant, self.nutzer)
            self._records = frozenset(_PROJECTS + name for name in names)
        return area in self._records


def _refused(message: str, field: str = "path", art: Art = Art.INVALID) -> RequestRejected:
    return RequestRejected([FieldError(field, message, art)])


def _forbidden(message: str, field: str = "path") -> RequestRejected:
    return _refused(message, field, Art.FORBIDDEN)


def may_write_team(principal: Principal, team: str) -> bool:
    """The one rule of a write into `teams/<team>` (tools, REST, ledger, import): the team is
    among the principal's teams (token claim `teams`; for an import, the operator's team
    configuration, `imports.author_principal`). Team areas have no records."""
    return team in principal.teams


def authorize_write(
    ctx: ServiceContext,
    principal: Principal,
    nutzer: str,
    area: str,
    *,
    create_project: bool = False,
    now: datetime | None = None,
) -> None:
    """Allow a write into `area` by the call acting as `nutzer`, or raise RequestRejected.

    With `create_project`, a missing project is created (nutzer = owner, first member)."""
    if create_project and principal.profile in PLUGIN_PROFILES:
        raise _refused(
            f"nicht erlaubt: create_project wird im Profil '{principal.profile}' nicht "
            "akzeptiert, nur im generischen öffentlichen Profil. Projekte dort anlegen "
            "oder ohne create_project in ein bestehendes Projekt schreiben.",
            "create_project",
        )
    namespace, _, name = area_of_path(area).partition("/")
    if namespace == "users":
        if name != nutzer:
            raise _forbidden(not_own_area_message())
        return
    if namespace == "teams":
        if not may_write_team(principal, name):
            raise _forbidden(not_team_member_message())
        return
    tenant = principal.tenant
    by_record = name in ctx.storage.projects_of(tenant, nutzer)
    by_claim = name in principal.projects
    if by_claim and not by_record and ctx.storage.get_project(tenant, name) is None:
        # A project the token's `projects` claim grants: its first write by a member gives
        # it a record (that member its owner), so that nobody else can create and own it.
        ctx.storage.create_project(Project(tenant, name, nutzer, now or ctx.clock()))
    member = by_record or by_claim
    if create_project and not member and not area_in_use(ctx, tenant, area_of_path(area), now):
        # A new project: the caller becomes its owner (unless someone created it just now).
        member = ctx.storage.create_project(Project(tenant, name, nutzer, now or ctx.clock()))
    if not member:
        raise _forbidden(not_project_member_message())
    if create_project:
        _ensure_brain_entry(ctx, principal, nutzer, name, now or ctx.clock())


def area_in_use(ctx: ServiceContext, tenant: str, area: str, now: datetime | None) -> bool:
    """Whether a project area without a record already holds memories or ledger records
    (written by members by claim, or before project records existed): then the project
    exists, and `create_project` must not hand it to someone else."""
    if ctx.storage.list_memories(tenant, [area], None, now or ctx.clock(), 1):
        return True
    return any(ctx.storage.find_ledger(tenant, [area], None, None, 1).values())


def _ensure_brain_entry(
    ctx: ServiceContext, principal: Principal, nutzer: str, name: str, now: datetime
) -> None:
    """The brain entry about a project (vk_typ projekt), created with the project."""
    storage = ctx.storage
    if storage.find_brain_by_reference(principal.tenant, VkTyp.PROJEKT.value, name, 1):
        return
    titel, inhalt = f"Projekt {name}", f"Projekt {name}, angelegt durch remember."
    terms, doc_len = document_terms(titel, inhalt)
    (entry_id,) = storage.reserve_ids(principal.tenant, CounterName.BRAIN, 1)
    entry = BrainEntry(
        tenant=principal.tenant,
        id=entry_id,
        titel=titel,
        inhalt=inhalt,
        vk_typ=VkTyp.PROJEKT,
        vk_referenz_id=name,
        tags=[],
        stammdaten={},
        nutzer=nutzer,
        agent=acting_agent(principal),
        created_at=now,
        updated_at=now,
        terms=terms,
        doc_len=doc_len,
    )
    (failure,) = storage.put_brain_entries([BrainWrite(entry)])
    if failure is not None:
        raise _refused(
            "Speicherfehler: Der Brain-Eintrag des Projekts wurde nicht gespeichert; das "
            "Projekt besteht. Bitte erneut mit create_project=true senden.",
            "create_project",
            Art.STORAGE,
        )


MEMBERS_FIELD: Final = "mitglieder"


def parse_members(value: Any) -> list[str]:
    """The nutzer to add: one or a list of 1-100 identities (string or integer, at most
    200 characters, no control characters, no credentials), duplicates dropped."""
    errors: list[FieldError] = []
    members = rules.identity_or_list(value, MEMBERS_FIELD, errors, max_items=rules.MAX_BATCH)
    if members is not None:
        errors += name_errors(
            [(rules.index_path(MEMBERS_FIELD, i), member) for i, member in enumerate(members)]
        )
    if errors or members is None:
        raise RequestRejected(errors)
    return members


def add_project_members(
    ctx: ServiceContext, tenant: str, owner: str, project: str, members: Any
) -> Project:
    """The owner of a project adds members (`parse_members` checks them first); anyone else
    gets the answer a missing project gets. Returns the project with its members."""
    checked = parse_members(members)
    found = _owned(ctx, tenant, owner, project)
    if not ctx.storage.add_project_members(tenant, project, checked):
        raise _refused("Das Projekt existiert nicht mehr.", "project")
    updated = ctx.storage.get_project(tenant, project)
    return updated if updated is not None else found


def remove_project_members(
    ctx: ServiceContext, tenant: str, owner: str, project: str, members: Any
) -> Project:
    """The owner of a project removes members (never itself: a project keeps its owner);
    anyone else gets the answer a missing project gets. Returns the project."""
    checked = parse_members(members)
    found = _owned(ctx, tenant, owner, project)
    if owner in checked:
        index = checked.index(owner)
        raise _refused(
            "Der Eigentümer bleibt Mitglied seines Projekts und kann nicht entfernt werden.",
            rules.index_path(MEMBERS_FIELD, index) if len(checked) > 1 else MEMBERS_FIELD,
        )
    if not ctx.storage.remove_project_members(tenant, project, checked):
        raise _refused("Das Projekt existiert nicht mehr.", "project")
    updated = ctx.storage.get_project(tenant, project)
    return updated if updated is not None else found


def _owned(ctx: ServiceContext, tenant: str, owner: str, project: str) -> Project:
    """The project if `owner` owns it; else the refusal a missing project gets."""
    found = ctx.storage.get_project(tenant, project)
    if found is None or found.owner != owner:
        raise _forbidden(
            "nicht berechtigt: Das Projekt existiert nicht, oder der handelnde Nutzer ist "
            "nicht sein Eigentümer. Nur der Eigentümer fügt Mitglieder hinzu oder entfernt sie.",
            "project",
        )
    return found
