"""Raw MCP `arguments` -> the typed requests of `shared.validation.parsed`.

Every parse function raises `RequestRejected` with all envelope errors when the request as a
whole is invalid (nothing may be processed). Batch tools return a `Batch` whose `entries`
hold, per request entry and in order, the parsed entry or that entry's own errors.
Field paths are absolute: `inhalt.memories[3].embedding[2]`. Wording: `rules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from decimal import Decimal
from typing import Any, Final

from shared.domain import MemoryId, MemoryType, VkTyp
from shared.validation import messages, rules, scalar_maps
from shared.validation.datum import datum as datum_rule
from shared.validation.envelope import check_help, collect_referenzfelder
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.parsed import (
    Batch,
    BrainEntryInput,
    Caller,
    Detail,
    FetchRequest,
    MemoryInput,
    ParseOptions,
    RatingInput,
    SelectRequest,
)
from shared.validation.rules import DUPLICATE_FLAG, Fields, index_path, present
from shared.validation.supersede import batch_ersetzt

KURZBESCHREIBUNG_MAX_LEN: Final = 1000
MEMORY_MAX_LEN: Final = 50000
PROFIL_HASH_MAX_LEN: Final = 200
QUERY_MAX_LEN: Final = 1000
SELECT_IDENTITIES_MAX: Final = 20
SELECT_LIMIT_MAX: Final = 100
SELECT_LIMIT_DEFAULT: Final = 20
TITEL_MAX_LEN: Final = 500
BRAIN_INHALT_MAX_LEN: Final = 100000
STAMMDATEN_MAX_KEYS: Final = 50
STAMMDATEN_KEY_MAX_LEN: Final = 100
STAMMDATEN_STR_MAX_LEN: Final = 2000

PROFIL_HASH: Final = "embedding_profil_hash"
PROFIL_HASH_ALIAS: Final = "ebedding_profil_haash"  # the seed's misspelt twin

_INSERT_FIELDS: Final = (
    "kurzbeschreibung",
    "memory",
    "tags",
    "scope",
    "scope_vk",
    "agent",
    "nutzer",
    "embedding",
    PROFIL_HASH,
    PROFIL_HASH_ALIAS,
)
_SHORTTERM_FIELDS: Final = (*_INSERT_FIELDS, "ttl_sekunden")
_FETCH_FIELDS: Final = ("shortterm", "longterm")
_RATE_FIELDS: Final = ("typ", "parameter")
_RATE_PARAMETER_FIELDS: Final = ("memory_ID", "agent", "score", "datum")
_UPSERT_FIELDS: Final = (
    "ID",
    "titel",
    "inhalt",
    "vk_typ",
    "vk_referenz_id",
    "tags",
    "stammdaten",
)
_DETAILS: Final = tuple(detail.value for detail in Detail)


# --- envelope ------------------------------------------------------------------------------


def _envelope(
    arguments: Mapping[str, Any], errors: list[FieldError]
) -> tuple[Fields | None, Caller | None, dict[str, Any]]:
    """help, referenzfelder, `inhalt` with `nutzer`/`agent`: the Brain tools' envelope."""
    check_help(arguments, errors)
    referenzfelder = collect_referenzfelder(arguments, errors)
    inhalt = Fields(arguments, "", errors).required("inhalt", rules.obj)
    if inhalt is None:
        return None, None, referenzfelder
    fields = Fields(inhalt, "inhalt", errors)
    nutzer = fields.required("nutzer", rules.identity)
    agent = fields.required("agent", rules.identity)
    caller = None if nutzer is None or agent is None else Caller(nutzer=nutzer, agent=agent)
    return fields, caller, referenzfelder


def _batch_items(
    arguments: Mapping[str, Any], key: str
) -> tuple[Caller, dict[str, Any], list[Any]]:
    """The envelope plus the `inhalt.<key>` array of 1..100 entries, or RequestRejected."""
    errors: list[FieldError] = []
    inhalt, caller, referenzfelder = _envelope(arguments, errors)
    items = None
    if inhalt is not None:
        items = inhalt.required(key, rules.array, min_items=1, max_items=rules.MAX_BATCH)
    if errors:
        raise RequestRejected(errors)
    return present(caller), referenzfelder, present(items)


