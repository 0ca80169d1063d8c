"""The memory REST API's operations (`/api/memory`, issue 13) over the shared services.

Invariants:
- No second implementation: bodies are parsed by the same field rules as the MCP tools
  (`shared.validation`), writes run through the same services (`insert_memories`,
  `update_memories`, `delete_memories`: identity checks, scrubbing, limits, storage), reads
  through the same visibility rule (`visible_memories`). Only the REST-only fields (bucket,
  pfad, quelle) and the listing are parsed and built here.
- Identity comes from the token: the acting `nutzer` is a query parameter that the token must
  be allowed to act as (default: the token's own); konto and geraet are the token's.
- Provenance rides in the memory's `referenzfelder` under reserved keys (`pfad`, `quelle`,
  `quelle_art`, `quelle_referenz`, `konto`, `geraet`), the convention `remember` started; a
  client's own `referenzfelder` may not use those keys.
- Every refusal is an `ApiRefused` with a kind (the REST layer maps it to a status) and
  German field errors whose paths name the REST field (`tags[0]`, not `inhalt.memories…`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Final

from shared.auth.principal import Principal
from shared.domain import Memory, MemoryId, MemoryType, area_of_path
from shared.services import responses
from shared.services.areas import acting_agent, acting_nutzer, authorize_write
from shared.services.authorization import identity_errors
from shared.services.context import ServiceContext
from shared.services.memories import memory_view, prepare_insert, visible_memories
from shared.services.memory_admin import prepare_delete, prepare_update
from shared.services.memory_os import memory_path
from shared.services.outcomes import ApiRefused, art_of, envelope_errors, refused
from shared.services.secrets import name_errors, screen_referenzfelder, with_removed
from shared.services.summary import summary_of
from shared.services.writes import Write
from shared.tools import retry
from shared.tools.idempotency_fields import KEY_FIELD
from shared.validation import rules, scalar_maps
from shared.validation.errors import Art, FieldError, RequestRejected
from shared.validation.memory_requests import _memory_path, _update_entry
from shared.validation.parsed import Batch, Caller, FetchRequest, MemoryInput
from shared.validation.requests import PROFIL_HASH, PROFIL_HASH_ALIAS, _insert_entry
from shared.validation.rules import DUPLICATE_FLAG, Fields
from shared.validation.supersede import ERSETZT_FIELD, ersetzt_ids


class Bucket(StrEnum):
    KURZZEIT = "kurzzeit"
    LANGZEIT = "langzeit"


BUCKET_TYP: Final = {Bucket.KURZZEIT: MemoryType.SHORTTERM, Bucket.LANGZEIT: MemoryType.LONGTERM}
TYP_BUCKET: Final = {typ: bucket for bucket, typ in BUCKET_TYP.items()}


class QuelleArt(StrEnum):
    SYSTEM = "system"
    KONVERSATION = "konversation"
    DOKUMENT = "dokument"


QUELLE_SYSTEM_MAX_LEN: Final = 100
QUELLE_REFERENZ_MAX_LEN: Final = 500
# Keys of a memory's referenzfelder that the server sets (provenance); clients may not.
RESERVED_REFERENZFELDER: Final = (
    "pfad",
    "quelle",
    "quelle_art",
    "quelle_referenz",
    "konto",
    "geraet",
)
# The insert tools' entry fields a POST body may carry (nutzer comes from the query).
ENTRY_FIELDS: Final = (
    "kurzbeschreibung",
    "memory",
    "tags",
    "scope",
    "scope_vk",
    "agent",
    "embedding",
    PROFIL_HASH,
    PROFIL_HASH_ALIAS,
    "ttl_sekunden",
)
CREATE_FIELDS: Final = (
    *ENTRY_FIELDS,
    "bucket",
    "pfad",
    "quelle",
    "referenzfelder",
    ERSETZT_FIELD,
    DUPLICATE_FLAG,
)
# remember's names (seed 004), accepted by POST as well: content = memory, path = pfad.
REMEMBER_NAMES: Final = {"content": "memory", "path": "pfad"}
CREATE_PROJECT: Final = "create_project"
_QUELLE_FIELDS: Final = ("system", "art", "referenz")
_ENTRY_PREFIX: Final = "inhalt.memories[0]"


# The retry layer's operation names of the REST writes (never a tool name).
CREATE_OPERATION: Final = "rest:POST /api/memory"
UPDATE_OPERATION: Final = "rest:PATCH /api/memory"
DELETE_OPERATION: Final = "rest:DELETE /api/memory"


# The kinds of a refusal (`Art`) and the refusal itself: shared/services/outcomes.py.
Refusal = Art


def rest_path(path: str) -> str:
    """A service field path as the REST body names it."""
    if path == _ENTRY_PREFIX:
        return ""
    if path.startswith(_ENTRY_PREFIX + "."):
        return path[len(_ENTRY_PREFIX) + 1 :]
    if path.startswith("inhalt."):
        return path[len("inhalt.") :]
    return path


def refusal_of(errors: Sequence[FieldError]) -> ApiRefused:
    """The refusal of these service errors, by their kinds, their paths as REST names them."""
    return refused([error.renamed(rest_path(error.feld)) for error in errors])


def _entry_errors(result: Mapping[str, Any]) -> list[FieldError]:
    return envelope_errors(result)


# --- identity ------------------------------------------------------------------------------


def acting_caller(principal: Principal, nutzer: str | None, agent: Any = None) -> Caller:
    """Who a REST call acts as: the `nutzer` parameter, which the token must be allowed to act
    as, or without it the token's own nutzer (`areas.acting_nutzer`, as for the Memory OS
    tools: also for a token that may act as several); the same for `agent`. Identities are
    checked as every tool checks them (`identity_errors`: allowed, and no secret in them)."""
    errors: list[FieldError] = []
    name = acting_nutzer(principal) if nutzer is None else nutzer
    checked_nutzer = rules.identity(name, "nutzer", errors)
    raw_agent = acting_agent(principal) if agent is None else agent
    checked_agent = rules.identity(raw_agent, "agent", errors)
    if errors:
        raise ApiRefused(Refusal.INVALID, errors)
    caller = Caller(nutzer=rules.present(checked_nutzer), agent=rules.present(checked_agent))
    problems = identity_errors(
        principal, nutzer=[("nutzer", caller.nutzer)], agents=[("agent", caller.agent)]
    )
    if problems:
        raise refusal_of(problems)
    return caller


# --- views ---------------------------------------------------------------------------------


def _optional_text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def quelle_of(memory: Memory) -> dict[str, Any] | None:
    ref = memory.referenzfelder
    system = _optional_text(ref.get("quelle"))
    if system is None:
        return None
    return {
        "system": system,
        "art": _optional_text(ref.get("quelle_art")),
        "referenz": _optional_text(ref.get("quelle_referenz")),
    }


def rest_view(ctx: ServiceContext, memory: Memory) -> dict[str, Any]:
    """A memory as the REST API shows it: the tools' view plus bucket, place, provenance."""
    view = memory_view(memory, ctx)
    ref = memory.referenzfelder
    return {
        **view,
        "ablauf": view.get("ablauf"),
        "embedding_dim": view.get("embedding_dim"),
        "embedding_profil_hash": view.get("embedding_profil_hash"),
        "bucket": TYP_BUCKET[memory.id.typ].value,
        "bereich": memory.area,
        "pfad": memory_path(memory),
        "quelle": quelle_of(memory),
        "konto": _optional_text(ref.get("konto")),
        "geraet": _optional_text(ref.get("geraet")),
        "geaendert": responses.format_local(memory.updated_at, ctx.settings.zone),
        "gueltig_bis": view.get("gueltig_bis"),
        "ersetzt_durch": view.get("ersetzt_durch"),
        "referenzfelder": {k: v for k, v in ref.items() if k not in RESERVED_REFERENZFELDER},
    }


