"""Near-duplicates on write, stage 1 (services/duplicates.py): what a write reads for its
check before it stores, in its `ahead()`, side by side with its call record's claim.

Invariants:
- Reads only, one round trip: per target area one plain `lookup_memory_terms` of the union
  of the probes' terms (`POSTINGS_PER_TERM` of highest impact per term), side by side with
  one `search_vectors` per probe with a vector (its area and type only, `AHEAD_HITS`) when
  the batch has at most `AHEAD_QUERIES` of them.
- A probe is what `store` will check, computed before it (scrubbing is a pure function):
  the scrubbed memory text, and a caller's vector under the profile `profiles.py` gives it
  or the server's vector of the scrubbed document (embedded here, one embedder call, and
  handed to `store`: `embedded`, so the server embeds each text once).
- What `find_duplicates` uses is keyed by what it reads (area and terms; area, type,
  profile and vector bytes): anything it does not find here it reads itself, so a probe
  that differs from what `store` checks costs a read, never a wrong decision.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any, Final

from shared.domain import MemoryPosting, MemoryType
from shared.search.duplicates import term_set
from shared.search.vectors import (
    VectorHit,
    VectorQuery,
    VectorRanking,
    VectorSearchUnavailable,
    decode,
    encode,
)
from shared.services.context import ServiceContext
from shared.services.embeddings import document_of, server_vectors

_log = logging.getLogger(__name__)

# The postings read per term of the batch's texts (highest impact first).
POSTINGS_PER_TERM: Final = 50


@dataclass(frozen=True)
class Probe:
    """One entry a write will check, known before its claim (scrubbing is pure): its target
    area and type, its memory text as scrubbing leaves it, and either a caller's vector
    (`vector`: profile, little-endian float32) or the text the server embeds (`document`)."""

    area: str
    typ: MemoryType
    text: str
    document: str | None = None
    vector: tuple[str, bytes] | None = None


# (area, type, profile, vector bytes): a vector query of the check, read ahead.
VectorKey = tuple[str, MemoryType | None, str, bytes]
# The hits a read-ahead vector query asks for: the nearest, and one more in case it is one
# of the write's own (a resend); more own hits than that: queried again in `find_duplicates`.
AHEAD_HITS: Final = 2
# A batch of at most this many probes with vectors queries them ahead (one QueryVectors
# each, also where no stored memory shares a word: the query costs then, unused); a larger
# one queries only those that share words, after the postings read (one round trip more).
AHEAD_QUERIES: Final = 10


@dataclass(frozen=True)
class Prefetched:
    """Per area the terms whose postings were read, and those postings; the server's
    vectors of the probes' documents (`embedded`) and the nearest stored vectors."""

    terms: dict[str, frozenset[str]]
    postings: dict[str, dict[str, list[MemoryPosting]]]
    embedded: dict[str, bytes] = field(default_factory=dict)
    hits: dict[VectorKey, list[VectorHit]] = field(default_factory=dict)


NOTHING_READ: Final = Prefetched({}, {})


def probe(
    ctx: ServiceContext,
    area: str,
    typ: MemoryType,
    kurzbeschreibung: str,
    text: str,
    embedding: Sequence[float] | None = None,
    profil_hash: str | None = None,
) -> Probe:
    """The probe of an entry (`kurzbeschreibung`, `text`: scrubbed; `embedding`: the
    caller's), its vector under the profile `profiles.py` gives it (unknown: none)."""
    embedder = ctx.embedder
    if embedding is None:
        return Probe(area, typ, text, document_of(kurzbeschreibung, text) if embedder else None)
    if not profil_hash and embedder is not None and embedder.profile.dimension == len(embedding):
        profil_hash = embedder.profile.hash
    return Probe(area, typ, text, vector=(profil_hash, encode(embedding)) if profil_hash else None)


def read_ahead(
    ctx: ServiceContext,
    tenant: str,
    probes: Sequence[Probe],
    now: datetime,
    wanted: Mapping[str, set[str]] | None = None,
) -> Prefetched:
    """Stage 1 of the check, one round trip: per area the postings of the probes' terms
    (or `wanted`'s), side by side with the server's embedding of the probes' documents
    (one embedder call) and then their nearest vectors. A write runs it in `ahead()`,
    beside its claim, so that `find_duplicates` reads no postings and queries no vector."""
    wanted = check_terms([(p.area, p.text) for p in probes]) if wanted is None else wanted
    names = sorted(area for area, terms in wanted.items() if terms)
    tasks: list[Callable[[], Any]] = [
        partial(_postings, ctx, tenant, area, sorted(wanted[area]), now) for area in names
    ]
    tasks.append(partial(_ahead_vectors, ctx, tenant, probes, now))
    results = ctx.storage.side_by_side(tasks)
    *found, (embedded, hits) = results
    return Prefetched(
        {area: frozenset(wanted[area]) for area in names},
        dict(zip(names, found, strict=True)),
        embedded,
        hits,
    )


def _ahead_vectors(
    ctx: ServiceContext, tenant: str, probes: Sequence[Probe], now: datetime
) -> tuple[dict[str, bytes], dict[VectorKey, list[VectorHit]]]:
    documents = list(dict.fromkeys(p.document for p in probes if p.document is not None))
    embedded = server_vectors(ctx, documents)
    queries: dict[VectorKey, VectorQuery] = {}
    if sum(1 for p in probes if p.vector or p.document in embedded) > AHEAD_QUERIES:
        return embedded, {}
    for found in probes:
        profile, vector = found.vector or (None, None)
        if found.document in embedded and ctx.embedder is not None:
            profile, vector = ctx.embedder.profile.hash, embedded[found.document]
        if profile is None or vector is None:
            continue
        query = VectorQuery(
            tenant,
            profile,
            tuple(decode(vector)),
            frozenset({found.area}),
            now,
            AHEAD_HITS,
            found.typ,
        )
        queries.setdefault(vector_key(query), query)
    results = ctx.storage.side_by_side([partial(_ahead_hits, ctx, q) for q in queries.values()])
    return embedded, {
        key: hits for key, hits in zip(queries, results, strict=True) if hits is not None
    }


def _ahead_hits(ctx: ServiceContext, query: VectorQuery) -> list[VectorHit] | None:
    """The read-ahead query is an optimisation: a failed one (S3 Vectors unreachable, or an
    endpoint without QueryVectors) is sent again by `find_duplicates` where words are shared,
    as it was before any read ahead; None here."""
    try:
        return vector_hits(ctx, query)
    except VectorSearchUnavailable as exc:
        _log.warning("duplicate check: vector query ahead failed (%s)", exc)
        return None


def vector_key(query: VectorQuery) -> VectorKey:
    (area,) = query.areas
    return (area, query.typ, query.profil_hash, encode(query.vector))


def check_terms(texts: Sequence[tuple[str, str]]) -> dict[str, set[str]]:
    """Per area the union of the terms of its (area, scrubbed memory text) pairs: what
    `find_duplicates` looks up."""
    wanted: dict[str, set[str]] = {}
    for area, text in texts:
        wanted.setdefault(area, set()).update(term_set(text))
    return wanted


def covered(
    ahead: Prefetched, areas: Mapping[str, set[str]]
) -> dict[str, dict[str, list[MemoryPosting]]]:
    """The prefetched postings of the areas whose every term was read ahead."""
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


def vector_hits(ctx: ServiceContext, query: VectorQuery) -> list[VectorHit]:
    """The nearest vectors; none for the first vector of its profile (nothing to compare
    with: `VectorRanking.of`)."""
    return VectorRanking.of(ctx.storage.search_vectors, query).hits
