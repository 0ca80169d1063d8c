"""Server-side embeddings (optional): the configured embedder fills in the vectors that
callers do not send — for stored texts and for search queries.

Invariants:
- A caller's own vector always wins; the server embeds only what comes without one.
- A stored memory gets the embedder's profile hash with its vector, so it is found by
  queries of the same profile only.
- An embedder failure never fails a write or a search: the memory is stored without a
  vector (`brain reindex` adds it later), the search runs on words alone. Texts are never
  logged.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from shared.domain import Memory, NewMemory
from shared.embedding.port import EmbeddingFailed, Purpose
from shared.search.vectors import encode as encode_embedding
from shared.services.context import ServiceContext
from shared.validation.parsed import QueryVector

_log = logging.getLogger(__name__)


def document_text(memory: Memory) -> str:
    """What the embedder reads of a memory: its short description and its text."""
    return f"{memory.kurzbeschreibung}\n{memory.memory}"


def with_server_embeddings(ctx: ServiceContext, batch: Sequence[NewMemory]) -> list[NewMemory]:
    """`batch` with a vector for every memory that has none (one embedder call)."""
    embedder = ctx.embedder
    missing = [i for i, new in enumerate(batch) if new.embedding is None]
    if embedder is None or not missing:
        return list(batch)
    try:
        vectors = embedder.embed(
            [document_text(batch[i].memory) for i in missing], Purpose.DOCUMENT
        )
    except EmbeddingFailed as exc:
        _log.warning("stored without server-side embeddings: %s", exc)
        return list(batch)
    result = list(batch)
    profile = embedder.profile
    for i, vector in zip(missing, vectors, strict=True):
        memory = batch[i].memory
        memory.embedding_dim = profile.dimension
        memory.embedding_profil_hash = profile.hash
        result[i] = NewMemory(memory, encode_embedding(vector))
    return result


def query_vector(ctx: ServiceContext, text: str, given: QueryVector | None) -> QueryVector | None:
    """The caller's vector, else the embedder's vector of the query text, else None."""
    if given is not None or ctx.embedder is None:
        return given
    try:
        (vector,) = ctx.embedder.embed([text], Purpose.QUERY)
    except EmbeddingFailed as exc:
        _log.warning("search on words only: %s", exc)
        return None
    return QueryVector(tuple(vector), ctx.embedder.profile.hash)