# --- insert --------------------------------------------------------------------------------


def _profil_hash(fields: Fields) -> str | None:
    """`embedding_profil_hash` or its alias; both given must agree."""
    before = len(fields.errors)
    canonical = fields.optional(PROFIL_HASH, rules.nullable_string, max_len=PROFIL_HASH_MAX_LEN)
    alias = fields.optional(PROFIL_HASH_ALIAS, rules.nullable_string, max_len=PROFIL_HASH_MAX_LEN)
    both = fields.has(PROFIL_HASH) and fields.has(PROFIL_HASH_ALIAS)
    if both and len(fields.errors) == before and canonical != alias:
        message = messages.alias_conflict(PROFIL_HASH, PROFIL_HASH_ALIAS)
        fields.errors.append(FieldError(fields.path(PROFIL_HASH), message))
    return canonical if fields.has(PROFIL_HASH) else alias


def _insert_entry(
    value: Any, path: str, options: ParseOptions, shortterm: bool
) -> MemoryInput | list[FieldError]:
    errors: list[FieldError] = []
    item = rules.obj(value, path, errors)
    if item is None:
        return errors
    fields = Fields(item, path, errors)
    fields.reject_unknown(_SHORTTERM_FIELDS if shortterm else _INSERT_FIELDS)
    kurzbeschreibung = fields.required(
        "kurzbeschreibung", rules.text, max_len=KURZBESCHREIBUNG_MAX_LEN
    )
    memory = fields.required("memory", rules.text, max_len=MEMORY_MAX_LEN)
    tags = fields.required("tags", rules.tags)
    scope = fields.required("scope", rules.scope)
    scope_vk = fields.required("scope_vk", rules.scope)
    agent = fields.required("agent", rules.identity)
    nutzer = fields.required("nutzer", rules.identity)
    embedding = fields.optional("embedding", rules.embedding)
    profil_hash = _profil_hash(fields)
    ttl = None
    if shortterm:
        ttl = fields.optional(
            "ttl_sekunden", rules.integer, minimum=1, maximum=options.max_ttl_sekunden
        )
    if errors:
        return errors
    return MemoryInput(
        kurzbeschreibung=present(kurzbeschreibung),
        memory=present(memory),
        tags=present(tags),
        scope=present(scope),
        scope_vk=present(scope_vk),
        agent=present(agent),
        nutzer=present(nutzer),
        embedding=embedding,
        embedding_profil_hash=profil_hash,
        ttl_sekunden=ttl,
    )


def parse_insert(
    arguments: Mapping[str, Any], options: ParseOptions, *, shortterm: bool
) -> Batch[MemoryInput]:
    """insert_brain_longterm_memory / insert_brain_shortterm_memory."""
    caller, referenzfelder, items = _batch_items(arguments, "memories")
    allow = duplicate_flag(referenzfelder)
    errors: list[FieldError] = []
    ersetzt = batch_ersetzt(referenzfelder, len(items), errors)
    if errors:
        raise RequestRejected(errors)
    entries: list[MemoryInput | list[FieldError]] = [
        _insert_entry(item, index_path("inhalt.memories", index), options, shortterm)
        for index, item in enumerate(items)
    ]
    if allow:
        entries = allowing_duplicates(entries)
    return Batch(caller=caller, referenzfelder=referenzfelder, entries=entries, ersetzt=ersetzt)


def allowing_duplicates(
    entries: list[MemoryInput | list[FieldError]],
) -> list[MemoryInput | list[FieldError]]:
    """The entries with `duplikat_erlaubt` set (stored even as near-duplicates); refused
    entries (their errors) stay as they are."""
    return [e if isinstance(e, list) else replace(e, duplikat_erlaubt=True) for e in entries]


