"""The ledger over REST (`/api/ledger`, issue 14): the `ledger` tool's four actions as
resources — `POST /api/ledger/buchungen` (buchen), `/stornos` (storno), `/zahlungen`
(bezahlen) and `GET /api/ledger` (abfragen).

Invariants:
- No second implementation, and no detour through the MCP tool: a REST request runs the
  ledger service the tool runs, in the same order — the body's frame (`eintraege`,
  `referenzfelder`) here, then the referenzfelder limits and secret checks
  (`secrets.screened_call`), the request models (`shared.ledger.requests`), the retry layer
  (`tools/retry.py`) around areas and membership, scrubbing and storage
  (`services/ledger.py`), all within the tool's time budget. The scope per action is the
  tool's rule (`ledger_scope`), checked by the route before any of it.
- Retry-safe like the tool: the same body (or the same `Idempotency-Key`) by the same nutzer
  within the idempotency window answers with the first result and books nothing (one call
  record per call, under the tool's operation name, so a REST resend of an MCP call with the
  same key answers alike); the key also becomes the call's `idempotenz_schluessel`, so
  entries of an interrupted call are recognised per entry by the ledger itself.
- The call acts as the token's own nutzer, like the tool. Field paths name the REST
  request (`eintraege[0].betrag`, query parameters by name), never `inhalt.…`. Refusals
  keep the kinds the service gave them (`services/outcomes.py` maps them to statuses).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from shared.auth.principal import Principal, Scope
from shared.ledger.requests import ledger_scope
from shared.services import responses
from shared.services.budget import BudgetExceeded, budget_refusal, time_budget
from shared.services.context import ServiceContext
from shared.services.ledger import ledger_write
from shared.services.ledger_query import abfragen
from shared.services.memory_api import refusal_of, rest_path
from shared.services.outcomes import ApiRefused, refused
from shared.services.secrets import screened_call, with_removed
from shared.tools import retry
from shared.tools.idempotency_fields import KEY_FIELD
from shared.validation import messages, rules
from shared.validation.errors import Art, FieldError, RequestRejected

TOOL: Final = "ledger"
# REST resource -> the tool's aktion
WRITE_ACTIONS: Final = {"buchungen": "buchen", "stornos": "storno", "zahlungen": "bezahlen"}
QUERY_ACTION: Final = "abfragen"
BODY_FIELDS: Final = ("eintraege", "referenzfelder")


def needed_scope(aktion: str) -> Scope:
    """The scope of an action: the tool's own rule (`ToolSpec.needed_scope` reads it too)."""
    return ledger_scope({"inhalt": {"aktion": aktion}})


def _errors(items: Any) -> list[FieldError]:
    return [FieldError.from_dict(e, rest_path(e["feld"])) for e in items or []]


def _refused(envelope: Mapping[str, Any]) -> ApiRefused:
    return refused(_errors(envelope.get("fehler")))


def _within_budget(ctx: ServiceContext, run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """`run` within the tool's time budget; a refusal of the whole call as ApiRefused."""
    seconds = ctx.settings.tool_time_budget_s
    try:
        with time_budget(seconds):
            return run()
    except RequestRejected as rejected:
        raise refusal_of(rejected.errors) from rejected
    except BudgetExceeded:
        raise ApiRefused(Art.BUDGET, [budget_refusal(seconds)]) from None


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

    def book() -> dict[str, Any]:
        screened = screened_call(arguments)
        call = ledger_write(ctx, principal, screened.arguments)  # the areas run in `ahead`
        answer = retry.run(ctx, principal, TOOL, arguments, call, screened.echo)
        return with_removed(answer, screened.kinds)

    envelope = _within_budget(ctx, book)
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
    envelope = _within_budget(ctx, lambda: abfragen(ctx, principal, {"inhalt": inhalt}))
    if responses.is_error(envelope):
        raise _refused(envelope)
    return envelope["daten"]
