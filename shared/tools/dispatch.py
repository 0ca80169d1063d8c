"""One entry point for every transport: MCP server, Lambda handlers, CLI import."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from shared.auth.hints import missing_scope_message
from shared.auth.principal import Principal, Scope
from shared.services import responses
from shared.services.budget import BudgetExceeded, budget_refusal, time_budget
from shared.services.context import ServiceContext
from shared.services.secrets import screened_call, with_removed
from shared.tools.catalog import TOOLS, ToolSpec
from shared.validation.envelope import wants_help
from shared.validation.errors import Art, FieldError, RequestRejected


def help_response(spec: ToolSpec, referenzfelder: dict[str, Any]) -> dict[str, Any]:
    return responses.success(
        {
            "tool": spec.name,
            "titel": spec.title,
            "beschreibung": spec.published_description,
            "scope": spec.scope.value,
            "input_schema": spec.input_schema,
            "beispiel": {"tool": spec.name, "arguments": spec.example},
        },
        referenzfelder,
    )


def call_tool(
    ctx: ServiceContext,
    principal: Principal,
    name: str,
    arguments: Mapping[str, Any],
    lambda_context: LambdaContext | None = None,
) -> dict[str, Any]:
    """Run one tool call and return the contract envelope (never raises for bad input).

    Order (CONTRACT §3), all within the call's time budget: the referenzfelder limits and
    their keys (a secret in a key refuses the call), help, the scope, the tool's own
    validation and the token's authorization (`ToolSpec.prepare`); for writes then the
    retry layer (tools/retry.py: keyed on the arguments as sent, side by side with the
    write's authorization reads), and only then scrubbing and storage. `lambda_context`
    bounds a write's running mark by the invocation's remaining time.
    """
    spec = TOOLS.get(name)
    if spec is None:
        known = ", ".join(sorted(TOOLS))
        return responses.failure(
            [FieldError("tool", f"Unbekanntes Tool '{name[:60]}'. Verfügbar: {known}.")], {}
        )
    echo: dict[str, Any] = {}
    seconds = ctx.settings.tool_time_budget_s
    try:
        with time_budget(seconds):
            # Stored as provenance and echoed: limits first, then the secret checks.
            screened = screened_call(arguments)
            echo, cleaned = screened.echo, screened.arguments
            if wants_help(arguments):
                return help_response(spec, echo)
            needed = spec.needed_scope(arguments)
            if not principal.has_scope(needed):
                return responses.failure([_missing_scope(spec, needed)], echo)
            if spec.prepare is not None and spec.runs_once(arguments):
                # The retry layer: loaded by the writing tools only.
                from shared.tools import retry

                write = spec.prepare(ctx, principal, cleaned)
                answer = retry.run(
                    ctx, principal, spec.name, arguments, write, echo, lambda_context
                )
                return with_removed(answer, screened.kinds)
            return spec.handler(ctx, principal, cleaned)
    except RequestRejected as rejected:
        return responses.failure(rejected.errors, echo)
    except BudgetExceeded:
        return responses.failure([budget_refusal(seconds)], echo)


def _missing_scope(spec: ToolSpec, needed: Scope) -> FieldError:
    return FieldError(
        "scope",
        missing_scope_message(needed.value, spec.name),
        Art.FORBIDDEN,
    )