def _visible_one(ctx: ServiceContext, principal: Principal, caller: Caller, raw_id: str) -> Memory:
    """The memory if the call (acting as `caller.nutzer`) may see it; 404 alike otherwise."""
    memory_id = MemoryId.parse(raw_id)
    found = (
        visible_memories(ctx, principal, caller.nutzer, [memory_id], ctx.clock())
        if memory_id
        else {}
    )
    if memory_id is None or memory_id not in found:
        raise _not_found(raw_id)
    return found[memory_id]


# --- operations ----------------------------------------------------------------------------


def get_memory(
    ctx: ServiceContext, principal: Principal, nutzer: str | None, raw_id: str
) -> dict[str, Any]:
    caller = acting_caller(principal, nutzer)
    return rest_view(ctx, _visible_one(ctx, principal, caller, raw_id))


@dataclass(frozen=True)
class CreateRequest:
    entry: MemoryInput
    bucket: Bucket
    path: str
    referenzfelder: dict[str, Any]
    create_project: bool = False
    ersetzt: tuple[MemoryId, ...] = ()  # what the new memory replaces (issue 25)
    removed: tuple[str, ...] = ()  # kinds of secrets scrubbed from referenzfelder


def _remember_names(
    item: Mapping[str, Any], errors: list[FieldError]
) -> tuple[dict[str, Any], bool, dict[str, str]]:
    """A POST body in the insert tools' names: `content`/`path` (remember's) become
    `memory`/`pfad`, `create_project` is taken out, a missing `kurzbeschreibung` is derived
    from the text as remember derives it. Returns the body, create_project, and the names to
    report errors under (the caller's own)."""
    body = dict(item)
    names: dict[str, str] = {}
    for alias, name in REMEMBER_NAMES.items():
        if alias not in body:
            continue
        if name in body:
            errors.append(
                FieldError(alias, f"Nur eines von {name} und {alias} senden (gleiche Bedeutung).")
            )
        body[name] = body.pop(alias)
        names[name] = alias
    create_project = rules.boolean(body.pop(CREATE_PROJECT, False), CREATE_PROJECT, errors)
    text = body.get("memory")
    if "kurzbeschreibung" not in body and isinstance(text, str) and text.strip():
        body["kurzbeschreibung"] = summary_of(text)
    return body, bool(create_project), names


