"""Consolidation of what is already stored (issue 25): near-duplicate clusters merged per area.

`consolidate` reads a tenant's live memories (by ID range, as export does: no scan), per
area and type oldest first, and decides each one as if it were written now into what the
area keeps of the older ones, with the rule and the candidates of a write
(services/duplicates.py): the `CANDIDATES` kept memories sharing the most terms, the
nearest kept vector of the same profile at or above the vector threshold, `is_duplicate`
with its vetoes; no shared word, no duplicate. A duplicate joins the cluster of the memory
it duplicates; so every cluster's **survivor is its oldest memory** (the first stored: its
ID is the one others may already have cited, its `erstellt` stays).

Per cluster (`dry_run` writes nothing and lists the clusters):
1. the survivor gains the members' tags and provenance (`duplicates.merge`, idempotent);
2. the members' ratings are recorded again on the survivor (`record_ratings`: counts and
   sums add, the average is recomputed, `last_call` is the latest), each marked with its
   origin (`referenzfelder.konsolidiert_von`, `bewertung_von`); a rating already moved by a
   run that a crash cut off is not moved again;
3. the members are removed as delete removes them (`delete_memories`: item, postings,
   stats, ratings, vector).
Each step is safe to repeat, so a re-run finishes what a cut-off run began.

A run has a budget (`stop`, asked before each area: the Lambda stops a minute before its
timeout, the CLI after `--max-seconds`): the areas it did not reach are named in the outcome
(`nicht_erreicht`), nothing is cut in half, and the next run reaches them because the area
order is rotated by `start` (the scheduled run passes the day's number), so a tenant too large
for one run is covered over the following runs instead of timing out at the same place.

Invariants: through the StoragePort only; nothing outside one area (and type) is
compared; a superseded memory (`gueltig_bis`) is neither merged nor a survivor; no
memory text is logged; `areas` limits the run to those areas.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Final

from shared.domain import (
    CounterName,
    Memory,
    MemoryId,
    MemoryReplace,
    MemoryType,
    NewMemory,
    Rating,
    RatingOutcome,
)
from shared.search.duplicates import is_duplicate, term_set
from shared.search.vectors import VectorHit, VectorQuery, VectorRanking, decode
from shared.services import duplicates
from shared.services.context import ServiceContext

PAGE: Final = 100
# Vector hits asked per memory: the nearest that the area keeps (older, not merged) decides.
NEAREST: Final = 10
ORIGIN_KEY: Final = "konsolidiert_von"
RATING_KEY: Final = "bewertung_von"


@dataclass(frozen=True)
class Cluster:
    area: str
    survivor: MemoryId
    members: tuple[MemoryId, ...]


@dataclass
class Outcome:
    clusters: list[Cluster] = field(default_factory=list)
    removed: list[MemoryId] = field(default_factory=list)
    ratings_moved: int = 0
    dry_run: bool = False
    not_reached: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {
            "trockenlauf": self.dry_run,
            "cluster": [
                {
                    "bereich": c.area,
                    "behalten": str(c.survivor),
                    "zusammengefuehrt": [str(m) for m in c.members],
                }
                for c in self.clusters
            ],
            "entfernt": len(self.removed),
            "bewertungen_uebernommen": self.ratings_moved,
            "vollstaendig": not self.not_reached,
            "nicht_erreicht": list(self.not_reached),
        }


def consolidate(
    ctx: ServiceContext,
    tenant: str,
    *,
    areas: Sequence[str] | None = None,
    dry_run: bool = False,
    stop: Callable[[], bool] = lambda: False,
    start: int = 0,
) -> Outcome:
    """Find and (unless `dry_run`) merge the near-duplicate clusters of `tenant`'s areas,
    area by area from the `start`-th (rotated), until `stop()` says the budget is spent."""
    now = ctx.clock()
    outcome = Outcome(dry_run=dry_run)
    wanted = frozenset(areas) if areas else None
    for typ in (MemoryType.LONGTERM, MemoryType.SHORTTERM):
        groups: dict[str, list[Memory]] = {}
        for memory in _live(ctx, tenant, typ, now):
            if (wanted is None or memory.area in wanted) and not memory.superseded:
                groups.setdefault(memory.area, []).append(memory)
        for area in rotated(sorted(groups), start):
            if outcome.not_reached or stop():
                outcome.not_reached.append(f"{typ.value}:{area}")
                continue
            clusters = find_clusters(ctx, tenant, groups[area], now)
            outcome.clusters += clusters
            if not dry_run:
                for cluster in clusters:
                    moved = _merge(ctx, tenant, cluster, groups[area], now)
                    if moved is not None:
                        outcome.ratings_moved += moved
                        outcome.removed += cluster.members
    return outcome


def rotated[T](items: Sequence[T], start: int) -> list[T]:
    """`items` from the `start`-th on (modulo their number), then the ones before it."""
    if not items:
        return []
    offset = start % len(items)
    return [*items[offset:], *items[:offset]]


def _live(ctx: ServiceContext, tenant: str, typ: MemoryType, now: datetime) -> Iterable[Memory]:
    """The tenant's live memories of one type, oldest (lowest ID) first."""
    highest = ctx.storage.highest_id(tenant, CounterName(typ.value))
    for start in range(1, highest + 1, PAGE):
        ids = [MemoryId(typ, n) for n in range(start, min(start + PAGE, highest + 1))]
        found = ctx.storage.get_memories(tenant, ids, now)
        yield from (found[i] for i in ids if i in found)


