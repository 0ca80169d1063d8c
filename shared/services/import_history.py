"""`brain import`: superseded facts (issue 25) come back as they were exported.

An export names each memory line's ID in the exporting tenant (`ID`) and, for a replaced
memory, its successor there (`ersetzt_durch`). The import numbers memories anew; this module
maps the file's IDs to the new ones and, once every memory line is stored, restores each
link with `update_brain_memories` (an entry with only `ID` and `ersetzt`: the successor
stays unchanged, the replaced memory gets `gueltig_bis` and `ersetzt_durch`).

Invariants:
- A link is restored as a write of the successor's author, the way the tools would have
  made it: the author's own nutzer, the teams the operator's configuration gives him
  (`author_principal`), memory write scope, and the update tool's validation,
  authorization (he must be allowed to write both memories), retry layer and storage. A
  refusal is reported with the replaced memory's line number.
- Links run after all memory lines (a long-term successor is exported before the short-term
  memory it replaces), grouped per author, at most `LINK_BATCH` per call.
- A second run of the same file finds the links in place: replacing again by the same
  successor counts as done (services/supersede.py), nothing is marked twice.
- `gueltig_bis` becomes the import's time (no tool accepts a timestamp, as for `created`).
- A memory whose successor is not in the file (it was deleted: history stays history) is
  stored as current; the import says so on stderr.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from shared.auth.principal import Principal, Scope
from shared.services.context import ServiceContext
from shared.services.export import ID_FIELD, SUCCESSOR_FIELD
from shared.tools.dispatch import call_tool

LINK_BATCH: Final = 100
SUCCESSOR_MISSING: Final = (
    "Hinweis: ersetzt_durch nennt {successor}, die nicht im Export steht (gelöscht?); "
    "die Erinnerung ist nach dem Import wieder aktuell."
)
Report = list[tuple[int, list[dict[str, str]]]]


@dataclass
class History:
    """The file's IDs → the imported ones, the successors' authors, the links to restore."""

    new_ids: dict[str, str] = field(default_factory=dict)
    authors: dict[str, str] = field(default_factory=dict)
    links: list[tuple[int, str, str]] = field(default_factory=list)  # line, replaced, successor

    def stored(self, line_number: int, line: Mapping[str, Any], result: Mapping[str, Any]) -> None:
        """Remember one stored memory line (its result carries the new `ID`)."""
        old, new = line.get(ID_FIELD), result.get(ID_FIELD)
        if isinstance(old, str) and isinstance(new, str):
            self.new_ids[old] = new
            self.authors[old] = str(line["eintrag"].get("nutzer", ""))
        successor = line.get(SUCCESSOR_FIELD)
        if isinstance(old, str) and isinstance(successor, str):
            self.links.append((line_number, old, successor))

    def restore(
        self,
        ctx: ServiceContext,
        principal_of: Callable[[str], Principal],
        agent: str,
    ) -> tuple[Report, list[tuple[int, str]]]:
        """Restore every link; the refused ones (line, errors) and the notices (line, text).
        `principal_of(author)` is the author's principal as the import configures him."""
        refused: Report = []
        notices: list[tuple[int, str]] = []
        per_author: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
        for line_number, old, successor in self.links:
            if successor not in self.new_ids:
                notices.append((line_number, SUCCESSOR_MISSING.format(successor=successor)))
                continue
            author = self.authors[successor]
            per_author[author].append((line_number, self.new_ids[old], self.new_ids[successor]))
        for author, links in per_author.items():
            for start in range(0, len(links), LINK_BATCH):
                chunk = links[start : start + LINK_BATCH]
                refused += _link(ctx, _writer(principal_of(author), agent), author, agent, chunk)
        return refused, notices


def _writer(author: Principal, agent: str) -> Principal:
    """The author as the import configures him, allowed to write memories as its agent."""
    return replace(author, agents=frozenset({agent}), scopes=frozenset({Scope.MEMORY_WRITE.value}))


def _link(
    ctx: ServiceContext,
    principal: Principal,
    author: str,
    agent: str,
    links: list[tuple[int, str, str]],
) -> Report:
    entries = [{"ID": successor, "ersetzt": [replaced]} for _, replaced, successor in links]
    arguments = {"inhalt": {"memories": entries, "nutzer": author, "agent": agent}}
    envelope = call_tool(ctx, principal, "update_brain_memories", arguments)
    results = envelope.get("daten") or []
    if not results:
        return [(line_number, list(envelope.get("fehler", []))) for line_number, _, _ in links]
    return [
        (links[result["index"]][0], list(result.get("fehler", [])))
        for result in results
        if not result.get("erfolg")
    ]
