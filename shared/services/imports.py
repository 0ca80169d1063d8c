"""`brain import`: a JSON Lines export (services/export.py) back into a tenant, as a write
of its operator.

Invariants:
- The import acts as its operator's principal (`operator_principal`: the tenant, subject
  `import:<operator>`, write scopes only). It may store memories of the file's authors,
  but only where those authors could have written them (the author rules below).
- Every line goes the one order: bounded validation (the line's shape, the insert tools'
  entry rules, the referenzfelder limits) → authorization (author and membership rules) →
  scrubbing (the entry's texts in the insert Write's store, referenzfelder values by
  `screen_referenzfelder`, the one implementation of tools, REST and import) → storage.
  Memory groups go through the retry layer (operation `brain import`, keyed on the group as
  read): an import cut off by a crash and run again stores each memory once, and running
  the same file again within the explicit-key window (`BRAIN_IDEMPOTENCY_KEY_WINDOW_S`)
  stores nothing twice; ledger lines are once-only for good (their `schluessel`).
- Area names: one normalisation for every path (`validation.paths`): `bereich` is the
  author's own `users/<nutzer>` as the tools name it, or `teams/<t>` / `projects/<p>` in
  normal form (NFKC, one case, segments `[a-z0-9._-]`, no `.`/`..`); anything else is
  refused (a Cyrillic "о" stays non-ASCII and is refused).
- Author rules: a memory in `users/<n>` must be n's; one in `teams/<t>` must be by a member
  of t as the operator's team configuration names them (`brain import --team t=n,…`, the
  import's stand-in for the token claim `teams`; team areas have no records), checked by
  the tools' own rule (`areas.may_write_team` on `author_principal`); one in `projects/<p>`
  must be by the project's owner or a member. Members are never added to an existing
  project: a project line creates a missing project with its owner and members; an
  existing one (a record, or an area already holding content) keeps its members. A memory
  of a project without a record and without a project line creates it with the memory's
  author as owner.
- Ledger lines (services/ledger_transfer.py) keep the same author and membership rules.
- A line that breaks a rule fails alone, reported in German with its line number.
- An import restores: every memory line is stored, near-duplicates of each other too (no
  merging, as `duplikat_erlaubt`), and replaced memories are linked to their successors
  again once all lines are in (services/import_history.py).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from shared.auth.principal import ANY, Principal, Scope
from shared.domain import MemoryType, Project, user_area
from shared.services import responses
from shared.services.areas import area_in_use, may_write_team, parse_members
from shared.services.context import ServiceContext
from shared.services.export import MEMORY_LINE, PROJECT_LINE
from shared.services.import_history import History
from shared.services.ledger_transfer import LEDGER_LINE, LedgerImport
from shared.services.memories import prepare_insert
from shared.services.secrets import name_errors, screen_referenzfelder
from shared.tools import retry
from shared.tools.dispatch import call_tool
from shared.tools.idempotency_fields import KEY_FIELD
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.paths import normal_area
from shared.validation.requests import allowing_duplicates, parse_insert

IMPORT_BATCH: Final = 100
IMPORT_OPERATION: Final = "brain import"  # the retry layer's operation (never a tool name)
MEMORY_TYPES: Final = ("longterm", "shortterm")
# Team → its members (nutzer), as the operator configures them for an import.
TeamMembers = Mapping[str, Collection[str]]
NO_TEAMS: Final[TeamMembers] = MappingProxyType({})


def operator_principal(tenant: str, operator: str) -> Principal:
    """Who an import acts as: its operator, for any nutzer and agent of the tenant (bounded
    by the author rules), write scopes only."""
    return Principal(
        tenant=tenant,
        subject=f"import:{operator}",
        nutzer=frozenset({ANY}),
        agents=frozenset({ANY}),
        scopes=frozenset({Scope.BRAIN_WRITE.value, Scope.MEMORY_WRITE.value}),
    )


def author_principal(tenant: str, author: str, teams: TeamMembers) -> Principal:
    """An imported record's author as a token of the operator's configuration would name
    him: his nutzer and the teams whose member he is; no scopes (it authorizes nothing by
    itself, it only answers the area rules)."""
    return Principal(
        tenant=tenant,
        subject=f"import-author:{author}",
        nutzer=frozenset({author}),
        agents=frozenset(),
        scopes=frozenset(),
        teams=frozenset(team for team, members in teams.items() if author in members),
    )


def _errors(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"feld": feld, "meldung": meldung} for feld, meldung in pairs]


def _fehler(errors: Sequence[FieldError]) -> list[dict[str, str]]:
    return [{"feld": e.feld, "meldung": e.meldung} for e in errors]


AREA_RULE: Final = (
    "bereich",
    "Erinnerung braucht typ (longterm oder shortterm) und bereich (users/<nutzer> des "
    "Autors, teams/<t> oder projects/<p>; Namen aus a-z, 0-9, '.', '_', '-').",
)
NOT_THE_AUTHORS_AREA: Final = (
    "eintrag.nutzer",
    "nicht berechtigt: Eine Erinnerung in users/<n> muss von n selbst sein; der Import legt "
    "keine Erinnerungen unter einem anderen Autor ab.",
)
NOT_A_TEAM_MEMBER: Final = (
    "eintrag.nutzer",
    "nicht berechtigt: Der Autor ist kein Mitglied dieses Teams. Teams haben keine "
    "Datensätze; der Import kennt Mitglieder nur aus 'brain import --team <team>=<nutzer>,…'.",
)
NOT_A_MEMBER: Final = (
    "eintrag.nutzer",
    "nicht berechtigt: Der Autor ist weder Eigentümer noch Mitglied des Projekts; der "
    "Import fügt bestehenden Projekten keine Mitglieder hinzu.",
)


def memory_area(line: Mapping[str, Any]) -> str | None:
    """The area a memory line goes into (normal form), or None when it breaks the rules."""
    area, entry = line.get("bereich"), line.get("eintrag")
    if not isinstance(area, str) or not isinstance(entry, Mapping):
        return None
    own = user_area(str(entry.get("nutzer", "")))
    if area == own:
        return own
    normal = normal_area(area)
    return own if normal is not None and normal == own.casefold() else normal


@dataclass
class Projects:
    """The project records an import reads and creates (one read per project name)."""

    ctx: ServiceContext
    tenant: str
    known: dict[str, Project | None] = field(default_factory=dict)

    def get(self, name: str) -> Project | None:
        if name not in self.known:
            self.known[name] = self.ctx.storage.get_project(self.tenant, name)
        return self.known[name]

    def create(self, name: str, owner: str, members: Sequence[str]) -> bool:
        """Create a missing project; False (nothing changed) when it exists already, also
        as an area that holds content without a record."""
        area = f"projects/{name}"
        if self.get(name) is not None or area_in_use(self.ctx, self.tenant, area, None):
            return False
        project = Project(self.tenant, name, owner, self.ctx.clock(), frozenset(members) - {owner})
        created = self.ctx.storage.create_project(project)
        self.known.pop(name, None)
        return created

    def may_write(self, name: str, author: str) -> bool:
        project = self.get(name)
        if project is None and self.create(name, author, []):
            project = self.get(name)
        return project is not None and (author == project.owner or author in project.members)


def author_refusal(
    projects: Projects, area: str, author: str, teams: TeamMembers = NO_TEAMS
) -> str | None:
    """The author rules of every imported memory and ledger record: why `author` may not
    have written into `area`, or None."""
    namespace, _, name = area.partition("/")
    if namespace == "users" and area != user_area(author):
        return NOT_THE_AUTHORS_AREA[1]
    if namespace == "teams" and not may_write_team(
        author_principal(projects.tenant, author, teams), name
    ):
        return NOT_A_TEAM_MEMBER[1]
    if namespace == "projects" and not projects.may_write(name, author):
        return NOT_A_MEMBER[1]
    return None


def import_project(projects: Projects, line: Mapping[str, Any]) -> list[dict[str, str]]:
    """A project line `{"art": "projekt", "name", "owner", "mitglieder"}`: errors, or []."""
    name, owner = line.get("name"), line.get("owner")
    area = normal_area(f"projects/{name}") if isinstance(name, str) else None
    if area is None or not isinstance(owner, str | int) or isinstance(owner, bool):
        return _errors(("name", AREA_RULE[1]))
    try:
        members = parse_members(line.get("mitglieder", [str(owner)]))
    except RequestRejected as rejected:
        return _fehler(rejected.errors)
    refused = name_errors([("owner", str(owner)), ("mitglieder", members)])
    if refused:
        return _fehler(refused)
    # An existing project keeps its members: an import never adds any.
    projects.create(area.partition("/")[2], str(owner), members)
    return []


def import_memories(
    ctx: ServiceContext,
    principal: Principal,
    typ: MemoryType,
    area: str,
    referenzfelder: Mapping[str, Any],
    entries: Sequence[Mapping[str, Any]],
    *,
    caller: tuple[str, str],
    projects: Projects | None = None,
    teams: TeamMembers = NO_TEAMS,
) -> list[dict[str, Any]]:
    """Store one group of exported memory entries (same type, area and referenzfelder)
    through the insert tools' validation and Write, under the retry layer: one result per
    entry, in order."""
    arguments = {
        "inhalt": {"memories": list(entries), "nutzer": caller[0], "agent": caller[1]},
        "referenzfelder": dict(referenzfelder),
    }
    try:
        batch = parse_insert(
            arguments, ctx.settings.parse_options(), shortterm=typ is MemoryType.SHORTTERM
        )
    except RequestRejected as rejected:
        return [responses.entry_failure(i, rejected.errors) for i in range(len(entries))]
    projects = projects or Projects(ctx, principal.tenant)
    refused: dict[int, list[FieldError]] = {}
    for index, entry in enumerate(batch.entries):
        if isinstance(entry, list):
            continue  # invalid: refused with its own errors by the insert
        rule = author_refusal(projects, area, entry.nutzer, teams)
        if rule is not None:
            refused[index] = [FieldError(f"inhalt.memories[{index}].nutzer", rule)]
    try:
        cleaned = screen_referenzfelder(batch.referenzfelder).value
    except RequestRejected as rejected:
        return [responses.entry_failure(i, rejected.errors) for i in range(len(entries))]
    kept = [i for i in range(len(entries)) if i not in refused]
    results: dict[int, dict[str, Any]] = {
        i: responses.entry_failure(i, errors) for i, errors in refused.items()
    }
    if kept:
        # A restore: near-duplicates the file holds were stored as such (issue 25's
        # `duplikat_erlaubt`); the import stores each line, it merges nothing.
        batch = type(batch)(
            caller=batch.caller,
            referenzfelder=cleaned,
            entries=allowing_duplicates([batch.entries[i] for i in kept]),
        )
        write = prepare_insert(ctx, principal, batch, typ, area=area)
        envelope = retry.run(
            ctx, principal, IMPORT_OPERATION, _call_arguments(arguments, area, typ, kept), write, {}
        )
        daten = envelope.get("daten") or []
        if not daten:
            daten = [
                {"index": n, "erfolg": False, "fehler": envelope.get("fehler", [])}
                for n in range(len(kept))
            ]
        for result in daten:
            original = kept[result["index"]]
            results[original] = {**result, "index": original}
    return [results[i] for i in range(len(entries))]


def _call_arguments(
    arguments: Mapping[str, Any], area: str, typ: MemoryType, kept: Sequence[int]
) -> dict[str, Any]:
    """What the retry layer keys an import group on: the entries as read, their area and
    type, and a key derived from all of it (so the explicit-key window applies)."""
    inhalt = arguments["inhalt"]
    body = {
        "inhalt": {"nutzer": inhalt["nutzer"], "memories": [inhalt["memories"][i] for i in kept]},
        "bereich": area,
        "typ": typ.value,
        "referenzfelder": arguments["referenzfelder"],
    }
    return {**body, "referenzfelder": {**body["referenzfelder"], KEY_FIELD: retry.digest(body)}}


def _read_jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as exc:
                yield number, exc


def _is_project(value: Any) -> bool:
    return isinstance(value, dict) and value.get("art") == PROJECT_LINE


def _report(line_number: int, errors: Sequence[Mapping[str, str]]) -> None:
    for error in errors:
        where = f"{error['feld']}: " if error["feld"] else ""
        print(f"Zeile {line_number}: {where}{error['meldung']}", file=sys.stderr)


@dataclass
class ImportRun:
    """One `brain import`: brain entries through `upsert_brain` (100 per call), project
    lines, memory lines grouped while type, area and referenzfelder stay the same."""

    ctx: ServiceContext
    tenant: str
    operator: str
    agent: str
    source: str
    teams: TeamMembers = NO_TEAMS
    imported: int = 0
    failed: int = 0
    _brain: list[tuple[int, Any]] = field(default_factory=list)
    _key: tuple[str, str, str] | None = None
    _group: list[tuple[int, Mapping[str, Any]]] = field(default_factory=list)
    history: History = field(default_factory=History)

    def __post_init__(self) -> None:
        self.principal = operator_principal(self.tenant, self.operator)
        self.projects = Projects(self.ctx, self.tenant)
        self.ledger = LedgerImport(
            self.ctx,
            self.tenant,
            lambda area, author: author_refusal(self.projects, area, author, self.teams),
        )

    def count(self, line_number: int, errors: Sequence[Mapping[str, str]]) -> None:
        if errors:
            self.failed += 1
            _report(line_number, errors)
        else:
            self.imported += 1

    def add(self, line_number: int, value: Any) -> None:
        if isinstance(value, json.JSONDecodeError):
            self.count(line_number, _errors(("", f"kein gültiges JSON ({value.msg}).")))
        elif isinstance(value, dict) and value.get("art") == MEMORY_LINE:
            self._memory(line_number, value)
        elif isinstance(value, dict) and value.get("art") == LEDGER_LINE:
            self.count(line_number, self.ledger.add(value))
        elif _is_project(value):
            self.count(line_number, import_project(self.projects, value))
        else:
            self._brain.append((line_number, value))
            if len(self._brain) == IMPORT_BATCH:
                self._flush_brain()

    def finish(self) -> None:
        self._flush_brain()
        self._flush_memories()
        refused, notices = self.history.restore(
            self.ctx, lambda author: author_principal(self.tenant, author, self.teams), self.agent
        )
        for line_number, errors in refused:
            self.imported -= 1
            self.count(line_number, errors)
        for line_number, notice in notices:
            print(f"Zeile {line_number}: {notice}", file=sys.stderr)

    def _memory(self, line_number: int, line: Mapping[str, Any]) -> None:
        typ, referenzfelder = line.get("typ"), line.get("referenzfelder", {})
        area = memory_area(line)
        if typ not in MEMORY_TYPES or area is None:
            self.count(line_number, _errors(AREA_RULE))
            return
        if not isinstance(referenzfelder, dict):
            message = "eintrag und referenzfelder müssen Objekte sein."
            self.count(line_number, _errors(("referenzfelder", message)))
            return
        key = (str(typ), area, json.dumps(referenzfelder, sort_keys=True))
        if key != self._key or len(self._group) == IMPORT_BATCH:
            self._flush_memories()
            self._key = key
        self._group.append((line_number, line))

    def _flush_memories(self) -> None:
        if not self._group or self._key is None:
            return
        typ, area, _ = self._key
        results = import_memories(
            self.ctx,
            self.principal,
            MemoryType(typ),
            area,
            self._group[0][1].get("referenzfelder", {}),
            [line["eintrag"] for _, line in self._group],
            caller=(self.operator, self.agent),
            projects=self.projects,
            teams=self.teams,
        )
        for (line_number, line), result in zip(self._group, results, strict=True):
            self.count(line_number, [] if result.get("erfolg") else result.get("fehler", []))
            if result.get("erfolg"):
                self.history.stored(line_number, line, result)
        self._group = []

    def _flush_brain(self) -> None:
        if not self._brain:
            return
        principal = Principal(
            tenant=self.tenant,
            subject=self.principal.subject,
            nutzer=frozenset({self.operator}),
            agents=frozenset({self.agent}),
            scopes=frozenset({Scope.BRAIN_WRITE.value}),
        )
        envelope = call_tool(
            self.ctx,
            principal,
            "upsert_brain",
            {
                "inhalt": {
                    "eintraege": [entry for _, entry in self._brain],
                    "nutzer": self.operator,
                    "agent": self.agent,
                },
                "referenzfelder": {"import": self.source},
            },
        )
        results = envelope.get("daten") or []
        if not envelope["erfolg"] and not results:
            for line_number, _ in self._brain:
                self.count(line_number, envelope["fehler"])
        for result in results:
            line_number = self._brain[result["index"]][0]
            self.count(line_number, [] if result["erfolg"] else result["fehler"])
        self._brain.clear()


def import_file(
    ctx: ServiceContext,
    path: Path,
    tenant: str,
    operator: str,
    agent: str,
    teams: TeamMembers = NO_TEAMS,
) -> int:
    """Import a file; print the German summary; 0 when every line was imported, else 1.
    `teams`: each team's members (without it, no memory goes into a team area)."""
    run = ImportRun(ctx, tenant, operator, agent, path.name, teams)
    # Project lines first (an export writes them last): a project's members must exist
    # before its memories are checked against them.
    for first_pass in (True, False):
        for line_number, value in _read_jsonl(path):
            if _is_project(value) is first_pass:
                run.add(line_number, value)
    run.finish()
    print(f"Importiert: {run.imported}, fehlgeschlagen: {run.failed}")
    return 0 if run.failed == 0 else 1
