"""The ledger over REST (`/api/ledger`, issue 14): the `ledger` tool's four actions as
resources — `POST /api/ledger/buchungen` (buchen), `/stornos` (storno), `/zahlungen`
(bezahlen) and `GET /api/ledger` (abfragen).

Invariants:
- No second implementation: a REST request becomes the tool's arguments and runs through
  the one dispatcher (`dispatch.call_tool`): the referenzfelder limits and secret checks,
  the scope per action (`ToolSpec.needed_scope`), the request models
  (`shared.ledger.requests`), areas and membership, the time budget, the ledger service.
  Only the REST body's own frame (`eintraege`, `referenzfelder`) is checked here.
- Retry-safe like `POST /api/memory`: the same body (or the same `Idempotency-Key`) by the
  same nutzer within the idempotency window answers with the first result and books nothing
  (the dispatcher's records for the ledger's write actions, `ToolSpec.runs_once`, so there
  is one record per call, not two); the key also becomes the call's `idempotenz_schluessel`,
  so entries of an interrupted call are recognised per entry by the ledger itself.
- The call acts as the token's own nutzer, like the tool. Field paths name the REST
  request (`eintraege[0].betrag`, query parameters by name), never `inhalt.…`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from shared.auth.principal import Principal, Scope
from shared.services import responses
from shared.services.context import ServiceContext
from shared.services.memory_api import rest_path
from shared.services.outcomes import ApiRefused, refused
from shared.tools.catalog import TOOLS
from shared.tools.dispatch import call_tool
from shared.tools.idempotency_fields import KEY_FIELD
from shared.validation import messages, rules
from shared.validation.errors import Art, FieldError

TOOL: Final = "ledger"
# REST resource -> the tool's aktion
WRITE_ACTIONS: Final = {"buchungen": "buchen", "stornos": "storno", "zahlungen": "bezahlen"}
QUERY_ACTION: Final = "abfragen"
BODY_FIELDS: Final = ("eintraege", "referenzfelder")


def needed_scope(aktion: str) -> Scope:
    """The scope of an action: the tool's own rule (`ToolSpec.needed_scope`)."""
    return TOOLS[TOOL].needed_scope({"inhalt": {"aktion": aktion}})


def _errors(items: Any) -> list[FieldError]:
    return [FieldError.from_dict(e, rest_path(e["feld"])) for e in items or []]


def _refused(envelope: Mapping[str, Any]) -> ApiRefused:
    return refused(_errors(envelope.get("fehler")))


def tool_arguments(aktion: str, body: Any, idempotency_key: str | None) -> dict[str, Any]:
    """The tool's arguments of a write request (its frame checked, entries left to the tool)."""
    errors: list[FieldError] = []
    item = rules.obj(body, "", errors)
    if item is not None:
        rules.Fields(item, "", errors).reject_unknown(BODY_FIELDS)
        if "eintraege" not in item:
            errors.append(FieldError("eintraege", messages.REQUIRED))
    if errors or item is None:
        raise ApiRefused(Art.INVALID, errors)
    arguments: dict[str, Any] = {"inhalt": {"aktion": aktion, "eintraege": item["eintraege"]}}
    referenzfelder = item.get("referenzfelder")
    if idempotency_key and (referenzfelder is None or isinstance(referenzfelder, Mapping)):
        referenzfelder = {**(referenzfelder or {}), KEY_FIELD: idempotency_key}
    if referenzfelder is not None:
        arguments["referenzfelder"] = referenzfelder
    return arguments


def _result(result: Mapping[str, Any]) -> dict[str, Any]:
    if "fehler" not in result:
        return dict(result)
    return {**result, "fehler": [e.as_dict() for e in _errors(result["fehler"])]}


def write(
    ctx: ServiceContext,
    principal: Principal,
    resource: str,
    body: Any,
    idempotency_key: str | None = None,
) -> tuple[int, dict[str, Any]]:
    """POST /api/ledger/<resource>: (status, answer). 201 when every entry was booked, 200
    when some were (per-entry results); nothing booked: ApiRefused (a problem document)."""
    arguments = tool_arguments(WRITE_ACTIONS[resource], body, idempotency_key)

    # The dispatcher runs this action through the retry layer (ToolSpec.runs_once).
    envelope = call_tool(ctx, principal, TOOL, arguments)
    if responses.is_error(envelope):
        raise _refused(envelope)
    answer = {
        "erfolg": envelope["erfolg"],
        "ergebnisse": [_result(result) for result in envelope["daten"]],
        "anzahl_erfolgreich": envelope["anzahl_erfolgreich"],
        "anzahl_fehlgeschlagen": envelope["anzahl_fehlgeschlagen"],
        "referenzfelder": envelope["referenzfelder"],
    }
    return (201 if envelope["erfolg"] else 200), answer


def query(ctx: ServiceContext, principal: Principal, filters: Mapping[str, Any]) -> Any:
    """GET /api/ledger: the tool's `abfragen` with these filters (None = not given)."""
    inhalt = {"aktion": QUERY_ACTION, **{k: v for k, v in filters.items() if v is not None}}
    envelope = call_tool(ctx, principal, TOOL, {"inhalt": inhalt})
    if responses.is_error(envelope):
        raise _refused(envelope)
    return envelope["daten"]
