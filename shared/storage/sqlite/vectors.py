"""Vector search on SQLite: exact, in-process cosine over the embeddings table of the
same file (no extension needed).

A search reads only the caller's areas (`memories_by_area`, then the embedding by primary
key) and only vectors of the query's profile and dimension, so its cost follows what the
caller may see, not the tenant. When nothing of that profile and dimension is found, one
lookup through `memories_by_profile` tells an unknown profile from a wrong dimension.
"""

# SQL text is only ever built from this module's constants; every value is a bound parameter.
# ruff: noqa: S608

from __future__ import annotations

from collections.abc import Sequence

from shared.domain import MemoryId, MemoryType
from shared.search.vectors import VectorHit, VectorProfileError, VectorQuery, top_by_cosine
from shared.storage.sqlite.base import NOT_EXPIRED, SqliteBase
from shared.storage.values import dump, to_us


class VectorStore(SqliteBase):
    def profile_dimensions(self, tenant: str, profiles: Sequence[str]) -> dict[str, int]:
        wanted = sorted(set(profiles))
        if not wanted:
            return {}
        rows = (
            self._conn()
            .execute(
                "SELECT embedding_profil_hash, MIN(embedding_dim) FROM memories"
                " INDEXED BY memories_by_profile"
                " WHERE tenant = ? AND embedding_profil_hash IN (SELECT value FROM json_each(?))"
                " AND embedding_dim IS NOT NULL GROUP BY embedding_profil_hash",
                (tenant, dump(wanted)),
            )
            .fetchall()
        )
        return {str(profile): int(dimension) for profile, dimension in rows}

    def search_vectors(self, query: VectorQuery) -> list[VectorHit]:
        if not query.areas or query.limit <= 0:
            return []
        typ = "" if query.typ is None else " AND m.typ = ?"
        params: list[object] = [
            query.tenant,
            dump(sorted(query.areas)),
            query.profil_hash,
            query.dimension,
            to_us(query.now),
        ]
        if query.typ is not None:
            params.append(MemoryType(query.typ).value)
        with self._snapshot() as conn:
            rows = conn.execute(
                "SELECT m.typ, m.number, e.data FROM memories AS m JOIN embeddings AS e"
                " ON e.tenant = m.tenant AND e.typ = m.typ AND e.number = m.number"
                " WHERE m.tenant = ? AND m.area IN (SELECT value FROM json_each(?))"
                f" AND m.embedding_profil_hash = ? AND m.embedding_dim = ? AND {NOT_EXPIRED}"
                f"{typ}",
                params,
            ).fetchall()
            if not rows:
                known = [
                    int(dim)
                    for (dim,) in conn.execute(
                        "SELECT DISTINCT embedding_dim FROM memories"
                        " WHERE tenant = ? AND embedding_profil_hash = ?"
                        " AND embedding_dim IS NOT NULL",
                        (query.tenant, query.profil_hash),
                    ).fetchall()
                ]
                if query.dimension not in known:
                    raise VectorProfileError(query.profil_hash, query.dimension, known)
                return []
        candidates = ((MemoryId(MemoryType(t), int(n)), bytes(data)) for t, n, data in rows)
        return top_by_cosine(query, candidates)
