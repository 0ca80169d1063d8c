"""The word ranking of memory searches: BM25 over the caller's areas only.

This is the word half of hybrid retrieval (issue 12): `rank_words` returns the ranked
word hits (memory ID and BM25 score, best first) that the caller may see; fusion with
other signals (vectors) happens on top of it, and `load_ranked` turns any ranking into
loaded memories. Invariants:
- Only postings of areas the caller may read are read (`lookup_memory_terms` with the
  token's areas plus the caller's project records), highest impact first, page by page
  only while a memory not yet seen could still enter the top `depth`
  (`shared/search/topk.py`): the ranking is exhaustive BM25's, its cost follows what the
  caller owns and how clear the answer is, never the tenant; a read budget per search is
  the backstop.
- Type and expiry are decided from the postings before anything is loaded; what they
  cannot decide (a path below area level) is checked on the loaded memory (the depth
  over-reads for it).
- Project memberships are read in the same stage as the postings (never a separate read).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from shared.auth.principal import Principal
from shared.domain import Memory, MemoryId, MemoryType, area_may_match, within
from shared.search.analyzer import query_terms
from shared.search.topk import ReadBudget, WordQuery, WordRanking
from shared.search.vectors import VectorQuery, VectorRanking
from shared.services.areas import Visibility
from shared.services.context import ServiceContext

# Candidates are loaded in rounds; when the posting alone cannot decide (a path prefix
# below the area level), a round over-reads this much.
OVERREAD: Final = 3


@dataclass(frozen=True)
class WordHits:
    """Ranked word hits the caller may see (best first) and, when asked, the newest
    short-term memories of the caller's areas (newest first)."""

    ranked: list[tuple[MemoryId, float]]
    recent: list[Memory] = field(default_factory=list)
    # With a query vector: the vector ranking over the same areas (same lookup).
    vectors: VectorRanking | None = None
    # How the word ranking was read (steps, postings; complete = not cut by the budget).
    reads: WordRanking | None = None


def memory_path(memory: Memory) -> str:
    """Where a memory lives: its `remember` path, else its area."""
    path = memory.referenzfelder.get("pfad")
    if isinstance(path, str) and within(path, memory.area):
        return path
    return memory.area


def rank_words(
    ctx: ServiceContext,
    principal: Principal,
    visibility: Visibility,
    text: str,
    *,
    depth: int,
    path: str | None = None,
    only: MemoryType | None = None,
    recent: int = 0,
    vector: VectorQuery | None = None,
    budget: ReadBudget | None = None,
) -> WordHits:
    """The best `depth` BM25 word hits of `text` among the memories the caller may read
    in the areas `path` may match (of type `only` when given), best first; one storage
    lookup. With `recent` > 0 the same lookup brings the newest short-term memories of
    those areas, with `vector` the vector ranking over them (both also for a text without
    words)."""
    groups = query_terms(text)
    if not groups and recent <= 0 and vector is None:
        return WordHits([])
    now = ctx.clock()
    # Project memberships come with the postings (same round trip) unless the path
    # excludes every project area.
    member = visibility.nutzer if path is None or within(path, "projects") else None
    areas = sorted(area for area in visibility.granted if area_may_match(area, path))
    words = WordQuery(tuple(groups), depth, now, only, budget or ReadBudget())
    lookup = ctx.storage.lookup_memory_terms(
        principal.tenant,
        [],
        areas,
        member,
        path=path,
        recent=recent * (1 if path is None or path.count("/") <= 1 else OVERREAD),
        now=now,
        vector=vector,
        words=words if groups else None,
    )
    visibility.know_projects(lookup.projects)
    ranked = lookup.words.ranked if lookup.words is not None else []
    latest = [
        memory
        for memory in lookup.recent
        if visibility.shows(memory) and within(memory_path(memory), path)
    ][: max(recent, 0)]
    return WordHits(ranked, latest, lookup.vectors, lookup.words)


def word_depth(limit: int, path: str | None) -> int:
    """Word hits a words-only search needs for `limit` results under `path`."""
    return limit * (1 if path is None or path.count("/") <= 1 else OVERREAD)


def load_ranked(
    ctx: ServiceContext,
    principal: Principal,
    visibility: Visibility,
    ranked: Sequence[tuple[MemoryId, float]],
    *,
    path: str | None,
    limit: int,
) -> list[tuple[Memory, float]]:
    """The first `limit` memories of a ranking that exist, are visible and lie under
    `path`, with their scores: one batched read per round (one round unless the path
    lies below area level or candidates vanished)."""
    now = ctx.clock()
    exact = path is None or path.count("/") <= 1
    found: list[tuple[Memory, float]] = []
    start = 0
    while len(found) < limit and start < len(ranked):
        wanted = limit - len(found)
        batch = list(ranked[start : start + (wanted if exact else wanted * OVERREAD)])
        start += len(batch)
        memories = ctx.storage.get_memories(principal.tenant, [mid for mid, _ in batch], now)
        for memory_id, score in batch:
            memory = memories.get(memory_id)
            if (
                memory is not None
                and visibility.shows(memory)
                and within(memory_path(memory), path)
            ):
                found.append((memory, score))
    return found[:limit]
