"""The limits of every tool, stated once from the validator's own constants.

The seed input schemas are published verbatim, so limits they do not state are appended to
each tool's description (`describe`). Each `Limit` names where it applies (`path` into the
arguments, `[]` = every item), what it counts and the constant the validator enforces; the
tests probe every stated limit against the validator and check that every `*MAX*` constant
of the validator is stated for some tool.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from shared.validation import memory_requests as mr
from shared.validation import requests as rq
from shared.validation import rules
from shared.validation.json_body import MAX_BODY_BYTES, MAX_JSON_DEPTH

Unit = Literal["chars", "items", "keys", "bytes", "maximum", "dims", "key_chars"]
_UNITS: Final[dict[str, str]] = {
    "chars": "Zeichen",
    "items": "Einträge",
    "keys": "Schlüssel",
    "bytes": "Bytes (JSON, UTF-8)",
    "maximum": "",
    "dims": "Werte",
    "key_chars": "Zeichen je Schlüssel",
}


@dataclass(frozen=True)
class Limit:
    path: tuple[str, ...]  # into the arguments; "[]" stands for every item of a list
    unit: Unit
    value: int | float

    @property
    def field(self) -> str:
        return ".".join(self.path).replace(".[]", "[]")

    def text(self) -> str:
        if self.unit == "maximum":
            return f"{self.field} höchstens {self.value}"
        return f"{self.field} höchstens {self.value} {_UNITS[self.unit]}"


def _envelope(*more: Limit) -> tuple[Limit, ...]:
    return (
        Limit(("referenzfelder",), "keys", rules.REFERENZFELDER_MAX_KEYS),
        Limit(("referenzfelder",), "bytes", rules.REFERENZFELDER_MAX_BYTES),
        Limit(("inhalt", "nutzer"), "chars", rules.IDENTITY_MAX_LEN),
        Limit(("inhalt", "agent"), "chars", rules.IDENTITY_MAX_LEN),
        *more,
    )


def _memory_fields(base: tuple[str, ...]) -> tuple[Limit, ...]:
    return (
        Limit((*base, "kurzbeschreibung"), "chars", rq.KURZBESCHREIBUNG_MAX_LEN),
        Limit((*base, "memory"), "chars", rq.MEMORY_MAX_LEN),
        Limit((*base, "tags"), "items", rules.TAGS_MAX_ITEMS),
        Limit((*base, "tags", "[]"), "chars", rules.TAG_MAX_LEN),
        Limit((*base, "scope"), "chars", rules.IDENTITY_MAX_LEN),
        Limit((*base, "scope_vk"), "chars", rules.IDENTITY_MAX_LEN),
        Limit((*base, "embedding"), "dims", rules.EMBEDDING_MAX_DIM),
        Limit((*base, "embedding", "[]"), "maximum", rules.FLOAT32_MAX),
        Limit((*base, rq.PROFIL_HASH), "chars", rq.PROFIL_HASH_MAX_LEN),
    )


# The optional query vector of the search tools: the insert's embedding rules.
_QUERY_VECTOR = (
    Limit(("embedding",), "dims", rules.EMBEDDING_MAX_DIM),
    Limit(("embedding", "[]"), "maximum", rules.FLOAT32_MAX),
    Limit((rq.PROFIL_HASH,), "chars", rq.PROFIL_HASH_MAX_LEN),
)

_ENTRY = ("inhalt", "memories", "[]")
_INSERT = _envelope(
    Limit(("inhalt", "memories"), "items", rules.MAX_BATCH),
    *_memory_fields(_ENTRY),
    Limit((*_ENTRY, "nutzer"), "chars", rules.IDENTITY_MAX_LEN),
    Limit((*_ENTRY, "agent"), "chars", rules.IDENTITY_MAX_LEN),
)
_IDS = _envelope(
    Limit(("inhalt", "memories", "shortterm"), "items", rules.MAX_BATCH),
    Limit(("inhalt", "memories", "longterm"), "items", rules.MAX_BATCH),
)

TOOL_LIMITS: Final[dict[str, tuple[Limit, ...]]] = {
    "fetch_brain_memories": _IDS,
    "delete_brain_memories": _IDS,
    "insert_brain_longterm_memory": _INSERT,
    "insert_brain_shortterm_memory": _INSERT,
    "rate_brain_memories": _envelope(
        Limit(("inhalt", "memories"), "items", rules.MAX_BATCH),
        Limit(("inhalt", "memories", "[]", "parameter", "agent"), "chars", rules.IDENTITY_MAX_LEN),
    ),
    "update_brain_memories": _envelope(
        Limit(("inhalt", "memories"), "items", rules.MAX_BATCH),
        *_memory_fields(_ENTRY),
    ),
    "upsert_brain": _envelope(
        Limit(("inhalt", "eintraege"), "items", rules.MAX_BATCH),
        Limit(("inhalt", "eintraege", "[]", "ID"), "maximum", rules.ID_MAX),
        Limit(("inhalt", "eintraege", "[]", "titel"), "chars", rq.TITEL_MAX_LEN),
        Limit(("inhalt", "eintraege", "[]", "inhalt"), "chars", rq.BRAIN_INHALT_MAX_LEN),
        Limit(("inhalt", "eintraege", "[]", "vk_referenz_id"), "chars", rules.IDENTITY_MAX_LEN),
        Limit(("inhalt", "eintraege", "[]", "tags"), "items", rules.TAGS_MAX_ITEMS),
        Limit(("inhalt", "eintraege", "[]", "stammdaten"), "keys", rq.STAMMDATEN_MAX_KEYS),
        Limit(("inhalt", "eintraege", "[]", "stammdaten"), "key_chars", rq.STAMMDATEN_KEY_MAX_LEN),
        Limit(
            ("inhalt", "eintraege", "[]", "stammdaten", "[]"), "chars", rq.STAMMDATEN_STR_MAX_LEN
        ),
    ),
    "select_brain": (
        Limit(("referenzfelder",), "keys", rules.REFERENZFELDER_MAX_KEYS),
        Limit(("referenzfelder",), "bytes", rules.REFERENZFELDER_MAX_BYTES),
        Limit(("nutzer",), "items", rq.SELECT_IDENTITIES_MAX),
        Limit(("agent",), "items", rq.SELECT_IDENTITIES_MAX),
        Limit(("query",), "chars", rq.QUERY_MAX_LEN),
        Limit(("ID",), "items", rules.MAX_BATCH),
        Limit(("ID", "[]"), "maximum", rules.ID_MAX),
        Limit(("vk_referenz_id",), "chars", rules.IDENTITY_MAX_LEN),
        Limit(("limit",), "maximum", rq.SELECT_LIMIT_MAX),
    ),
    "remember": (
        Limit(("content",), "chars", rq.MEMORY_MAX_LEN),
        Limit(("path",), "chars", mr.PATH_MAX_LEN),
    ),
    "search_memory": (
        Limit(("query",), "chars", rq.QUERY_MAX_LEN),
        Limit(("limit",), "maximum", mr.SEARCH_LIMIT_MAX),
        *_QUERY_VECTOR,
    ),
    "recall": (
        Limit(("query",), "chars", rq.QUERY_MAX_LEN),
        Limit(("limit",), "maximum", mr.RECALL_LIMIT_MAX),
        *_QUERY_VECTOR,
    ),
    "recall_context": (
        Limit(("task",), "chars", mr.TASK_MAX_LEN),
        Limit(("limit",), "maximum", mr.SEARCH_LIMIT_MAX),
        *_QUERY_VECTOR,
    ),
}

REQUEST_LIMITS: Final = (
    f"Anfrage höchstens {MAX_BODY_BYTES} Bytes, JSON höchstens {MAX_JSON_DEPTH} Ebenen tief; "
    "keine Steuerzeichen in Texten"
)


def describe(tool: str, description: str) -> str:
    """`description` with the tool's limits appended (one sentence)."""
    stated = [limit.text() for limit in TOOL_LIMITS.get(tool, ())]
    return f"{description} Grenzen: {'; '.join([*stated, REQUEST_LIMITS])}."