def _quelle(value: Any, path: str, errors: list[FieldError]) -> dict[str, str] | None:
    item = rules.obj(value, path, errors)
    if item is None:
        return None
    fields = Fields(item, path, errors)
    fields.reject_unknown(_QUELLE_FIELDS)
    system = fields.required("system", rules.string_or_int, max_len=QUELLE_SYSTEM_MAX_LEN)
    art = fields.optional("art", rules.enum_member, QuelleArt)
    referenz = fields.optional("referenz", rules.text, max_len=QUELLE_REFERENZ_MAX_LEN)
    errors += name_errors(
        [(rules.key_path(path, "system"), system), (rules.key_path(path, "referenz"), referenz)]
    )
    result = {"quelle": system or ""}
    if art is not None:
        result["quelle_art"] = art.value
    if referenz is not None:
        result["quelle_referenz"] = referenz
    return result


def parse_create(ctx: ServiceContext, body: Any, caller: Caller) -> CreateRequest:
    """A POST body: the insert tools' entry rules plus bucket, pfad, quelle, referenzfelder."""
    errors: list[FieldError] = []
    item = rules.obj(body, "", errors)
    if item is None:
        raise ApiRefused(Refusal.INVALID, errors)
    item, create_project, names = _remember_names(item, errors)
    fields = Fields(item, "", errors)
    fields.reject_unknown(CREATE_FIELDS)
    bucket = fields.optional("bucket", rules.enum_member, Bucket) or Bucket.LANGZEIT
    if fields.has("ttl_sekunden") and bucket is not Bucket.KURZZEIT:
        errors.append(FieldError("ttl_sekunden", "Nur mit bucket 'kurzzeit' erlaubt."))
    raw_path = fields.optional("pfad", _memory_path)
    allow_duplicate = bool(fields.optional(DUPLICATE_FLAG, rules.boolean))
    # The path and the provenance are stored as they are (the path also becomes the area):
    # they cannot hold a marker, so a secret in them refuses the write, as in `remember`.
    errors += name_errors([("pfad", raw_path)])
    quelle = fields.optional("quelle", _quelle)
    replaced = fields.optional(ERSETZT_FIELD, ersetzt_ids)
    referenzfelder = fields.optional("referenzfelder", scalar_maps.referenzfelder) or {}
    removed: tuple[str, ...] = ()
    try:
        screened = screen_referenzfelder(referenzfelder)
        referenzfelder, removed = screened.value, screened.kinds
    except RequestRejected as rejected:
        errors += rejected.errors
    for key in referenzfelder:
        if key in RESERVED_REFERENZFELDER:
            errors.append(
                FieldError(
                    rules.key_path("referenzfelder", key),
                    f"Reservierter Schlüssel: {key} setzt der Server (Felder pfad, quelle, "
                    "konto und gerät kommen aus der Anfrage bzw. dem Token).",
                )
            )
    entry_fields = {k: v for k, v in item.items() if k in ENTRY_FIELDS}
    entry_fields.setdefault("tags", [])
    entry_fields.setdefault("scope", "")
    entry_fields.setdefault("scope_vk", "")
    if "ttl_sekunden" in entry_fields and bucket is not Bucket.KURZZEIT:
        del entry_fields["ttl_sekunden"]
    entry = _insert_entry(
        {**entry_fields, "nutzer": caller.nutzer, "agent": entry_fields.get("agent", caller.agent)},
        "",
        ctx.settings.parse_options(),
        shortterm=bucket is Bucket.KURZZEIT,
    )
    if isinstance(entry, list):
        errors += entry
    if errors:
        # Under the names the caller sent (content, path)
        raise ApiRefused(
            Refusal.INVALID,
            [FieldError(names.get(e.feld, e.feld), e.meldung) for e in errors],
        )
    assert isinstance(entry, MemoryInput)
    path = raw_path or f"users/{caller.nutzer}"
    return CreateRequest(
        entry=replace(entry, duplikat_erlaubt=allow_duplicate),
        bucket=bucket,
        path=path,
        referenzfelder={**referenzfelder, **(quelle or {}), "pfad": path},
        create_project=create_project,
        ersetzt=tuple(replaced or ()),
        removed=removed,
    )


