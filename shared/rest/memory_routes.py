"""`/api/memory`: create, list, read, change (JSON Merge Patch) and delete memories.

Thin: each route checks the scope (dependency), hands the request to
`shared.services.memory_api` off the event loop and shapes the answer. Its OpenAPI 3.1
document (`/api/memory/openapi.json`) is built from this router alone.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Body, Header, Path, Request, Response

from shared.auth.principal import Principal
from shared.domain import MEMORY_ID_PATTERN
from shared.rest.common import (
    AUTH_PROBLEMS,
    READ,
    WRITE,
    NutzerParam,
    Resource,
    json_body,
    public_base,
    request_body,
    service_context,
)
from shared.rest.memory_filters import Filters, PageCursor, PageLimit
from shared.rest.memory_models import (
    MemoryChanged,
    MemoryCreate,
    MemoryDeleted,
    MemoryOut,
    MemoryPage,
    MemoryPatch,
)
from shared.rest.problems import problem_responses
from shared.services import memory_api, memory_listing
from shared.validation import rules

PREFIX: Final = "/api/memory"
MERGE_PATCH: Final = "application/merge-patch+json"

DESCRIPTION: Final = """\
Erinnerungen von Brain über REST: speichern, filtern, seitenweise lesen, ändern, löschen —
dieselben Daten, Regeln, Scopes und Bereiche wie die MCP-Tools (`remember`,
`insert_brain_*_memory`, `update_brain_memories`, `delete_brain_memories`).

Memories over REST: store, filter, page through, change and delete — the same data, rules,
scopes and areas as the MCP tools.

**Anmeldung / auth:** `Authorization: Bearer <token>` (Schaltfläche *Authorize*). Lesen braucht
den Scope `memory:read`, Schreiben `memory:write`. `brain serve` druckt ein Entwicklungs-Token.

**Handeln als / acting as:** Jede Operation handelt als ein `nutzer` (Query-Parameter; Standard:
der eigene des Tokens) und sieht dessen Bereich `users/<nutzer>` plus die Bereiche seiner Teams
und Projekte.

**Fehler / errors:** RFC 9457 `application/problem+json` mit deutscher Meldung und Feldpfad
(`fehler[].feld`, `fehler[].meldung`); 401/403 tragen dieselbe `WWW-Authenticate`-Challenge wie
der MCP-Endpunkt.

