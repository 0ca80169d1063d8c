"""Validated, typed requests: what the services receive after parsing.

A batch keeps one slot per request entry in request order: either the parsed entry or the
list of field errors that made that entry fail on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from enum import Enum, StrEnum
from typing import Any, Final

from shared.domain import MemoryId, MemoryType, VkTyp
from shared.validation.errors import FieldError


@dataclass(frozen=True)
class Caller:
    """The `nutzer`/`agent` the request claims to act as (strings; integers converted)."""

    nutzer: str
    agent: str


@dataclass(frozen=True)
class Batch[EntryT]:
    caller: Caller
    referenzfelder: dict[str, Any]
    entries: list[EntryT | list[FieldError]]
    # Per entry index, the memories it replaces (issue 25) and the field that named them.
    ersetzt: dict[int, tuple[str, list[MemoryId]]] = field(default_factory=dict)


@dataclass(frozen=True)
class MemoryInput:
    """One entry of insert_brain_longterm_memory / insert_brain_shortterm_memory."""

    kurzbeschreibung: str
    memory: str
    tags: list[str]  # trimmed, duplicates (case-insensitive) removed, request order kept
    scope: str
    scope_vk: str
    agent: str
    nutzer: str
    embedding: list[float] | None = None  # finite values only
    embedding_profil_hash: str | None = None
    ttl_sekunden: int | None = None  # short-term only; None = configured default
    duplikat_erlaubt: bool = False  # True: stored even as a near-duplicate (issue 25)


@dataclass(frozen=True)
class RatingInput:
    typ: MemoryType
    memory_id: MemoryId
    agent: str
    score: Decimal
    datum: datetime | None  # timezone-aware UTC; None = now


@dataclass(frozen=True)
class FetchRequest:
    caller: Caller
    referenzfelder: dict[str, Any]
    # Request order, duplicates removed. Raw strings, so that an ID listed under the wrong
    # type can be reported back verbatim as nicht_gefunden.
    shortterm: list[str]
    longterm: list[str]


class Detail(StrEnum):
    STAMMDATEN = "stammdaten"
    TEXTE = "texte"
    ERINNERUNGEN = "erinnerungen"


@dataclass(frozen=True)
class SelectRequest:
    nutzer: list[str]
    agent: list[str]
    referenzfelder: dict[str, Any]
    detailgrad: frozenset[Detail]
    ids: list[int] | None = None
    query: str | None = None
    vk_typ: VkTyp | None = None
    vk_referenz_id: str | None = None
    limit: int = 20


@dataclass(frozen=True)
class BrainEntryInput:
    titel: str
    inhalt: str
    vk_typ: VkTyp
    vk_referenz_id: str
    id: int | None = None
    tags: list[str] = field(default_factory=list)
    stammdaten: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ParseOptions:
    """The configurable rules validation depends on (from the settings)."""

    score_min: Decimal = Decimal(0)
    score_max: Decimal = Decimal(10)
    timezone: str = "Europe/Berlin"
    max_ttl_sekunden: int = 365 * 24 * 3600


class Unset(Enum):
    """A field that was not given (as opposed to given as null)."""

    UNSET = "unset"


UNSET: Final = Unset.UNSET


@dataclass(frozen=True)
class MemoryUpdateInput:
    """One entry of update_brain_memories: omitted = unchanged (UNSET), null = removed."""

    raw_id: str
    memory_id: MemoryId
    kurzbeschreibung: str | Unset = UNSET
    memory: str | Unset = UNSET
    tags: list[str] | Unset = UNSET  # null arrives as []
    scope: str | Unset = UNSET  # null arrives as ""
    scope_vk: str | Unset = UNSET
    embedding: list[float] | Unset | None = UNSET
    embedding_profil_hash: str | Unset | None = UNSET
    ersetzt: tuple[MemoryId, ...] = ()  # the memories this one replaces (issue 25)


@dataclass(frozen=True)
class RememberRequest:
    content: str
    path: str
    create_project: bool = False
    duplikat_erlaubt: bool = False
    ersetzt: tuple[MemoryId, ...] = ()  # the memories this one replaces (issue 25)


@dataclass(frozen=True)
class QueryVector:
    """The caller's own query embedding (search tools) with its profile hash."""

    values: tuple[float, ...]
    profil_hash: str


@dataclass(frozen=True)
class SearchRequest:
    query: str
    limit: int
    path: str | None = None  # area-bounded search: only memories under this prefix
    vector: QueryVector | None = None  # hybrid search: rank by cosine too
    verlauf: bool = False  # history: superseded memories are found too


@dataclass(frozen=True)
class ContextRequest:
    task: str
    limit: int
    path: str | None = None
    vector: QueryVector | None = None

    @property
    def query(self) -> str:
        return self.task