def duplicate_flag(referenzfelder: Mapping[str, Any]) -> bool:
    """`referenzfelder.duplikat_erlaubt` of an insert batch (the seed's entry schema admits no
    further field): true stores near-duplicates too; anything but a boolean is refused."""
    if DUPLICATE_FLAG not in referenzfelder:
        return False
    errors: list[FieldError] = []
    value = rules.boolean(
        referenzfelder[DUPLICATE_FLAG], rules.key_path("referenzfelder", DUPLICATE_FLAG), errors
    )
    if errors:
        raise RequestRejected(errors)
    return bool(value)


# --- fetch ---------------------------------------------------------------------------------


def parse_fetch(arguments: Mapping[str, Any]) -> FetchRequest:
    """fetch_brain_memories: every error is an envelope error."""
    errors: list[FieldError] = []
    inhalt, caller, referenzfelder = _envelope(arguments, errors)
    shortterm: list[str] | None = None
    longterm: list[str] | None = None
    memories = None if inhalt is None else inhalt.required("memories", rules.obj)
    if memories is not None:
        fields = Fields(memories, "inhalt.memories", errors)
        fields.reject_unknown(_FETCH_FIELDS)
        shortterm = fields.optional("shortterm", rules.memory_id_list)
        longterm = fields.optional("longterm", rules.memory_id_list)
    if errors:
        raise RequestRejected(errors)
    return FetchRequest(
        caller=present(caller),
        referenzfelder=referenzfelder,
        shortterm=shortterm or [],
        longterm=longterm or [],
    )


# --- rate ----------------------------------------------------------------------------------


def _rate_entry(value: Any, path: str, options: ParseOptions) -> RatingInput | list[FieldError]:
    errors: list[FieldError] = []
    item = rules.obj(value, path, errors)
    if item is None:
        return errors
    fields = Fields(item, path, errors)
    fields.reject_unknown(_RATE_FIELDS)
    typ = fields.required("typ", rules.enum_member, MemoryType)
    parameter = fields.required("parameter", rules.obj)
    memory_id: str | None = None
    agent: str | None = None
    score: Decimal | None = None
    datum: datetime | None = None
    if parameter is not None:
        params = Fields(parameter, fields.path("parameter"), errors)
        params.reject_unknown(_RATE_PARAMETER_FIELDS)
        memory_id = params.required("memory_ID", rules.memory_id)
        agent = params.required("agent", rules.identity)
        score = params.required(
            "score", rules.score, minimum=options.score_min, maximum=options.score_max
        )
        datum = params.optional("datum", datum_rule, timezone=options.timezone)
    parsed_id = None if memory_id is None else MemoryId.parse(memory_id)
    mismatch = parsed_id is not None and typ is not None and parsed_id.typ != typ
    if mismatch and typ is not None and memory_id is not None:
        message = messages.typ_mismatch(typ.value, memory_id)
        errors.append(FieldError(fields.path("typ"), message))
    if errors:
        return errors
    return RatingInput(
        typ=present(typ),
        memory_id=present(parsed_id),
        agent=present(agent),
        score=present(score),
        datum=datum,
    )


def parse_rate(arguments: Mapping[str, Any], options: ParseOptions) -> Batch[RatingInput]:
    """rate_brain_memories."""
    caller, referenzfelder, items = _batch_items(arguments, "memories")
    entries: list[RatingInput | list[FieldError]] = [
        _rate_entry(item, index_path("inhalt.memories", index), options)
        for index, item in enumerate(items)
    ]
    return Batch(caller=caller, referenzfelder=referenzfelder, entries=entries)


# --- select_brain --------------------------------------------------------------------------


def _detailgrad(value: Any, path: str, errors: list[FieldError]) -> frozenset[Detail] | None:
    """Comma list of stammdaten|texte|erinnerungen; empty segments are ignored."""
    if not isinstance(value, str):
        errors.append(FieldError(path, messages.must_be("eine Zeichenkette", value)))
        return None
    parts = [part.strip() for part in value.split(",") if part.strip()]
    if not parts:
        errors.append(FieldError(path, messages.one_of(_DETAILS, value)))
        return None
    unknown = {part: n for n, part in reversed(list(enumerate(parts))) if part not in _DETAILS}
    for part, position in sorted(unknown.items(), key=lambda item: item[1]):
        errors.append(FieldError(path, messages.unknown_value(_DETAILS, part, position)))
    return None if unknown else frozenset(Detail(part) for part in parts)


