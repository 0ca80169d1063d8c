"""Near-duplicates on write (issue 25): a memory its area already holds is not stored again.

A write's `store` (insert tools, REST POST /api/memory, remember) asks `find_duplicates`
for the memories it is about to store, after scrubbing and server-side embeddings, before
`put_memories`: an entry whose text a stored memory of the same area and type already says
(`shared/search/duplicates.py`: cosine where both have a vector of one profile and
dimension, word overlap otherwise, plus the value, length and change-marker vetoes) is not
stored; its answer names the existing memory (`duplikat_von`), and `merge` gives that one
the new tags and the new write's provenance. `duplikat_erlaubt: true` skips the check.

Invariants:
- Reads through the StoragePort only, for a whole batch: one stage of a plain
  `lookup_memory_terms` per target area (the postings of the union of the batch's terms
  there, `POSTINGS_PER_TERM` of highest impact per term), side by side — a write reads it
  in `ahead()`, beside its call record's claim (`read_postings` with the terms of the texts
  as scrubbing leaves them: the scrubber is a pure function), so it costs no round trip of
  its own; `find_duplicates` reads only an area the prefetch did not cover; only when a stored
  memory of the area and type shares a word, a second stage: one `get_memories` of every
  candidate beside one `search_vectors` per such entry with a vector (its area only); a
  third read only for a nearest vector hit that was not a word candidate. Nothing outside
  the writer's target area (and type) is compared or named, nor a superseded memory
  (`gueltig_bis`: it left default reads); the batch's entries are not
  compared with each other, not even when a resend finds some of them stored (`own`).
- Candidates: the `CANDIDATES` memories sharing the most terms, and the nearest vector hit
  at or above the vector threshold; per measure the most similar one decides (as the
  labelled set's figure measures it, `benchmarks/duplicates.py`): vectors where both
  memories have one of the entry's profile and dimension, words for the others.
- The merge is idempotent: a tag already there (case-insensitively) and a provenance
  already listed are not added again, so a resend changes nothing; a memory with nothing to
  gain is not written. At most `MAX_SOURCES` provenances are kept (newest last).
- No memory text is logged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from typing import Any, Final

from shared.domain import Memory, MemoryId, MemoryPosting, MemoryReplace, NewMemory
from shared.search.analyzer import document_terms
from shared.search.duplicates import Similarity, is_duplicate, jaccard, term_set
from shared.search.vectors import VectorHit, VectorProfileError, VectorQuery, decode
from shared.services.context import ServiceContext
from shared.validation.rules import DUPLICATE_FLAG

# Stored memories a new one is compared with by words (most shared terms first), and
# the postings read per term of the batch's texts (highest impact first).
CANDIDATES: Final = 5
POSTINGS_PER_TERM: Final = 50
# referenzfelder key of the provenances a memory gained from duplicates that were not stored.
SOURCES_KEY: Final = "duplikat_quellen"
MAX_SOURCES: Final = 10


@dataclass(frozen=True)
class Found:
    """The stored memory a new one duplicates, and how alike they are."""

    memory: Memory
    similarity: Similarity


def find_duplicates(
    ctx: ServiceContext,
    tenant: str,
    batch: Sequence[NewMemory],
    now: datetime,
    own: frozenset[MemoryId] = frozenset(),
    ahead: Prefetched | None = None,
) -> dict[int, Found]:
    """{position in `batch`: the stored memory it duplicates} (see the module doc). `own`:
    the IDs of this write's entries (a resend may find some stored), never candidates;
    `ahead`: the postings the write read before (an area whose terms it covers is not
    read again)."""
    if not batch:
        return {}
    terms = [term_set(new.memory.memory) for new in batch]
    areas: dict[str, set[str]] = {}
    for new, entry_terms in zip(batch, terms, strict=True):
        areas.setdefault(new.memory.area, set()).update(entry_terms)
    # Stage 1 (usually read ahead, side by side with the call's claim: `read_postings`):
    # every target area's postings of the batch's terms.
    postings = _covered(ahead, areas)
    unread = {area: wanted for area, wanted in areas.items() if area not in postings}
    if unread:
        postings.update(read_postings(ctx, tenant, unread, now).postings)
    by_words = {
        position: ids
        for position, new in enumerate(batch)
        if (
            ids := _word_candidates(
                new.memory, terms[position], postings.get(new.memory.area, {}), now, own
            )
        )
    }
    if not by_words:
        return {}  # nothing in the areas shares a word: no duplicate (and no further read)
    # Stage 2: the word candidates beside the vector queries of the entries that have some.
    queries = {
        position: query
        for position in by_words
        if (query := _vector_query(tenant, batch[position], now, own)) is not None
    }
    wanted = list(dict.fromkeys(mid for ids in by_words.values() for mid in ids))
    tasks: list[Callable[[], Any]] = [
        partial(ctx.storage.get_memories, tenant, wanted, now),
        *(partial(_vector_hits, ctx, query) for query in queries.values()),
    ]
    loaded, *vector_results = ctx.storage.side_by_side(tasks)
    rule = ctx.settings.duplicate_rule
    nearest: dict[int, list[VectorHit]] = {
        position: [h for h in result if h.memory_id not in own][:1]
        for position, result in zip(queries, vector_results, strict=True)
    }
    hits = {
        position: [h for h in best if h.score >= rule.vector_threshold]
        for position, best in nearest.items()
    }
    # (Stage 3, rare: a nearest vector hit that shares too few words to be loaded yet.)
    missing = [h.memory_id for best in hits.values() for h in best if h.memory_id not in loaded]
    if missing:
        loaded = {**loaded, **ctx.storage.get_memories(tenant, missing, now)}
    found: dict[int, Found] = {}
    for position, ids in by_words.items():
        new = batch[position]
        for candidate in best_of(new, terms[position], hits.get(position, []), ids, loaded):
            if is_duplicate(new.memory.memory, candidate.memory.memory, candidate.similarity, rule):
                found[position] = candidate
                break
    return found


@dataclass(frozen=True)
class Prefetched:
    """Per area the terms whose postings were read, and those postings."""

    terms: dict[str, frozenset[str]]
    postings: dict[str, dict[str, list[MemoryPosting]]]


NOTHING_READ: Final = Prefetched({}, {})


def read_postings(
    ctx: ServiceContext, tenant: str, wanted: Mapping[str, set[str]], now: datetime
) -> Prefetched:
    """Stage 1 of the check: per area the postings of `wanted`'s terms, side by side (one
    round trip). A write runs it in `ahead()`, beside its claim, with the terms of its
    texts as scrubbing will leave them (`check_terms`), so `find_duplicates` reads none."""
    names = sorted(area for area, terms in wanted.items() if terms)
    tasks = [partial(_postings, ctx, tenant, area, sorted(wanted[area]), now) for area in names]
    results = ctx.storage.side_by_side(tasks) if tasks else []
    return Prefetched(
        {area: frozenset(wanted[area]) for area in names},
        dict(zip(names, results, strict=True)),
    )


def check_terms(texts: Sequence[tuple[str, str]]) -> dict[str, set[str]]:
    """Per area the union of the terms of its (area, scrubbed memory text) pairs: what
    `find_duplicates` looks up."""
    wanted: dict[str, set[str]] = {}
    for area, text in texts:
        wanted.setdefault(area, set()).update(term_set(text))
    return wanted


def _covered(
    ahead: Prefetched | None, areas: Mapping[str, set[str]]
) -> dict[str, dict[str, list[MemoryPosting]]]:
    """The prefetched postings of the areas whose every term was read ahead."""
    if ahead is None:
        return {}
    return {
        area: ahead.postings.get(area, {})
        for area, terms in areas.items()
        if area in ahead.terms and terms <= ahead.terms[area]
    }


def _postings(
    ctx: ServiceContext, tenant: str, area: str, terms: list[str], now: datetime
) -> dict[str, list[MemoryPosting]]:
    if not terms:
        return {}
    lookup = ctx.storage.lookup_memory_terms(
        tenant, terms, [area], None, per_area_term=POSTINGS_PER_TERM, now=now
    )
    return lookup.postings


def _vector_hits(ctx: ServiceContext, query: VectorQuery) -> list[VectorHit]:
    try:
        return ctx.storage.search_vectors(query)
    except VectorProfileError:
        return []  # the first vector of its profile: nothing to compare with


def _word_candidates(
    memory: Memory,
    terms: frozenset[str],
    postings: dict[str, list[MemoryPosting]],
    now: datetime,
    own: frozenset[MemoryId],
) -> list[MemoryId]:
    """The stored memories of the area and type sharing the most terms with `memory`."""
    shared: dict[MemoryId, int] = {}
    for term in terms:
        for posting in postings.get(term, []):
            live = posting.expires_at is None or posting.expires_at > now
            if posting.entry_id.typ is memory.id.typ and live and posting.entry_id not in own:
                shared[posting.entry_id] = shared.get(posting.entry_id, 0) + 1
    ranked = sorted(shared.items(), key=lambda item: (-item[1], item[0]))
    return [memory_id for memory_id, _ in ranked[:CANDIDATES]]


def _vector_query(
    tenant: str, new: NewMemory, now: datetime, own: frozenset[MemoryId]
) -> VectorQuery | None:
    memory = new.memory
    if new.embedding is None or memory.embedding_profil_hash is None:
        return None
    return VectorQuery(
        tenant=tenant,
        profil_hash=memory.embedding_profil_hash,
        vector=tuple(decode(new.embedding)),
        areas=frozenset({memory.area}),
        now=now,
        limit=1 + len(own),  # the nearest that is not one of this write's own decides
        typ=memory.id.typ,
    )


def _comparable(new: Memory, stored: Memory) -> bool:
    """Both have a vector of one profile and dimension: the vectors decide."""
    return (
        new.embedding_profil_hash is not None
        and new.embedding_dim is not None
        and stored.embedding_profil_hash == new.embedding_profil_hash
        and stored.embedding_dim == new.embedding_dim
    )


def best_of(
    new: NewMemory,
    terms: frozenset[str],
    hits: list[VectorHit],
    candidates: list[MemoryId],
    loaded: dict[MemoryId, Memory],
) -> list[Found]:
    """The most similar stored memory by vector, and by words among those without a
    comparable vector (at most one each, vectors first)."""
    memory, best = new.memory, []

    def usable(memory_id: MemoryId) -> Memory | None:
        stored = loaded.get(memory_id)
        if stored is None or stored.area != memory.area or stored.id == memory.id:
            return None
        if stored.superseded:
            return None  # replaced: merging into it would hide the new memory with it
        return stored

    for hit in hits[:1]:
        stored = usable(hit.memory_id)
        if stored is not None and _comparable(memory, stored):
            best.append(Found(stored, Similarity(hit.score, "vektor")))
    by_words: list[Found] = []
    for memory_id in candidates:
        stored = usable(memory_id)
        if stored is None or (new.embedding is not None and _comparable(memory, stored)):
            continue
        alike = Similarity(jaccard(terms, term_set(stored.memory)), "woerter")
        by_words.append(Found(stored, alike))
    if by_words:
        best.append(max(by_words, key=lambda found: (found.similarity.value, found.memory.id)))
    return best


def provenance(memory: Memory) -> dict[str, Any]:
    """What a duplicate adds to the stored memory's provenance: who wrote it, from where."""
    return {"nutzer": memory.nutzer, "agent": memory.agent, **memory.referenzfelder}


