"""Retry-safe writes (CONTRACT §3): every tool whose ToolSpec says `idempotent` runs here.

Invariants:
- The call key is (tenant, acting nutzer, tool, canonical arguments) — `referenzfelder`
  included, so `referenzfelder.idempotenz_schluessel` is part of it. Within the window
  (`Settings.idempotency_window_s`) a call with the same key returns the first call's
  answer unchanged and writes nothing; while the first still runs, a duplicate gets the
  German tool error "wird bereits ausgeführt" and writes nothing.
- The state machine is Powertools' `IdempotencyHandler`, on its DynamoDB persistence
  layer (AWS) or on `SqliteIdempotencyLayer` (local): the storage port hands out the layer.
- An answer that stored nothing (`responses.is_error`) is not remembered: resending it runs
  again (a storage failure may heal; an invalid call fails the same way).
- The in-progress record expires with the Lambda's remaining time, or after
  `idempotency_in_progress_s` where no Lambda deadline exists, so a resend after a crash
  or timeout runs again. What the cut-off call already wrote is then recognised per entry:
  the services reserve IDs under the *write key* (`ServiceContext.write_key`), which is
  the caller's `idempotenz_schluessel` or else the call key, plus the entry's index.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from aws_lambda_powertools.utilities.idempotency.base import IdempotencyHandler
from aws_lambda_powertools.utilities.idempotency.config import IdempotencyConfig
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyInconsistentStateError,
    IdempotencyPersistenceLayerError,
)
from aws_lambda_powertools.utilities.typing import LambdaContext

from shared.auth.principal import Principal
from shared.services import areas, responses
from shared.services.context import ServiceContext
from shared.tools.idempotency_fields import IN_PROGRESS_FIELD, KEY_FIELD
from shared.validation.errors import FieldError

__all__ = [
    "IN_PROGRESS_FIELD",
    "KEY_FIELD",
    "acting_nutzer",
    "call_key",
    "in_progress_failure",
    "run_once",
    "write_key",
]

_log = logging.getLogger(__name__)

# One constant prefix: Powertools keeps it on the shared layer, calls run in threads.
_KEY_PREFIX = "brain"

Envelope = dict[str, Any]


class _NothingStored(Exception):
    """Carries an answer that stored nothing out of the handler, so that Powertools
    deletes the in-progress record instead of remembering the answer."""

    def __init__(self, envelope: Envelope) -> None:
        super().__init__("nothing stored")
        self.envelope = envelope


class _Deadline:
    """The remaining time Powertools asks a Lambda context for, outside Lambda."""

    def __init__(self, seconds: int) -> None:
        self._millis = seconds * 1000

    def get_remaining_time_in_millis(self) -> int:
        return self._millis


def acting_nutzer(principal: Principal, arguments: Mapping[str, Any]) -> str:
    """The nutzer a call acts as: the envelope's `inhalt.nutzer`, else the token's own."""
    inhalt = arguments.get("inhalt")
    if isinstance(inhalt, Mapping) and isinstance(inhalt.get("nutzer"), str | int):
        return str(inhalt["nutzer"])
    return areas.acting_nutzer(principal)


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    # surrogatepass: a lone surrogate a client sent still hashes (the validators refuse it)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def call_key(principal: Principal, tool: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """What identifies a call: tenant, acting nutzer, tool and the canonical arguments."""
    return {
        "tenant": principal.tenant,
        "nutzer": acting_nutzer(principal, arguments),
        "tool": tool,
        "arguments": arguments,
    }


def write_key(principal: Principal, tool: str, arguments: Mapping[str, Any]) -> str:
    """The logical write the entries belong to: the caller's key, else the call itself."""
    referenzfelder = arguments.get("referenzfelder")
    named = referenzfelder.get(KEY_FIELD) if isinstance(referenzfelder, Mapping) else None
    key = call_key(principal, tool, arguments)
    if isinstance(named, str | int) and str(named):
        key = {**key, "arguments": None, KEY_FIELD: str(named)}
    return _digest(key)


def in_progress_failure(referenzfelder: dict[str, Any]) -> Envelope:
    return responses.failure(
        [
            FieldError(
                IN_PROGRESS_FIELD,
                "wird bereits ausgeführt: Ein identischer Aufruf (gleicher Nutzer, gleiches "
                "Tool, gleiche Argumente) läuft noch. Nichts wurde doppelt geschrieben; bitte "
                "in einigen Sekunden erneut senden, dann kommt die Antwort des ersten Aufrufs.",
            )
        ],
        referenzfelder,
    )


def run_once(
    ctx: ServiceContext,
    principal: Principal,
    tool: str,
    arguments: Mapping[str, Any],
    handler: Callable[[ServiceContext], Envelope],
    referenzfelder: dict[str, Any],
    lambda_context: LambdaContext | None = None,
) -> Envelope:
    """Run `handler` at most once per call key within the window (see module docstring)."""
    keyed = replace(ctx, write_key=write_key(principal, tool, arguments))

    def run() -> Envelope:
        envelope = handler(keyed)
        if responses.is_error(envelope):
            raise _NothingStored(envelope)
        return envelope

    deadline: Any = lambda_context or _Deadline(ctx.settings.idempotency_in_progress_s)
    config = IdempotencyConfig(
        expires_after_seconds=ctx.settings.idempotency_window_s,
        hash_function="sha256",
        lambda_context=deadline,
    )
    idempotent = IdempotencyHandler(
        function=run,
        function_payload=call_key(principal, tool, arguments),
        config=config,
        persistence_store=ctx.storage.idempotency_layer(),
        key_prefix=_KEY_PREFIX,
        function_args=(),
        function_kwargs={},
    )
    try:
        envelope: Envelope = idempotent.handle()
    except _NothingStored as nothing:
        return nothing.envelope
    except IdempotencyAlreadyInProgressError:
        return in_progress_failure(referenzfelder)
    except (IdempotencyPersistenceLayerError, IdempotencyInconsistentStateError) as exc:
        _log.error("idempotency records unavailable", extra={"reason": type(exc).__name__})
        return responses.failure(
            [
                FieldError(
                    "speicher",
                    "Speicherfehler: Der Aufruf konnte nicht als einmalig vermerkt werden. "
                    "Erneut senden ist sicher: bereits Gespeichertes wird erkannt.",
                )
            ],
            referenzfelder,
        )
    return envelope
