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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from typing import Any, Final

from shared.domain import (
    DuplicateSign,
    Memory,
    MemoryId,
    MemoryPosting,
    MemoryReplace,
    NewMemory,
)
from shared.search.analyzer import document_terms
from shared.search.duplicates import (
    DuplicateRule,
    Similarity,
    is_duplicate,
    jaccard,
    term_set,
    text_sign,
    vetoed,
)
from shared.search.vectors import VectorHit, VectorQuery, decode
from shared.services.context import ServiceContext
from shared.services.duplicates_ahead import (
    AHEAD_HITS,
    NOTHING_READ,
    POSTINGS_PER_TERM,
    Prefetched,
    covered,
    read_ahead,
    vector_hits,
    vector_key,
)
from shared.validation.rules import DUPLICATE_FLAG

# Stored memories a new one is compared with by words (most shared terms first).
CANDIDATES: Final = 5
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
    `ahead`: what the write read before (`read_ahead`: an area whose terms it covers is not
    read again, a vector query it answered is not sent again)."""
    if not batch:
        return {}
    terms = [term_set(new.memory.memory) for new in batch]
    areas: dict[str, set[str]] = {}
    for new, entry_terms in zip(batch, terms, strict=True):
        areas.setdefault(new.memory.area, set()).update(entry_terms)
    # Stage 1 (usually read ahead, side by side with the call's claim: `read_ahead`):
    # every target area's postings of the batch's terms, and the nearest vectors.
    ahead = ahead or NOTHING_READ
    postings = covered(ahead, areas)
    unread = {area: wanted for area, wanted in areas.items() if area not in postings}
    if unread:
        postings.update(read_ahead(ctx, tenant, [], now, unread).postings)
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
    rule = ctx.settings.duplicate_rule
    hits = _nearest(ctx, tenant, batch, list(by_words), now, own, ahead, rule)
    # What the postings' signs cannot rule out is loaded and decided on the stored texts.
    undecided = [
        position
        for position, ids in by_words.items()
        if could_duplicate(
            batch[position],
            terms[position],
            hits.get(position, []),
            ids,
            postings.get(batch[position].memory.area, {}),
            rule,
        )
    ]
    if not undecided:
        return {}
    wanted = [
        mid for p in undecided for mid in (*by_words[p], *(h.memory_id for h in hits.get(p, [])))
    ]
    loaded = ctx.storage.get_memories(tenant, list(dict.fromkeys(wanted)), now)
    found: dict[int, Found] = {}
    for position in undecided:
        new = batch[position]
        for candidate in best_of(
            new, terms[position], hits.get(position, []), by_words[position], loaded
        ):
            if is_duplicate(new.memory.memory, candidate.memory.memory, candidate.similarity, rule):
                found[position] = candidate
                break
    return found


def _nearest(
    ctx: ServiceContext,
    tenant: str,
    batch: Sequence[NewMemory],
    positions: Sequence[int],
    now: datetime,
    own: frozenset[MemoryId],
    ahead: Prefetched,
    rule: DuplicateRule,
) -> dict[int, list[VectorHit]]:
    """Per position with a vector its nearest stored vector (not one of `own`) at or above
    the threshold: as read ahead, else queried now (one stage, side by side)."""
    nearest: dict[int, list[VectorHit]] = {}
    queries: dict[int, VectorQuery] = {}
    for position in positions:
        query = _vector_query(tenant, batch[position], now, 1 + len(own))
        if query is None:
            continue
        read = ahead.hits.get(vector_key(query))
        others = None if read is None else [h for h in read if h.memory_id not in own]
        if others is not None and (others or len(read or []) < AHEAD_HITS):
            nearest[position] = others[:1]
        else:
            queries[position] = query  # not read ahead (or own hits filled its read)
    if queries:
        results = ctx.storage.side_by_side(
            [partial(vector_hits, ctx, query) for query in queries.values()]
        )
        for position, result in zip(queries, results, strict=True):
            nearest[position] = [h for h in result if h.memory_id not in own][:1]
    return {
        position: [h for h in best if h.score >= rule.vector_threshold]
        for position, best in nearest.items()
    }


def could_duplicate(
    new: NewMemory,
    terms: frozenset[str],
    hits: Sequence[VectorHit],
    candidates: Sequence[MemoryId],
    postings: Mapping[str, Sequence[MemoryPosting]],
    rule: DuplicateRule,
) -> bool:
    """False only when the postings prove that `best_of` + `is_duplicate` on the loaded
    memories would find no duplicate: every candidate (and the nearest vector hit) is
    vetoed by its posting's sign, or by words its Jaccard cannot reach the threshold even
    if it holds every term of a list that may have been cut off (`POSTINGS_PER_TERM`);
    a candidate with a vector of the new memory's profile is one for the vectors only.
    Anything unknown (a posting without sign, a hit not among the postings) keeps it open."""
    signs: dict[MemoryId, DuplicateSign | None] = {}
    shared: dict[MemoryId, int] = {}
    listed: dict[MemoryId, set[str]] = {}
    for term in terms:
        for posting in postings.get(term, []):
            entry = posting.entry_id
            signs.setdefault(entry, posting.sign if posting.text_term is not None else None)
            listed.setdefault(entry, set()).add(term)
            shared[entry] = shared.get(entry, 0) + bool(posting.text_term)
    cut = [term for term in terms if len(postings.get(term, [])) >= POSTINGS_PER_TERM]
    mine = text_sign(new.memory.memory)
    for hit in hits[:1]:
        sign = signs.get(hit.memory_id)
        if sign is None or not vetoed(mine, sign, rule):
            return True
    memory = new.memory
    for candidate in candidates:
        sign = signs.get(candidate)
        if sign is None:
            return True
        vector = memory.embedding_profil_hash is not None and memory.embedding_dim is not None
        if (
            new.embedding is not None
            and vector
            and (sign.profile, sign.dim)
            == (
                memory.embedding_profil_hash,
                memory.embedding_dim,
            )
        ):
            continue  # both have vectors of one profile: the vectors decide
        unseen = sum(1 for term in cut if term not in listed[candidate])
        most = min(shared[candidate] + unseen, len(terms), sign.terms)
        union = len(terms) + sign.terms - most
        upper = most / union if union else 0.0
        if upper >= rule.word_threshold and not vetoed(mine, sign, rule):
            return True
    return False


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


def _vector_query(tenant: str, new: NewMemory, now: datetime, limit: int) -> VectorQuery | None:
    memory = new.memory
    if new.embedding is None or memory.embedding_profil_hash is None:
        return None
    return VectorQuery(
        tenant=tenant,
        profil_hash=memory.embedding_profil_hash,
        vector=tuple(decode(new.embedding)),
        areas=frozenset({memory.area}),
        now=now,
        limit=limit,  # 1 + own: the nearest that is not one of this write's own decides
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