def create_memory(
    ctx: ServiceContext,
    principal: Principal,
    nutzer: str | None,
    body: Any,
    idempotency_key: str | None = None,
) -> dict[str, Any]:
    """POST /api/memory, retry-safe like every write tool (tools/retry.py), in the same
    order: the body's rules and the token's identity, then the retry layer (keyed on the
    body as sent: REST-only fields `pfad`, `quelle`, `referenzfelder` included) side by
    side with the area's authorization, then scrubbing and storage. The record holds the
    ID only; the view is read back from storage (a replay of a deleted memory stores anew)."""
    arguments: dict[str, Any] = {"nutzer": nutzer, "body": body}
    if idempotency_key:
        arguments["referenzfelder"] = {KEY_FIELD: idempotency_key}
    agent = body.get("agent") if isinstance(body, Mapping) else None
    caller = acting_caller(principal, nutzer, agent)
    request = parse_create(ctx, body, caller)
    area = area_of_path(request.path)
    identity = {"konto": principal.account, "geraet": principal.device}
    referenzfelder = {**request.referenzfelder, **{k: v for k, v in identity.items() if v}}
    replaced = {0: (ERSETZT_FIELD, list(request.ersetzt))} if request.ersetzt else {}
    batch = Batch(
        caller=caller, referenzfelder=referenzfelder, entries=[request.entry], ersetzt=replaced
    )
    write = prepare_insert(ctx, principal, batch, BUCKET_TYP[request.bucket], area=area)
    write.authorize = lambda: _authorize(ctx, principal, caller, area, request.create_project)
    answer = run_rest_write(ctx, principal, CREATE_OPERATION, arguments, write)
    (result,) = with_removed(answer, request.removed)["daten"]
    if not result["erfolg"]:
        raise refusal_of(_entry_errors(result))
    view = rest_view(ctx, _visible_one(ctx, principal, caller, result["ID"]))
    return _with_notes(view, result)


def _with_notes(view: dict[str, Any], result: Mapping[str, Any]) -> dict[str, Any]:
    """The write's notes on the view: secrets removed, what it replaced (issue 25)."""
    for key in ("hinweis", "duplikat_von", "ersetzt", "ersetzt_fehler"):
        if key in result:
            view[key] = result[key]
    return view


def _authorize(
    ctx: ServiceContext, principal: Principal, caller: Caller, area: str, create_project: bool
) -> None:
    try:
        authorize_write(
            ctx, principal, caller.nutzer, area, create_project=create_project, now=ctx.clock()
        )
    except RequestRejected as rejected:
        # The area rules name remember's `path`; here the field is `pfad`.
        errors = [e.renamed("pfad") if e.feld == "path" else e for e in rejected.errors]
        raise RequestRejected(errors) from rejected


