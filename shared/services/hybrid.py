"""Hybrid retrieval for the Memory OS search tools: the word ranking (exact BM25 top k over
the area postings, `word_search.rank_words`) fused with the vector ranking (cosine over the
caller's areas, `StoragePort.search_vectors`), both at the same depth (`fusion.py`).

Invariants:
- Visibility is the words' visibility: vectors are searched in the same storage lookup as
  the postings (`lookup_memory_terms(vector=...)`, one round trip), over the same areas —
  the caller's readable ones, bounded by the `path` prefix — and every hit is checked
  again on the loaded memory (area and path) before it is returned.
- Without a vector (none sent, no embedder configured) the ranking is the word ranking and
  `relevanz` its BM25 score, as before. With one, `relevanz` is the fused score in [0, 1]
  (`Settings.search_fusion`): 1 = best in both rankings.
- Every hit names the signals that found it: `treffer_durch` ⊆ ["woerter", "vektor"].
- Ratings and recency (`shared/search/signals.py`) reorder the hits by `rangwert` =
  relevance × their factor, over every candidate whose relevance could still reach the top
  `limit` (`signals.reach`); `relevanz` stays the relevance. Off (`Settings.rank_signals`):
  the relevance order.
- A vector of an unknown profile or another dimension is the caller's error (German, naming
  the field); for a server-side query vector it only means "no vectors yet": words alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.auth.principal import Principal
from shared.domain import Memory, MemoryId, MemoryType
from shared.search.fusion import FUSION_DEPTH, SIGNAL_WORDS, VECTOR_DEPTH_MAX, fuse
from shared.search.signals import REACH_FACTOR, reach, rerank
from shared.search.vectors import VectorProfileError, VectorQuery
from shared.services.areas import Visibility
from shared.services.context import ServiceContext
from shared.services.embeddings import query_vector
from shared.services.profiles import ProfileCheck, Refused
from shared.services.word_search import OVERREAD, WordHits, load_ranked, word_depth
from shared.validation import messages
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.parsed import ContextRequest, QueryVector, SearchRequest


@dataclass(frozen=True)
class SearchHit:
    memory: Memory
    score: float  # the relevance (BM25, or the fused score)
    signals: tuple[str, ...]
    rank_value: float = 0.0  # what the order follows: relevance × the signals' factor


def profile_error(error: VectorProfileError, server_profile: str | None) -> RequestRejected:
    """The German answer to a query vector that matches no stored vectors."""
    profile = messages.echo(error.profil_hash)
    if not error.known_dimensions:
        hint = ""
        if server_profile:
            hint = f" Der Server bettet mit dem Profil '{server_profile}' ein."
        text = (
            f"unbekanntes Profil {profile}: keine gespeicherte Erinnerung hat ein Embedding "
            "dieses Profils. Den Profil-Hash senden, mit dem die Erinnerungen eingefügt "
            f"wurden, oder embedding weglassen (dann nur Wortsuche).{hint}"
        )
        return RequestRejected([FieldError("embedding_profil_hash", text)])
    dims = ", ".join(str(d) for d in error.known_dimensions)
    text = (
        f"Dimension passt nicht: der Suchvektor hat {error.dimension} Werte, die Embeddings "
        f"des Profils {profile} haben {dims} Werte. Vektoren verschiedener Dimension sind "
        "nicht vergleichbar."
    )
    return RequestRejected([FieldError("embedding", text)])


def vector_query(
    ctx: ServiceContext,
    tenant: str,
    request: SearchRequest | ContextRequest,
    only: MemoryType | None,
) -> VectorQuery | None:
    """The vector half of a search (the request's vector, else the embedder's; None
    without either), to run in the word lookup: its areas are the lookup's."""
    vector = query_vector(ctx, request.query, request.vector)
    if vector is None:
        return None
    if not vector.profil_hash:
        profile = ProfileCheck(ctx, tenant, []).resolve(len(vector.values), None, fix=False)
        if isinstance(profile, Refused):
            raise RequestRejected([FieldError(profile.field, profile.message)])
        vector = QueryVector(vector.values, profile)
    return VectorQuery(
        tenant=tenant,
        profil_hash=vector.profil_hash,
        vector=vector.values,
        areas=frozenset(),
        now=ctx.clock(),
        limit=candidate_depth(request, True),
        typ=only,
    )


def candidate_depth(
    request: SearchRequest | ContextRequest, hybrid: bool, signals_on: bool = False
) -> int:
    """Candidates per signal: the fusion depth for a hybrid search (each list as deep as
    the other), else what the limit needs (as far as the ranking signals reach, when on);
    over-read when the path lies below area level."""
    if not hybrid:
        return word_depth(request.limit, request.path) * (REACH_FACTOR if signals_on else 1)
    exact = request.path is None or request.path.count("/") <= 1
    depth = max(FUSION_DEPTH, request.limit) * (1 if exact else OVERREAD)
    return min(depth, max(VECTOR_DEPTH_MAX, request.limit))


def _vector_ranking(
    ctx: ServiceContext, request: SearchRequest | ContextRequest, words: WordHits
) -> list[tuple[MemoryId, float]]:
    if words.vectors is None:
        return []
    error = words.vectors.error
    if error is not None:
        if request.vector is None:  # the server's own vector: nothing embedded yet
            return []
        server = ctx.embedder.profile.hash if ctx.embedder is not None else None
        raise profile_error(error, server) from error
    return [(hit.memory_id, hit.score) for hit in words.vectors.hits]


def search(
    ctx: ServiceContext,
    principal: Principal,
    request: SearchRequest | ContextRequest,
    visibility: Visibility,
    words: WordHits,
) -> list[SearchHit]:
    """The best `request.limit` visible memories under `request.path`, fused from the word
    ranking (`word_search.rank_words`: BM25, best first, already filtered by what postings
    can decide) and the vector ranking its lookup brought (`vector_query`), loaded by
    `word_search.load_ranked` (which checks every hit's area and path)."""
    vectors = _vector_ranking(ctx, request, words)
    if vectors:
        settings = ctx.settings
        fused = fuse(
            words.ranked,
            vectors,
            method=settings.search_fusion,
            depth=candidate_depth(request, True),
            vector_weight=settings.search_vector_weight,
        )
        ranked = [(f.memory_id, f.score) for f in fused]
        signals = {f.memory_id: f.signals for f in fused}
    else:
        ranked = list(words.ranked)
        signals = {}
    ranking = ctx.settings.ranking_signals
    depth = reach([score for _, score in ranked], request.limit, ranking)
    loaded = load_ranked(ctx, principal, visibility, ranked, path=request.path, limit=depth)
    ordered = rerank(loaded, lambda pair: pair[1], lambda pair: pair[0], ctx.clock(), ranking)
    return [
        SearchHit(memory, score, signals.get(memory.id, (SIGNAL_WORDS,)), final)
        for (memory, score), final in ordered[: request.limit]
    ]


__all__ = [
    "QueryVector",
    "SearchHit",
    "candidate_depth",
    "profile_error",
    "search",
    "vector_query",
]
