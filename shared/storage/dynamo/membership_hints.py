"""Which project areas a nutzer is expected to read: a speculation aid for searches.

A search must read every project area the caller is a member of; the membership Query that
says which runs in the same stage as the posting Queries of the areas this adapter last saw
for (tenant, nutzer). Invariant: a hint never grants anything. The membership read decides:
postings of a hinted area it does not confirm are dropped, areas it reveals beyond the hint
are read in a second stage; a stale or missing hint costs one stage, never correctness.
Bounded: a search puts back the hint its membership read found, so the oldest written is
the least recently used, evicted first.
"""

from __future__ import annotations

import threading
from typing import Final

HINTS_MAX: Final = 4096


class MembershipHints:
    def __init__(self) -> None:
        self._hints: dict[tuple[str, str], frozenset[str]] = {}  # oldest written first
        self._lock = threading.Lock()

    def get(self, tenant: str, nutzer: str) -> frozenset[str] | None:
        return self._hints.get((tenant, nutzer))

    def put(self, tenant: str, nutzer: str, projects: frozenset[str]) -> None:
        with self._lock:
            self._hints.pop((tenant, nutzer), None)
            self._hints[(tenant, nutzer)] = projects
            while len(self._hints) > HINTS_MAX:
                del self._hints[next(iter(self._hints))]

    def add(self, tenant: str, project: str, members: frozenset[str]) -> None:
        """Members joined a project (written by this process): extend known hints."""
        with self._lock:
            for nutzer in members:
                known = self._hints.get((tenant, nutzer))
                if known is not None:
                    self._hints[(tenant, nutzer)] = known | {project}
