"""The tools' handlers and write preparers, for the catalog (shared/tools/catalog.py).

Each imports its service and request parser when first called, so a tool's Lambda
function loads only its own tool's code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from shared.auth.principal import Principal, Scope
from shared.domain import MemoryType
from shared.services.context import ServiceContext

if TYPE_CHECKING:
    from shared.services.writes import Write

Handler = Callable[[ServiceContext, Principal, Mapping[str, Any]], dict[str, Any]]
Preparer = Callable[[ServiceContext, Principal, Mapping[str, Any]], "Write"]


def fetch(ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]) -> dict[str, Any]:
    from shared.services.memories import fetch_memories
    from shared.validation import requests

    return fetch_memories(ctx, principal, requests.parse_fetch(args))


def plain(prepare: Preparer) -> Handler:
    """A write tool's handler outside the retry layer: both phases in order."""

    def handler(
        ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]
    ) -> dict[str, Any]:
        from shared.services.writes import run_plain

        return run_plain(ctx, principal.tenant, prepare(ctx, principal, args))

    return handler


def insert(typ: MemoryType) -> Preparer:
    def prepare(ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]) -> Write:
        from shared.services.memories import prepare_insert
        from shared.validation import requests

        batch = requests.parse_insert(
            args, ctx.settings.parse_options(), shortterm=typ is MemoryType.SHORTTERM
        )
        return prepare_insert(ctx, principal, batch, typ)

    return prepare


def rate(ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]) -> Write:
    from shared.services.ratings import prepare_rate
    from shared.validation import requests

    return prepare_rate(ctx, principal, requests.parse_rate(args, ctx.settings.parse_options()))


def select(ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]) -> dict[str, Any]:
    from shared.services.brain import select_brain
    from shared.validation import requests

    return select_brain(ctx, principal, requests.parse_select(args))


def upsert(ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]) -> Write:
    from shared.services.brain import prepare_upsert
    from shared.validation import requests

    return prepare_upsert(ctx, principal, requests.parse_upsert(args))


def update(ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]) -> Write:
    from shared.services.memory_admin import prepare_update
    from shared.validation import memory_requests

    return prepare_update(ctx, principal, memory_requests.parse_update(args))


def delete(ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]) -> Write:
    from shared.services.memory_admin import prepare_delete
    from shared.validation import requests

    return prepare_delete(ctx, principal, requests.parse_fetch(args))


def remember(ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]) -> Write:
    from shared.services.memory_os import prepare_remember
    from shared.validation import memory_requests

    return prepare_remember(ctx, principal, memory_requests.parse_remember(args))


def search(ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]) -> dict[str, Any]:
    from shared.services import memory_os
    from shared.validation import memory_requests

    return memory_os.search_memory(ctx, principal, memory_requests.parse_search(args))


def recall(ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]) -> dict[str, Any]:
    from shared.services import memory_os
    from shared.validation import memory_requests

    return memory_os.recall(ctx, principal, memory_requests.parse_recall(args))


def context(ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]) -> dict[str, Any]:
    from shared.services import memory_os
    from shared.validation import memory_requests

    return memory_os.recall_context(ctx, principal, memory_requests.parse_recall_context(args))


def ledger(ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]) -> dict[str, Any]:
    from shared.services.ledger import ledger

    return ledger(ctx, principal, args)


def ledger_write(ctx: ServiceContext, principal: Principal, args: Mapping[str, Any]) -> Write:
    from shared.services.ledger import ledger_write

    return ledger_write(ctx, principal, args)


def ledger_scope(args: Mapping[str, Any]) -> Scope:
    from shared.ledger.requests import ledger_scope

    return ledger_scope(args)


def ledger_writes(args: Mapping[str, Any]) -> bool:
    """buchen, storno and bezahlen write (retry-safe through the records); abfragen reads."""
    return ledger_scope(args) is Scope.MEMORY_WRITE
