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
from dataclasses import dataclass

from shared.services.context import ServiceContext
from shared.validation import messages

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
