"""One entry point for every transport: MCP server, Lambda handlers, CLI import."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from shared.auth.principal import Principal
from shared.services import responses
from shared.services.context import ServiceContext
from shared.services.secrets import clean_value
from shared.tools import idempotency
from shared.tools.catalog import TOOLS, ToolSpec
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.requests import parse_referenzfelder, wants_help


def help_response(spec: ToolSpec, referenzfelder: dict[str, Any]) -> dict[str, Any]:
    return responses.success(
        {
            "tool": spec.name,
            "titel": spec.title,
            "beschreibung": spec.description,
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

    Tools whose spec is `idempotent` run at most once per call key (tools/idempotency.py);
    `lambda_context` bounds their in-progress record by the invocation's remaining time."""
    spec = TOOLS.get(name)
    if spec is None:
        known = ", ".join(sorted(TOOLS))
        return responses.failure(
            [FieldError("tool", f"Unbekanntes Tool '{name[:60]}'. Verfügbar: {known}.")], {}
        )
    raw_referenzfelder = arguments.get("referenzfelder")
    echo: dict[str, Any] = {}
    if isinstance(raw_referenzfelder, dict):
        # Stored as provenance and echoed: secrets in them are redacted before anything else.
        echo = clean_value(raw_referenzfelder).value
        arguments = {**arguments, "referenzfelder": echo}
    try:
        referenzfelder = parse_referenzfelder(arguments)
        if wants_help(arguments):
            return help_response(spec, referenzfelder)
        needed = spec.needed_scope(arguments)
        if not principal.has_scope(needed):
            return responses.failure(
                [
                    FieldError(
                        "scope",
                        f"nicht berechtigt: Dem Token fehlt der Scope '{needed.value}' "
                        f"für {spec.name}.",
                    )
                ],
                referenzfelder,
            )
        if spec.idempotent:
            return idempotency.run_once(
                ctx,
                principal,
                spec.name,
                arguments,
                lambda keyed: spec.handler(keyed, principal, arguments),
                referenzfelder,
                lambda_context,
            )
        return spec.handler(ctx, principal, arguments)
    except RequestRejected as rejected:
        return responses.failure(rejected.errors, echo)
