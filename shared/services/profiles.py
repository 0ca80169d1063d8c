"""Embedding profiles of callers' vectors: one rule for insert, update and search
(docs/search.md, "Profile").

- A profile's dimension is fixed by its first stored vector (`StoragePort.profile_dimensions`;
  the server's own profile has its embedder's dimension). A vector of another dimension under
  it is refused, naming `embedding`; on insert the first vector of a new profile in a batch
  fixes it for the rest of the batch.
- A vector without a profile hash is stored (or searched) under the server's profile when the
  server has an embedder of exactly that dimension; otherwise it is refused, naming
  `embedding_profil_hash`. (A vector stored without a profile could never be found.)
Refusals never echo the vector; the profile hash is shown shortened (`messages.echo`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from shared.domain import MemoryType
from shared.services import responses
from shared.services.context import ServiceContext
from shared.validation import messages
from shared.validation.errors import FieldError
from shared.validation.parsed import MemoryInput

EMBEDDING = "embedding"
PROFIL_HASH = "embedding_profil_hash"


def missing_profile_message(ctx: ServiceContext) -> str:
    text = (
        "Pflichtfeld, wenn embedding gesetzt ist: der Profil-Hash des Embedding-Modells, mit "
        "dem der Vektor berechnet wurde (ohne ihn findet ihn keine Suche)."
    )
    if ctx.embedder is not None:
        profile = ctx.embedder.profile
        text += (
            f" Der Server bettet mit dem Profil '{profile.hash}' ({profile.dimension} Werte) "
            "ein: ein Vektor dieser Dimension ohne Profil-Hash gilt als dieses Profil."
        )
    return text


def dimension_message(size: int, profil_hash: str, dimension: int) -> str:
    return (
        f"Dimension passt nicht: das embedding hat {size} Werte, das Profil "
        f"{messages.echo(profil_hash)} hat {dimension} Werte (festgelegt durch seinen ersten "
        "Vektor). Vektoren verschiedener Dimension sind nicht vergleichbar."
    )


@dataclass(frozen=True)
class Refused:
    field: str  # EMBEDDING or PROFIL_HASH
    message: str


class ProfileCheck:
    """The profile rule for the vectors of one call (one storage read for its profiles)."""

    def __init__(self, ctx: ServiceContext, tenant: str, profiles: Iterable[str | None]) -> None:
        self._ctx = ctx
        self._known: dict[str, int] = {}
        if ctx.embedder is not None:
            self._known[ctx.embedder.profile.hash] = ctx.embedder.profile.dimension
        wanted = sorted({p for p in profiles if p and p not in self._known})
        if wanted:
            self._known |= ctx.storage.profile_dimensions(tenant, wanted)

    def resolve(self, size: int, profil_hash: str | None, *, fix: bool = True) -> str | Refused:
        """The profile a vector of `size` values goes under, or why it is refused; with
        `fix`, a profile not known yet gets this vector's dimension (a stored vector)."""
        if not profil_hash:
            embedder = self._ctx.embedder
            if embedder is None or embedder.profile.dimension != size:
                return Refused(PROFIL_HASH, missing_profile_message(self._ctx))
            return embedder.profile.hash
        dimension = self._known.get(profil_hash)
        if dimension is None:
            if fix:
                self._known[profil_hash] = size
            return profil_hash
        if dimension != size:
            return Refused(EMBEDDING, dimension_message(size, profil_hash, dimension))
        return profil_hash


def with_profiles(
    ctx: ServiceContext,
    tenant: str,
    typ: MemoryType,
    accepted: list[tuple[int, MemoryInput]],
    results: list[dict[str, Any]],
) -> list[tuple[int, MemoryInput]]:
    """The entries whose vectors keep the profile rule (`profiles.py`), each with the profile
    it goes under; the others' refusals go to `results` (an insert's entries)."""
    with_vectors = [entry for _, entry in accepted if entry.embedding is not None]
    if not with_vectors:
        return accepted
    check = ProfileCheck(ctx, tenant, (entry.embedding_profil_hash for entry in with_vectors))
    kept: list[tuple[int, MemoryInput]] = []
    for index, entry in accepted:
        if entry.embedding is None:
            kept.append((index, entry))
            continue
        profile = check.resolve(len(entry.embedding), entry.embedding_profil_hash)
        if isinstance(profile, Refused):
            error = FieldError(f"inhalt.memories[{index}].{profile.field}", profile.message)
            results.append(responses.entry_failure(index, [error], typ=typ.value))
        else:
            kept.append((index, replace(entry, embedding_profil_hash=profile)))
    return kept