def run_rest_write(
    ctx: ServiceContext,
    principal: Principal,
    operation: str,
    arguments: Mapping[str, Any],
    write: Write,
) -> dict[str, Any]:
    """One REST write through the retry layer; a refusal of the whole call as ApiRefused."""
    try:
        envelope = retry.run(ctx, principal, operation, arguments, write, {})
    except RequestRejected as rejected:
        raise refusal_of(rejected.errors) from rejected
    if responses.is_error(envelope) and not isinstance(envelope.get("daten"), list):
        raise refusal_of(_entry_errors(envelope))
    return envelope


def update_memory(
    ctx: ServiceContext, principal: Principal, nutzer: str | None, raw_id: str, patch: Any
) -> dict[str, Any]:
    """PATCH /api/memory/{id}: JSON Merge Patch, exactly update_brain_memories' entry,
    retry-safe like every write."""
    caller = acting_caller(principal, nutzer)
    errors: list[FieldError] = []
    item = rules.obj(patch, "", errors)
    if item is None:
        raise ApiRefused(Refusal.INVALID, errors)
    if "ID" in item:
        message = "Die ID steht im Pfad (/api/memory/{id}), nicht im Dokument."
        raise ApiRefused(Refusal.INVALID, [FieldError("ID", message)])
    entry = _update_entry({**item, "ID": raw_id}, "")
    if isinstance(entry, list):
        if MemoryId.parse(raw_id) is None:
            raise _not_found(raw_id)
        raise ApiRefused(Refusal.INVALID, entry)
    batch = Batch(caller=caller, referenzfelder={}, entries=[entry])
    arguments = {"nutzer": caller.nutzer, "id": raw_id, "patch": patch}
    write = prepare_update(ctx, principal, batch)
    (result,) = run_rest_write(ctx, principal, UPDATE_OPERATION, arguments, write)["daten"]
    if not result["erfolg"]:
        # The entry's `ersetzt` is the body's (a not found there is not the path's ID)
        errors = [_body_field(e) for e in _entry_errors(result)]
        if art_of(errors) is Art.NOT_FOUND and all(e.feld != ERSETZT_FIELD for e in errors):
            raise _not_found(raw_id)
        raise refusal_of(errors)
    view = rest_view(ctx, _visible_one(ctx, principal, caller, raw_id))
    view["handelnd_als"] = result["handelnd_als"]
    return _with_notes(view, result)


def _body_field(error: FieldError) -> FieldError:
    named = error.feld == f"{_ENTRY_PREFIX}.{ERSETZT_FIELD}"
    return error.renamed(ERSETZT_FIELD) if named else error


def _not_found(raw_id: str) -> ApiRefused:
    message = f"nicht_gefunden: Die Erinnerung '{raw_id[:60]}' existiert nicht."
    return ApiRefused(Art.NOT_FOUND, [FieldError("id", message, Art.NOT_FOUND)])


def delete_memory(
    ctx: ServiceContext, principal: Principal, nutzer: str | None, raw_id: str
) -> dict[str, Any]:
    """DELETE /api/memory/{id}: the memory with its ratings, embedding and index entries,
    retry-safe like every write (a resend after the delete answers like the first). The
    answer says where it was and as whom the call acted, as delete_brain_memories' does."""
    caller = acting_caller(principal, nutzer)
    memory_id = MemoryId.parse(raw_id)
    ids = [raw_id] if memory_id is not None else []
    request = FetchRequest(
        caller=caller,
        referenzfelder={},
        shortterm=ids if memory_id and memory_id.typ is MemoryType.SHORTTERM else [],
        longterm=ids if memory_id and memory_id.typ is MemoryType.LONGTERM else [],
    )
    arguments = {"nutzer": caller.nutzer, "id": raw_id}
    write = prepare_delete(ctx, principal, request)
    daten = run_rest_write(ctx, principal, DELETE_OPERATION, arguments, write)["daten"]
    if raw_id not in daten["geloescht"]:
        raise _not_found(raw_id)
    (ort,) = [ort for ort in daten["orte"] if ort["ID"] == raw_id]
    return {
        "ID": raw_id,
        "geloescht": True,
        "bereich": ort.get("bereich"),
        "pfad": ort.get("pfad"),
        "handelnd_als": daten["handelnd_als"],
        "entfernt": daten["entfernt"],
    }
