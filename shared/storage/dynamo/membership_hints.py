"""Which project areas a nutzer is expected to read: a speculation aid for searches.

A search must read the postings of every project area whose member the caller is, and the
project records say which those are — one Query that would have to run *before* the
posting Queries. Instead, the adapter remembers the projects it last read (or wrote) for
each (tenant, nutzer) and queries those areas' postings in the same stage as the
membership Query. Invariant: a hint never grants anything. The membership read of the same
stage decides; postings of a hinted area that is no longer the nutzer's are dropped, and
areas the read reveals that the hint lacked are read in a second stage. A stale or
missing hint costs one stage, never correctness. Bounded: every search that gets a hint
puts the one its membership read found, so the oldest written is the least recently used,
evicted first.
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