def find_clusters(
    ctx: ServiceContext, tenant: str, memories: Sequence[Memory], now: datetime
) -> list[Cluster]:
    """The clusters of one area's memories of one type (oldest first), by the write's rule."""
    rule = ctx.settings.duplicate_rule
    kept: dict[MemoryId, Memory] = {}
    postings: dict[str, list[MemoryId]] = {}
    members: dict[MemoryId, list[MemoryId]] = {}
    for memory in sorted(memories, key=lambda m: m.id.number):
        terms = term_set(memory.memory)
        shared: dict[MemoryId, int] = {}
        for term in terms:
            for other in postings.get(term, []):
                shared[other] = shared.get(other, 0) + 1
        ranked = sorted(shared.items(), key=lambda item: (-item[1], item[0]))
        candidates = [mid for mid, _ in ranked[: duplicates.CANDIDATES]]
        found = None
        if candidates:
            embedding = _embedding(ctx, tenant, memory)
            new = NewMemory(memory, embedding)
            hits = _nearest(ctx, tenant, new, kept, now, rule.vector_threshold)
            for candidate in duplicates.best_of(new, terms, hits, candidates, kept):
                if is_duplicate(memory.memory, candidate.memory.memory, candidate.similarity, rule):
                    found = candidate.memory.id
                    break
        if found is not None:
            members.setdefault(found, []).append(memory.id)
            continue
        kept[memory.id] = memory
        for term in terms:
            postings.setdefault(term, []).append(memory.id)
    area = memories[0].area if memories else ""
    return [Cluster(area, root, tuple(ids)) for root, ids in sorted(members.items())]


def _embedding(ctx: ServiceContext, tenant: str, memory: Memory) -> bytes | None:
    if memory.embedding_profil_hash is None:
        return None
    return ctx.storage.get_embedding(tenant, memory.id)


def _nearest(
    ctx: ServiceContext,
    tenant: str,
    new: NewMemory,
    kept: dict[MemoryId, Memory],
    now: datetime,
    threshold: float,
) -> list[VectorHit]:
    """The nearest kept memory by vector, when it reaches the threshold (as on a write)."""
    memory = new.memory
    if new.embedding is None or memory.embedding_profil_hash is None:
        return []
    query = VectorQuery(
        tenant=tenant,
        profil_hash=memory.embedding_profil_hash,
        vector=tuple(decode(new.embedding)),
        areas=frozenset({memory.area}),
        now=now,
        limit=NEAREST,
        typ=memory.id.typ,
    )
    hits = VectorRanking.of(ctx.storage.search_vectors, query).hits
    nearest = [hit for hit in hits if hit.memory_id in kept][:1]
    return [hit for hit in nearest if hit.score >= threshold]


def _merge(
    ctx: ServiceContext, tenant: str, cluster: Cluster, memories: Sequence[Memory], now: datetime
) -> int | None:
    """Merge one cluster into its survivor (see the module doc): the ratings moved, or None
    when the survivor changed or vanished meanwhile (the next run decides again; nothing is
    removed, nothing lost)."""
    by_id = {m.id: m for m in memories}
    survivor = by_id[cluster.survivor]
    merged = survivor
    for member in cluster.members:
        merged = duplicates.merge(merged, by_id[member], now) or merged
    if merged is not survivor:
        (failure,) = ctx.storage.replace_memories([MemoryReplace(merged, survivor)], now)
        if failure is not None:
            return None
    moved = _move_ratings(ctx, tenant, cluster, now)
    if moved is None:
        return None  # keep the members (and their ratings)
    ctx.storage.delete_memories(tenant, list(cluster.members), now)
    return moved


def _move_ratings(ctx: ServiceContext, tenant: str, cluster: Cluster, now: datetime) -> int | None:
    """The members' ratings recorded on the survivor (those not moved before); None when
    one could not be recorded."""
    done = {
        (r.referenzfelder.get(ORIGIN_KEY), r.referenzfelder.get(RATING_KEY))
        for r in ctx.storage.get_ratings(tenant, cluster.survivor)
    }
    pending: list[Rating] = []
    for member in cluster.members:
        for rating in ctx.storage.get_ratings(tenant, member):
            if (str(member), rating.insert_id) not in done:
                pending.append(rating)
    if not pending:
        return 0
    numbers = ctx.storage.reserve_ids(tenant, CounterName.RATING, len(pending))
    moved = [
        replace(
            rating,
            insert_id=number,
            memory_id=cluster.survivor,
            referenzfelder={
                **rating.referenzfelder,
                ORIGIN_KEY: str(rating.memory_id),
                RATING_KEY: rating.insert_id,
            },
        )
        for number, rating in zip(numbers, pending, strict=True)
    ]
    outcomes = ctx.storage.record_ratings(moved, now)
    if not all(isinstance(outcome, RatingOutcome) for outcome in outcomes):
        return None
    return len(moved)