**Seiten / paging:** `GET /api/memory` liefert neueste zuerst und `naechster_cursor`; diesen
unverändert als `cursor` senden (stabil bei gleichzeitigen Schreibvorgängen).
"""

IdParam = Annotated[
    str,
    Path(
        pattern=MEMORY_ID_PATTERN,
        description="ID der Erinnerung, z. B. longterm_17 oder shortterm_3.",
        examples=["longterm_17"],
    ),
]

CREATE_EXAMPLES: Final = {
    "de": {
        "summary": "Entscheidung im Projekt speichern (Deutsch)",
        "value": {
            "kurzbeschreibung": "OAuth für ChatGPT-Verbindungen",
            "memory": "Für gehostete ChatGPT-Verbindungen verwenden wir OAuth.",
            "tags": ["entscheidung", "auth"],
            "quelle": {"system": "confluence", "art": "dokument", "referenz": "ADR-12"},
        },
    },
    "team": {
        "summary": "In den Team-Bereich schreiben (nur Mitglieder) / into a team area",
        "value": {
            "kurzbeschreibung": "Eskalationsweg",
            "memory": "Eskalationen gehen an die Rufbereitschaft des Supports.",
            "pfad": "teams/support/prozesse",
            "quelle": {"system": "wiki", "art": "dokument"},
        },
    },
    "en": {
        "summary": "Short-term note from a chat (English)",
        "value": {
            "kurzbeschreibung": "Customer prefers morning calls",
            "memory": "Customer K-1001 only wants call-backs between 9 and 12.",
            "tags": ["customer"],
            "scope": "kunde",
            "scope_vk": "K-1001",
            "bucket": "kurzzeit",
            "ttl_sekunden": 86400,
            "quelle": {"system": "slack", "art": "konversation", "referenz": "C024/1712"},
        },
    },
}
PATCH_EXAMPLES: Final = {
    "de": {
        "summary": "Text ändern, Embedding entfernen (Deutsch)",
        "value": {"memory": "Rückrufe nur zwischen 10 und 12 Uhr.", "embedding": None},
    },
    "en": {
        "summary": "Replace the tags (English)",
        "value": {"tags": ["customer", "calls"]},
    },
}


router = APIRouter(prefix=PREFIX, tags=["memory"])


@router.post(
    "",
    status_code=201,
    response_model=MemoryOut,
    summary="Erinnerung speichern / store a memory",
    description=(
        "Speichert eine Erinnerung: Felder wie `insert_brain_*_memory`, dazu `bucket` "
        "(`langzeit` oder `kurzzeit` mit `ttl_sekunden`), `pfad` (Bereich: eigener, Team oder "
        "Projekt), `quelle` (Herkunft) und `referenzfelder`. Geheimnisse werden entfernt "
        "(`hinweis`). Mit `ersetzt` (ID oder Liste) ersetzt sie ältere Erinnerungen: diese "
        "erhalten `gueltig_bis` und `ersetzt_durch` und erscheinen nur noch per ID und mit "
        "`verlauf=true` (404: unbekannte ID, 409: schon ersetzt). Stores one memory; secrets "
        "are scrubbed first; `ersetzt` supersedes older ones."
    ),
    responses={
        201: {"headers": {"Location": {"schema": {"type": "string"}}}},
        **problem_responses(*AUTH_PROBLEMS, 400, 404, 409, 415, 422, 503),
    },
    openapi_extra=request_body(MemoryCreate, CREATE_EXAMPLES, "application/json"),
)
def create_memory(
    request: Request,
    response: Response,
    principal: Annotated[Principal, WRITE],
    body: Annotated[Any, Body()],
    nutzer: NutzerParam = None,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            max_length=rules.IDENTITY_MAX_LEN,
            description=(
                "Name des logischen Schreibvorgangs (wie referenzfelder.idempotenz_schluessel "
                "der Tools): erneut senden speichert nichts doppelt. Ohne Schlüssel gilt das für "
                "denselben Inhalt. Retry-safe key of this write."
            ),
        ),
    ] = None,
) -> dict[str, Any]:
    view = memory_api.create_memory(
        service_context(request), principal, nutzer, json_body(body), idempotency_key
    )
    response.headers["Location"] = f"{public_base(request)}{PREFIX}/{view['ID']}"
    return view


@router.get(
    "",
    response_model=MemoryPage,
    summary="Erinnerungen auflisten und filtern / list and filter memories",
    description=(
        "Neueste zuerst; alle Filter mit UND verknüpft. Mit `q` nur Erinnerungen, die die "
        "Suchbegriffe enthalten (Deutsch/Englisch, Wortformen). `naechster_cursor` holt die "
        "nächste Seite. Newest first; filters combine with AND; page with the cursor."
    ),
    responses=problem_responses(*AUTH_PROBLEMS, 422),
)
def list_memories(
    request: Request,
    principal: Annotated[Principal, READ],
    filters: Filters,
    nutzer: NutzerParam = None,
    limit: PageLimit = 20,
    cursor: PageCursor = None,
) -> dict[str, Any]:
    context = service_context(request)
    return memory_listing.list_memories(context, principal, nutzer, filters, cursor, limit)


@router.get(
    "/{memory_id}",
    response_model=MemoryOut,
    summary="Erinnerung lesen / read a memory",
    description="Eine sichtbare Erinnerung; sonst 404 (auch wenn sie existiert, aber nicht "
    "sichtbar ist). One visible memory; otherwise 404.",
    responses=problem_responses(*AUTH_PROBLEMS, 404, 422),
)
def get_memory(
    request: Request,
    principal: Annotated[Principal, READ],
    memory_id: IdParam,
    nutzer: NutzerParam = None,
) -> dict[str, Any]:
    return memory_api.get_memory(service_context(request), principal, nutzer, memory_id)


@router.patch(
    "/{memory_id}",
    response_model=MemoryChanged,
    summary="Erinnerung ändern (JSON Merge Patch) / change a memory",
    description=(
        "RFC 7396 wie `update_brain_memories`: fehlendes Feld = unverändert, `null` = "
        "entfernt (tags, scope, scope_vk, embedding, embedding_profil_hash). Missing field = "
        "unchanged, null = removed."
    ),
    responses=problem_responses(*AUTH_PROBLEMS, 400, 404, 409, 415, 422, 503),
    openapi_extra=request_body(MemoryPatch, PATCH_EXAMPLES, "application/json", MERGE_PATCH),
)
def update_memory(
    request: Request,
    principal: Annotated[Principal, WRITE],
    memory_id: IdParam,
    body: Annotated[Any, Body()],
    nutzer: NutzerParam = None,
) -> dict[str, Any]:
    return memory_api.update_memory(
        service_context(request), principal, nutzer, memory_id, json_body(body)
    )


@router.delete(
    "/{memory_id}",
    response_model=MemoryDeleted,
    summary="Erinnerung löschen / delete a memory",
    description=(
        "Löscht die Erinnerung mit Bewertungen und Embedding; die Antwort nennt, wo sie lag "
        "(bereich, pfad) und als wen der Aufruf handelte. Deletes the memory and says where "
        "it was."
    ),
    responses=problem_responses(*AUTH_PROBLEMS, 404, 422, 503),
)
def delete_memory(
    request: Request,
    principal: Annotated[Principal, WRITE],
    memory_id: IdParam,
    nutzer: NutzerParam = None,
) -> dict[str, Any]:
    return memory_api.delete_memory(service_context(request), principal, nutzer, memory_id)


RESOURCE: Final = Resource(
    prefix=PREFIX,
    router=router,
    title="Brain Memory API",
    summary="Erinnerungen über REST / memories over REST",
    description=DESCRIPTION,
    tag="memory",
    tag_description="Erinnerungen / memories",
    models=(MemoryCreate, MemoryPatch),
)


def openapi_document(root_path: str = "") -> dict[str, Any]:
    """The OpenAPI 3.1 document of `/api/memory` (this router's routes only)."""
    return RESOURCE.document(root_path)


__all__ = ["RESOURCE", "openapi_document", "router"]
