"""Server-side embeddings (optional): the configured embedder fills in the vectors that
callers do not send — for stored texts and for search queries.

Invariants:
- A caller's own vector always wins; the server embeds only what comes without one, and
  re-embeds a memory whose text changes only when its vector is the server's own (its
  profile) or missing — a caller's vector of another profile is never replaced.
- A stored memory gets the embedder's profile hash with its vector, so it is found by
  queries of the same profile only.
- An embedder failure never fails a write or a search: the memory is stored without a
  vector (`brain reindex` adds it later), the search runs on words alone. Texts are never
  logged.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace

from shared.domain import EmbeddingChange, Memory, MemoryReplace, NewMemory
from shared.embedding.port import EmbeddingFailed, Purpose
from shared.search.vectors import encode as encode_embedding
from shared.services.context import ServiceContext
from shared.validation.parsed import QueryVector

_log = logging.getLogger(__name__)


def document_text(memory: Memory) -> str:
    """What the embedder reads of a memory: its short description and its text."""
    return document_of(memory.kurzbeschreibung, memory.memory)


def document_of(kurzbeschreibung: str, text: str) -> str:
    return f"{kurzbeschreibung}\n{text}"


def server_vectors(ctx: ServiceContext, documents: Sequence[str]) -> dict[str, bytes]:
    """{document: the server's vector of it} (one embedder call); empty without an embedder
    or when it fails (the write then embeds again in `with_server_embeddings`)."""
    try:
        return _embedded(ctx, documents)
    except EmbeddingFailed as exc:
        _log.warning("no server-side embeddings ahead of the write: %s", exc)
        return {}


def _embedded(ctx: ServiceContext, documents: Sequence[str]) -> dict[str, bytes]:
    """{document: its server vector}: one embedder call (EmbeddingFailed: raised)."""
    embedder = ctx.embedder
    if embedder is None or not documents:
        return {}
    vectors = embedder.embed(list(documents), Purpose.DOCUMENT)
    return {text: encode_embedding(v) for text, v in zip(documents, vectors, strict=True)}


def with_server_embeddings(
    ctx: ServiceContext, batch: Sequence[NewMemory], known: Mapping[str, bytes] | None = None
) -> list[NewMemory]:
    """`batch` with a vector for every memory that has none (one embedder call); `known`:
    the server's vectors of documents embedded before (`server_vectors`), not embedded again."""
    embedder = ctx.embedder
    missing = [i for i, new in enumerate(batch) if new.embedding is None]
    if embedder is None or not missing:
        return list(batch)
    known = known or {}
    due = [i for i in missing if document_text(batch[i].memory) not in known]
    try:
        fresh = _embedded(ctx, [document_text(batch[i].memory) for i in due])
    except EmbeddingFailed as exc:
        _log.warning("stored without server-side embeddings: %s", exc)
        return list(batch)
    vectors = {**known, **fresh}
    result = list(batch)
    profile = embedder.profile
    for i in missing:
        memory = batch[i].memory
        memory.embedding_dim = profile.dimension
        memory.embedding_profil_hash = profile.hash
        embedding = vectors[document_text(memory)]
        result[i] = replace(batch[i], memory=memory, embedding=embedding)
    return result


def with_refreshed_embeddings(
    ctx: ServiceContext, changes: Sequence[MemoryReplace]
) -> list[MemoryReplace]:
    """`changes` where a memory's text changed and its vector is missing or the embedder's
    own: re-embedded (one embedder call); everything else as given."""
    embedder = ctx.embedder
    if embedder is None:
        return list(changes)
    own = embedder.profile.hash

    def stale(change: MemoryReplace) -> bool:
        new, old = change.memory, change.previous
        if change.embedding_change is not EmbeddingChange.KEEP:
            return False  # the caller sets or removes the vector itself
        if document_text(new) == document_text(old) and new.embedding_dim is not None:
            return False
        return new.embedding_dim is None or new.embedding_profil_hash == own

    due = [i for i, change in enumerate(changes) if stale(change)]
    if not due:
        return list(changes)
    try:
        vectors = embedder.embed([document_text(changes[i].memory) for i in due], Purpose.DOCUMENT)
    except EmbeddingFailed as exc:
        _log.warning("changed texts keep their old server-side embeddings: %s", exc)
        return list(changes)
    result = list(changes)
    for i, vector in zip(due, vectors, strict=True):
        memory = replace(
            changes[i].memory,
            embedding_dim=embedder.profile.dimension,
            embedding_profil_hash=own,
        )
        result[i] = replace(
            changes[i],
            memory=memory,
            embedding_change=EmbeddingChange.SET,
            embedding=encode_embedding(vector),
        )
    return result


def embed_missing(ctx: ServiceContext, tenant: str, memories: Sequence[Memory]) -> int:
    """`brain reindex`'s vector part (a reindex hook): memories stored without a vector
    (before an embedder was configured, or when it failed) get the embedder's. Returns how
    many were embedded; conflicts with concurrent writers are left to the next run."""
    if ctx.embedder is None:
        return 0
    wanted = [m.id for m in memories if m.embedding_dim is None]
    # Read again: the word reindex of the same page has just moved their versions.
    fresh = ctx.storage.get_memories(tenant, wanted, ctx.clock()) if wanted else {}
    missing = [fresh[i] for i in wanted if i in fresh and fresh[i].embedding_dim is None]
    changes = with_refreshed_embeddings(ctx, [MemoryReplace(m, m) for m in missing])
    due = [c for c in changes if c.embedding_change is EmbeddingChange.SET]
    if not due:
        return 0
    outcomes = ctx.storage.replace_memories(due, ctx.clock())
    done = sum(outcome is None for outcome in outcomes)
    if done < len(due):
        _log.warning("reindex of %s: %d vectors not written", tenant, len(due) - done)
    return done


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
