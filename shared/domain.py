"""Domain objects shared by services and storage adapters.

They carry no persistence details: each adapter maps them to its own rows or items.
Times are timezone-aware UTC datetimes; scores are Decimals so that sums stay exact.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any

MEMORY_ID_PATTERN = r"^(shortterm|longterm)_[1-9][0-9]*$"
_MEMORY_ID_RE = re.compile(MEMORY_ID_PATTERN)
_MAX_ID_DIGITS = 19  # 2**63 - 1 has 19 digits

# Areas (contract §2): every memory belongs to `users/<nutzer>`, `teams/<team>` or
# `projects/<projekt>`. The namespace decides who may see it; the rules live in
# shared/services/areas.py, these helpers are what storage adapters need as well.
AREA_NAMESPACES: tuple[str, ...] = ("users", "teams", "projects")
# What `remember` stores as the memory's scope for each namespace.
SCOPE_OF_NAMESPACE: dict[str, str] = {"projects": "projekt", "teams": "team", "users": "nutzer"}


def area_of_path(path: str) -> str:
    """`projects/memory-os/decisions` -> `projects/memory-os` (namespace and name)."""
    namespace, _, rest = path.strip("/").partition("/")
    name = rest.split("/", 1)[0]
    if namespace not in AREA_NAMESPACES or not name:
        raise ValueError(f"not an area path: {path!r}")
    return f"{namespace}/{name}"


def user_area(nutzer: str) -> str:
    return f"users/{nutzer}"


def within(location: str, prefix: str | None) -> bool:
    """Whether a memory path or area lies under a path prefix (whole segments)."""
    return prefix is None or location == prefix or location.startswith(prefix + "/")


def area_may_match(area: str, prefix: str | None) -> bool:
    """Whether memories of `area` can lie under `prefix` (decided from the area alone when
    the prefix names at most an area; deeper prefixes need the memory's path)."""
    return prefix is None or within(area, prefix) or within(prefix, area)


def searched_areas(
    areas: Sequence[str], projects: frozenset[str] | None, path: str | None
) -> list[str]:
    """The areas a search reads: `areas` plus the areas `projects/<p>` of the member's
    project records that may hold memories under `path` — distinct, sorted."""
    found = set(areas)
    for name in projects or ():
        area = f"projects/{name}"
        if area_may_match(area, path):
            found.add(area)
    return sorted(found)


def derived_area(nutzer: str, referenzfelder: dict[str, Any], scope: str, scope_vk: str) -> str:
    """The area of a memory stored before areas existed: a `remember` memory's path
    (recorded in its referenzfelder, consistent with its scope), else its nutzer's area."""
    path = referenzfelder.get("pfad")
    if referenzfelder.get("quelle") == "remember" and isinstance(path, str):
        try:
            area = area_of_path(path)
        except ValueError:
            return user_area(nutzer)
        namespace, _, name = area.partition("/")
        if SCOPE_OF_NAMESPACE[namespace] == scope and name == scope_vk:
            return area
    return user_area(nutzer)


class MemoryType(StrEnum):
    SHORTTERM = "shortterm"
    LONGTERM = "longterm"


class CounterName(StrEnum):
    """Per-tenant ID sequences. Values are part of storage keys: never rename."""

    SHORTTERM = "shortterm"
    LONGTERM = "longterm"
    RATING = "rating"
    BRAIN = "brain"
    LEDGER = "ledger"


class VkTyp(StrEnum):
    KUNDE = "kunde"
    PRODUKT = "produkt"
    MITARBEITER = "mitarbeiter"
    PROJEKT = "projekt"


@dataclass(frozen=True, order=True)
class MemoryId:
    typ: MemoryType
    number: int

    @classmethod
    def parse(cls, text: str) -> MemoryId | None:
        """`longterm_5` -> MemoryId; anything that does not match the seed pattern, or whose
        number has more digits than a 64-bit ID, -> None."""
        if not _MEMORY_ID_RE.fullmatch(text):
            return None
        prefix, _, number = text.partition("_")
        if len(number) > _MAX_ID_DIGITS:
            return None
        return cls(MemoryType(prefix), int(number))

    def __str__(self) -> str:
        return f"{self.typ.value}_{self.number}"


@dataclass
class Memory:
    tenant: str
    id: MemoryId
    kurzbeschreibung: str
    memory: str
    tags: list[str]
    scope: str
    scope_vk: str
    nutzer: str
    agent: str
    created_at: datetime
    updated_at: datetime
    referenzfelder: dict[str, Any] = field(default_factory=dict)
    expires_at: datetime | None = None
    embedding_dim: int | None = None
    embedding_profil_hash: str | None = None
    score_count: int = 0
    score_sum: Decimal = Decimal(0)
    last_call: datetime | None = None
    # Bumped on every change (ratings, updates); adapters use it for optimistic concurrency.
    version: int = 0
    # Analysed index terms of the memory (for search_memory) and its weighted length.
    terms: dict[str, int] = field(default_factory=dict)
    doc_len: int = 0
    # The area the memory belongs to (`users/<n>`, `teams/<t>`, `projects/<p>`). Empty:
    # derived once here (data from before areas; builders that do not care).
    area: str = ""
    # Superseded (issue 25): the time of the write that replaced this memory and the
    # memory that replaced it. Both None while the memory is current; a superseded memory
    # leaves default searches and listings but stays readable by ID and in the history.
    gueltig_bis: datetime | None = None
    ersetzt_durch: MemoryId | None = None
    # Where an adapter keeps the memory's vector, as read (DynamoDB: the item's S3 Vectors
    # key, which a replace deletes once the item no longer names it). Not part of equality.
    embedding_key: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.area:
            self.area = derived_area(self.nutzer, self.referenzfelder, self.scope, self.scope_vk)

    @property
    def superseded(self) -> bool:
        """Replaced by another memory (issue 25): default reads leave it out."""
        return self.gueltig_bis is not None

    @property
    def score_avg(self) -> Decimal | None:
        if self.score_count == 0:
            return None
        return self.score_sum / self.score_count


@dataclass(frozen=True, order=True)
class MemoryPosition:
    """A memory's place in listing order: created_at, then ID (type, number). Listings run
    newest first, i.e. in descending position; a position is unique per tenant."""

    created_at: datetime
    memory_id: MemoryId


@dataclass(frozen=True)
class NewMemory:
    """A memory to create, with its embedding already encoded (little-endian float32)."""

    memory: Memory
    embedding: bytes | None = None


class EmbeddingChange(StrEnum):
    KEEP = "keep"
    SET = "set"
    REMOVE = "remove"


@dataclass(frozen=True)
class MemoryReplace:
    """Replace `previous` (as read, with its version) by `memory` (same tenant and ID).

    The embedding is kept, replaced by `embedding` (little-endian float32), or removed.
    """

    memory: Memory
    previous: Memory
    embedding_change: EmbeddingChange = EmbeddingChange.KEEP
    embedding: bytes | None = None

    def __post_init__(self) -> None:  # programming errors, before any adapter writes
        _same_owner(self.previous.tenant, self.previous.id, self.memory.tenant, self.memory.id)
        if self.embedding_change is EmbeddingChange.SET and self.embedding is None:
            raise ValueError(f"EmbeddingChange.SET of {self.memory.id} without an embedding")


@dataclass(frozen=True)
class DeleteRead:
    """The memories a delete is about to remove, as the adapter read them
    (`StoragePort.read_for_delete`): live ones only, with their versions; `detail` is what
    the adapter read besides, so that it can delete them without reading again (DynamoDB:
    each memory's partition — item, ratings, a tombstone — from one Query)."""

    memories: Mapping[MemoryId, Memory]
    detail: object = None

    def only(self, ids: Iterable[MemoryId]) -> DeleteRead:
        """The same read restricted to `ids` (those the caller may delete)."""
        wanted = set(ids)
        kept = {memory_id: m for memory_id, m in self.memories.items() if memory_id in wanted}
        return DeleteRead(kept, self.detail)


@dataclass(frozen=True)
class Supersession:
    """Mark `memory_id` as replaced by `successor` at `at` (issue 25, `gueltig_bis`); `at`
    None takes back this successor's mark (its own write failed)."""

    memory_id: MemoryId
    successor: MemoryId
    at: datetime | None


@dataclass(frozen=True)
class Rating:
    tenant: str
    insert_id: int
    memory_id: MemoryId
    agent: str
    nutzer: str
    score: Decimal
    datum: datetime
    referenzfelder: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RatingOutcome:
    insert_id: int
    memory_id: MemoryId
    score_count: int
    score_avg: Decimal
    last_call: datetime


@dataclass
class BrainEntry:
    tenant: str
    id: int
    titel: str
    inhalt: str
    vk_typ: VkTyp
    vk_referenz_id: str
    tags: list[str]
    stammdaten: dict[str, Any]
    nutzer: str
    agent: str
    created_at: datetime
    updated_at: datetime
    referenzfelder: dict[str, Any] = field(default_factory=dict)
    # Analysed index terms with their weighted frequency, and the weighted document length.
    terms: dict[str, int] = field(default_factory=dict)
    doc_len: int = 0


@dataclass(frozen=True)
class BrainWrite:
    """Create `entry`, or replace `previous` (same ID) by it, keeping the search index in step."""

    entry: BrainEntry
    previous: BrainEntry | None = None

    def __post_init__(self) -> None:  # programming errors, before any adapter writes
        if self.previous is not None:
            p, e = self.previous, self.entry
            _same_owner(p.tenant, p.id, e.tenant, e.id)


def _same_owner(tenant: str, id_: object, new_tenant: str, new_id: object) -> None:
    if (tenant, id_) != (new_tenant, new_id):
        raise ValueError(
            f"replace must keep tenant and ID: {tenant}/{id_} -> {new_tenant}/{new_id}"
        )


@dataclass(frozen=True)
class Posting:
    """One entry containing a term. The entry's vk fields ride along so that vk filters
    apply to postings directly, without loading the entries."""

    entry_id: int
    tf: int
    doc_len: int
    vk_typ: str = ""
    vk_referenz_id: str = ""


@dataclass(frozen=True)
class CorpusStats:
    documents: int
    total_len: int

    @property
    def avg_len(self) -> float:
        return self.total_len / self.documents if self.documents else 0.0


@dataclass(frozen=True)
class TermLookup:
    postings: dict[str, list[Posting]]
    stats: CorpusStats


@dataclass(frozen=True)
class DuplicateSign:
    """What the near-duplicate decision needs of a stored memory's text besides its words
    (`shared/search/duplicates.py`): the size of its term set, its token count, a digest
    of its value tokens, its change markers, and the profile and dimension of its vector."""

    terms: int
    tokens: int
    values: str
    markers: frozenset[str]
    profile: str | None = None
    dim: int | None = None


@dataclass(frozen=True)
class MemoryPosting:
    """One memory containing a term; nutzer, expiry and area ride along so that visibility
    and expiry filter postings before any memory is loaded. Both adapters always store the
    area; None only in a posting built without one (the memory must be loaded to know it).

    For the near-duplicate check (services/duplicates.py) a posting also carries its
    memory's `sign` and whether the term is one of the memory *text's* terms (`text_term`;
    the index also holds kurzbeschreibung and tags): with them the postings read alone
    rules a stored memory out. None: a posting written without them (nothing is ruled out,
    the memory is loaded). Not part of a posting's identity (equality)."""

    entry_id: MemoryId
    tf: int
    doc_len: int
    nutzer: str
    expires_at: datetime | None = None
    area: str | None = None
    text_term: bool | None = field(default=None, compare=False)
    sign: DuplicateSign | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ExpiredMemory:
    tenant: str
    memory_id: MemoryId


@dataclass(frozen=True)
class Project:
    """A project area's record: its owner (the creator, also its first member) and members."""

    tenant: str
    name: str
    owner: str
    created_at: datetime
    members: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ReservedId:
    """An ID reserved for one entry of a keyed write; `reused`: the same entry of an earlier
    send of that write got it first (what that send stored under it is this entry's)."""

    number: int
    reused: bool


class EntryFailureCode(StrEnum):
    NOT_FOUND = "nicht_gefunden"
    CONFLICT = "konflikt"
    STORAGE = "speicherfehler"


@dataclass(frozen=True)
class EntryFailure:
    """Why a storage adapter could not apply one entry of a batch (the others are unaffected)."""

    code: EntryFailureCode
    detail: str = ""