def parse_select(arguments: Mapping[str, Any]) -> SelectRequest:
    """select_brain: flat arguments (no `inhalt`); every error rejects the request."""
    errors: list[FieldError] = []
    check_help(arguments, errors)
    referenzfelder = collect_referenzfelder(arguments, errors)
    fields = Fields(arguments, "", errors)
    nutzer = fields.required("nutzer", rules.identity_or_list, max_items=SELECT_IDENTITIES_MAX)
    agent = fields.required("agent", rules.identity_or_list, max_items=SELECT_IDENTITIES_MAX)
    detailgrad = fields.optional("detailgrad", _detailgrad)
    ids = fields.optional("ID", rules.record_id_list)
    query = fields.optional("query", rules.text, max_len=QUERY_MAX_LEN)
    vk_typ = fields.optional("vk_typ", rules.enum_member, VkTyp)
    vk_referenz_id = fields.optional("vk_referenz_id", rules.identity)
    if fields.has("vk_referenz_id") and not fields.has("vk_typ"):
        errors.append(FieldError("vk_referenz_id", messages.VK_REFERENZ_OHNE_TYP))
    fields.optional("suchtyp", rules.constant, "brain")
    limit = fields.optional("limit", rules.integer, minimum=1, maximum=SELECT_LIMIT_MAX)
    if errors:
        raise RequestRejected(errors)
    return SelectRequest(
        nutzer=present(nutzer),
        agent=present(agent),
        referenzfelder=referenzfelder,
        detailgrad=detailgrad if detailgrad is not None else frozenset({Detail.STAMMDATEN}),
        ids=ids or None,
        query=query,
        vk_typ=vk_typ,
        vk_referenz_id=vk_referenz_id,
        limit=limit if limit is not None else SELECT_LIMIT_DEFAULT,
    )


# --- upsert_brain --------------------------------------------------------------------------


def _upsert_entry(value: Any, path: str) -> BrainEntryInput | list[FieldError]:
    errors: list[FieldError] = []
    item = rules.obj(value, path, errors)
    if item is None:
        return errors
    fields = Fields(item, path, errors)
    fields.reject_unknown(_UPSERT_FIELDS)
    entry_id = fields.optional("ID", rules.record_id)
    titel = fields.required("titel", rules.text, max_len=TITEL_MAX_LEN)
    inhalt = fields.required("inhalt", rules.text, max_len=BRAIN_INHALT_MAX_LEN)
    vk_typ = fields.required("vk_typ", rules.enum_member, VkTyp)
    vk_referenz_id = fields.required("vk_referenz_id", rules.identity)
    tags = fields.optional("tags", rules.tags)
    stammdaten = fields.optional(
        "stammdaten",
        scalar_maps.scalar_map,
        max_keys=STAMMDATEN_MAX_KEYS,
        max_key_len=STAMMDATEN_KEY_MAX_LEN,
        max_str_len=STAMMDATEN_STR_MAX_LEN,
    )
    if errors:
        return errors
    return BrainEntryInput(
        titel=present(titel),
        inhalt=present(inhalt),
        vk_typ=present(vk_typ),
        vk_referenz_id=present(vk_referenz_id),
        id=entry_id,
        tags=tags if tags is not None else [],
        stammdaten=stammdaten if stammdaten is not None else {},
    )


def parse_upsert(arguments: Mapping[str, Any]) -> Batch[BrainEntryInput]:
    """upsert_brain."""
    caller, referenzfelder, items = _batch_items(arguments, "eintraege")
    entries: list[BrainEntryInput | list[FieldError]] = [
        _upsert_entry(item, index_path("inhalt.eintraege", index))
        for index, item in enumerate(items)
    ]
    return Batch(caller=caller, referenzfelder=referenzfelder, entries=entries)
