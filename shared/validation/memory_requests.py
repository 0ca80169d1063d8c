"""Parsing of the memory-management tools (update, delete) and the Memory OS tools
(remember, search_memory, recall, recall_context). Same conventions as `requests`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from shared.domain import MemoryId
from shared.validation import messages, rules
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.help_flag import HELP_FIELD
from shared.validation.parsed import (
    Batch,
    ContextRequest,
    MemoryUpdateInput,
    QueryVector,
    RememberRequest,
    SearchRequest,
)
from shared.validation.paths import PATH_NAMESPACES, bad_segment, normalise_path
from shared.validation.requests import (
    KURZBESCHREIBUNG_MAX_LEN,
    MEMORY_MAX_LEN,
    PROFIL_HASH,
    PROFIL_HASH_ALIAS,
    QUERY_MAX_LEN,
    _batch_items,
    _profil_hash,
)
from shared.validation.rules import DUPLICATE_FLAG, Fields, index_path, present
from shared.validation.supersede import ERSETZT_FIELD, VERLAUF_FIELD, ersetzt_ids, history_flag

PATH_MAX_LEN: Final = 300
SEARCH_LIMIT_MAX: Final = 50
SEARCH_LIMIT_DEFAULT: Final = 10
RECALL_LIMIT_MAX: Final = 20
RECALL_LIMIT_DEFAULT: Final = 5
CONTEXT_LIMIT_DEFAULT: Final = 10
TASK_MAX_LEN: Final = 4000

_UPDATE_FIELDS: Final = (
    "ID",
    "kurzbeschreibung",
    "memory",
    "tags",
    "scope",
    "scope_vk",
    "embedding",
    PROFIL_HASH,
    PROFIL_HASH_ALIAS,
    ERSETZT_FIELD,
)


# --- update --------------------------------------------------------------------------------


def _not_null(fields: Fields, key: str) -> bool:
    """Text fields cannot be removed: null is an error for them."""
    if fields.has(key) and fields.obj[key] is None:
        fields.errors.append(FieldError(fields.path(key), messages.NOT_NULL))
        return False
    return fields.has(key)


def _update_entry(value: Any, path: str) -> MemoryUpdateInput | list[FieldError]:
    errors: list[FieldError] = []
    item = rules.obj(value, path, errors)
    if item is None:
        return errors
    fields = Fields(item, path, errors)
    fields.reject_unknown(_UPDATE_FIELDS)
    raw_id = fields.required("ID", rules.memory_id)
    changes: dict[str, Any] = {}
    for key, max_len in (
        ("kurzbeschreibung", KURZBESCHREIBUNG_MAX_LEN),
        ("memory", MEMORY_MAX_LEN),
    ):
        if _not_null(fields, key):
            changes[key] = fields.optional(key, rules.text, max_len=max_len)
    if fields.has("tags"):
        tags = [] if item["tags"] is None else fields.optional("tags", rules.tags)
        changes["tags"] = tags
    for key in ("scope", "scope_vk"):
        if fields.has(key):
            changes[key] = "" if item[key] is None else fields.optional(key, rules.scope)
    if fields.has("embedding"):
        changes["embedding"] = fields.optional("embedding", rules.embedding)
    if fields.has(PROFIL_HASH) or fields.has(PROFIL_HASH_ALIAS):
        changes["embedding_profil_hash"] = _profil_hash(fields)
    if fields.has(ERSETZT_FIELD):
        replaced = fields.optional(ERSETZT_FIELD, ersetzt_ids)
        changes["ersetzt"] = tuple(replaced or ())
    if errors:
        return errors
    if not changes:
        errors.append(FieldError(path, messages.NOTHING_TO_CHANGE))
        return errors
    memory_id = present(MemoryId.parse(present(raw_id)))
    return MemoryUpdateInput(raw_id=present(raw_id), memory_id=memory_id, **changes)


def parse_update(arguments: Mapping[str, Any]) -> Batch[MemoryUpdateInput]:
    """update_brain_memories: per entry `ID` plus the fields to change."""
    caller, referenzfelder, items = _batch_items(arguments, "memories")
    entries: list[MemoryUpdateInput | list[FieldError]] = [
        _update_entry(item, index_path("inhalt.memories", index))
        for index, item in enumerate(items)
    ]
    return Batch(caller=caller, referenzfelder=referenzfelder, entries=entries)


# --- Memory OS -----------------------------------------------------------------------------


def _memory_path(
    value: Any, path: str, errors: list[FieldError], *, min_segments: int = 2
) -> str | None:
    """`projects/<p>/…`, `teams/<t>/…`, `users/<u>/…` in normal form (`paths.normalise_path`:
    NFKC, one case); segments [a-z0-9._-], no `.`/`..`. A search prefix (`min_segments=1`)
    may also name a whole namespace (`projects`)."""
    if not isinstance(value, str):
        errors.append(FieldError(path, messages.must_be("eine Zeichenkette", value)))
        return None
    if len(value) > PATH_MAX_LEN * 4:
        errors.append(FieldError(path, messages.too_long(PATH_MAX_LEN, len(value))))
        return None
    text = normalise_path(value)
    if not text:
        errors.append(FieldError(path, messages.NOT_BLANK))
        return None
    if len(text) > PATH_MAX_LEN:
        errors.append(FieldError(path, messages.too_long(PATH_MAX_LEN, len(text))))
        return None
    segments = text.split("/")
    if segments[0] not in PATH_NAMESPACES or len(segments) < min_segments:
        errors.append(FieldError(path, messages.path_namespace(PATH_NAMESPACES, text)))
        return None
    segment = bad_segment(segments)
    if segment is not None:
        errors.append(FieldError(path, messages.path_segment(segment)))
        return None
    return text


def _flat(
    arguments: Mapping[str, Any], allowed: tuple[str, ...]
) -> tuple[Fields, list[FieldError]]:
    errors: list[FieldError] = []
    fields = Fields(arguments, "", errors)
    # `help` is the dispatcher's (help_flag): checked there, allowed beside the tool's fields.
    fields.reject_unknown((*allowed, HELP_FIELD))
    return fields, errors


def parse_remember(arguments: Mapping[str, Any]) -> RememberRequest:
    fields, errors = _flat(
        arguments, ("content", "path", "create_project", DUPLICATE_FLAG, ERSETZT_FIELD)
    )
    content = fields.required("content", rules.text, max_len=MEMORY_MAX_LEN)
    path = fields.required("path", _memory_path)
    create_project = fields.optional("create_project", rules.boolean)
    duplikat_erlaubt = fields.optional(DUPLICATE_FLAG, rules.boolean)
    replaced = fields.optional(ERSETZT_FIELD, ersetzt_ids)
    if errors:
        raise RequestRejected(errors)
    return RememberRequest(
        content=present(content),
        path=present(path),
        create_project=bool(create_project),
        duplikat_erlaubt=bool(duplikat_erlaubt),
        ersetzt=tuple(replaced or ()),
    )


def _search_prefix(value: Any, path: str, errors: list[FieldError]) -> str | None:
    return _memory_path(value, path, errors, min_segments=1)


# A query embedding needs its profile (seed 001's fields), and the profile a vector.
PROFILE_NEEDS_VECTOR: Final = (
    "embedding fehlt: embedding_profil_hash allein sucht nichts. Den Suchvektor als "
    "embedding mitsenden oder beide Felder weglassen."
)


def _query_vector(fields: Fields) -> QueryVector | None:
    """`embedding` + `embedding_profil_hash` (or its alias): both or neither."""
    before = len(fields.errors)
    values = fields.optional("embedding", rules.embedding)
    profil_hash = _profil_hash(fields)
    if len(fields.errors) > before:
        return None
    if values is None and profil_hash:
        fields.errors.append(FieldError(fields.path("embedding"), PROFILE_NEEDS_VECTOR))
        return None
    if values is None:
        return None
    # Without a profile hash: the server's profile if its dimension fits, else refused
    # (services/profiles.py: one rule for insert, update and search).
    return QueryVector(tuple(values), profil_hash or "")


def _search(
    arguments: Mapping[str, Any],
    text_key: str,
    max_len: int,
    default: int,
    maximum: int,
    *,
    history: bool = False,
) -> tuple[str, int, str | None, QueryVector | None, bool]:
    """The search fields; with `history`, also `verlauf` (superseded memories too)."""
    allowed = (text_key, "limit", "path", "embedding", PROFIL_HASH, PROFIL_HASH_ALIAS)
    fields, errors = _flat(arguments, (*allowed, VERLAUF_FIELD) if history else allowed)
    text = fields.required(text_key, rules.text, max_len=max_len)
    limit = fields.optional("limit", rules.integer, minimum=1, maximum=maximum)
    prefix = fields.optional("path", _search_prefix)
    vector = _query_vector(fields)
    verlauf = fields.optional(VERLAUF_FIELD, history_flag) if history else None
    if errors:
        raise RequestRejected(errors)
    limit = limit if limit is not None else default
    return present(text), limit, prefix, vector, bool(verlauf)


def parse_search(arguments: Mapping[str, Any]) -> SearchRequest:
    query, limit, prefix, vector, verlauf = _search(
        arguments, "query", QUERY_MAX_LEN, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, history=True
    )
    return SearchRequest(query=query, limit=limit, path=prefix, vector=vector, verlauf=verlauf)


def parse_recall(arguments: Mapping[str, Any]) -> SearchRequest:
    query, limit, prefix, vector, verlauf = _search(
        arguments, "query", QUERY_MAX_LEN, RECALL_LIMIT_DEFAULT, RECALL_LIMIT_MAX, history=True
    )
    return SearchRequest(query=query, limit=limit, path=prefix, vector=vector, verlauf=verlauf)


def parse_recall_context(arguments: Mapping[str, Any]) -> ContextRequest:
    task, limit, prefix, vector, _ = _search(
        arguments, "task", TASK_MAX_LEN, CONTEXT_LIMIT_DEFAULT, SEARCH_LIMIT_MAX
    )
    return ContextRequest(task=task, limit=limit, path=prefix, vector=vector)