def merge(stored: Memory, new: Memory, now: datetime) -> Memory | None:
    """`stored` with the tags and provenance of its duplicate `new`; None: nothing to add."""
    known = {tag.casefold() for tag in stored.tags}
    tags = [*stored.tags, *(tag for tag in new.tags if tag.casefold() not in known)]
    listed = stored.referenzfelder.get(SOURCES_KEY)
    sources = list(listed) if isinstance(listed, list) else []
    source = provenance(new)
    if source not in sources:
        sources = [*sources, source][-MAX_SOURCES:]
    if tags == stored.tags and sources == listed:
        return None
    changed = replace(
        stored,
        tags=tags,
        referenzfelder={**stored.referenzfelder, SOURCES_KEY: sources},
        updated_at=now,
    )
    # as memories.memory_terms (which imports this module): kurzbeschreibung weighs as a title
    changed.terms, changed.doc_len = document_terms(
        changed.kurzbeschreibung, "\n".join([changed.memory, *changed.tags])
    )
    return changed


def merge_into(
    ctx: ServiceContext, pairs: Sequence[tuple[Found, Memory]], now: datetime
) -> list[Memory | None]:
    """Merge each new memory into the stored one it duplicates (one `replace_memories`);
    per pair the stored memory as it is now, or None when it vanished or changed meanwhile
    (the caller then stores the new memory: nothing is lost)."""
    results: list[Memory | None] = [found.memory for found, _ in pairs]
    changes: list[tuple[int, MemoryReplace]] = []
    for position, (found, new) in enumerate(pairs):
        changed = merge(found.memory, new, now)
        if changed is not None:
            changes.append((position, MemoryReplace(changed, found.memory)))
            results[position] = changed
    if changes:
        outcomes = ctx.storage.replace_memories([change for _, change in changes], now)
        for (position, _), outcome in zip(changes, outcomes, strict=True):
            if outcome is not None:
                results[position] = None
    return results


def merge_duplicates(
    ctx: ServiceContext,
    tenant: str,
    checked: Sequence[tuple[int, NewMemory]],
    now: datetime,
    own: frozenset[MemoryId],
    ahead: Prefetched | None = None,
) -> dict[int, Memory]:
    """{index: stored memory} of the (index, new memory) entries a stored memory of their
    area already says: merged into it, not to be stored (the caller stores the others)."""
    found = find_duplicates(ctx, tenant, [new for _, new in checked], now, own, ahead)
    pairs = [(checked[position][0], hit, checked[position][1]) for position, hit in found.items()]
    merged = merge_into(ctx, [(hit, new.memory) for _, hit, new in pairs], now)
    return {
        index: memory
        for (index, _, _), memory in zip(pairs, merged, strict=True)
        if memory is not None
    }


def duplicate_hinweis(memory_id: MemoryId) -> str:
    return (
        f"Duplikat: Die Erinnerung {memory_id} sagt dasselbe; nicht erneut gespeichert, "
        f"{memory_id} hat Tags und Herkunft übernommen ({DUPLICATE_FLAG}: true speichert trotzdem)."
    )
