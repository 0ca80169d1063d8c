"""The MCP router Lambda: fastmcp (stateless, JSON responses) under Mangum. It answers the
protocol itself and forwards each `tools/call` to that tool's Lambda (synchronous invoke)
with the caller's bearer token verified here (`oauth_keys`: Brain's OAuth tokens and the
OIDC provider's), or the claims of a JWT authorizer in front of it."""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

import anyio
from aws_lambda_powertools.utilities.typing import LambdaContext
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from shared.auth.principal import Principal
from shared.config import Settings
from shared.lambda_runtime.asgi import LambdaAsgi
from shared.lambda_runtime.oauth_keys import bearer_resolver, self_authorizing
from shared.lambda_runtime.observability import logger
from shared.lambda_runtime.payloads import PrincipalPayload, RouterInvocation
from shared.lambda_runtime.snapstart import aws_session, on_snapshot
from shared.logs import silence_payload_loggers
from shared.server.app import build_app
from shared.services import responses
from shared.validation.errors import FieldError


@dataclass(frozen=True)
class InvokeResult:
    payload: bytes
    function_error: str | None = None


class Invoker(Protocol):
    def invoke(self, function_name: str, payload: bytes) -> InvokeResult: ...


class BotoInvoker:
    """lambda:Invoke with one client, built once by `client_factory` and again on `renew`."""

    def __init__(self, client_factory: Callable[[], Any]) -> None:
        self.client_factory = client_factory
        self.client = client_factory()

    def renew(self) -> None:
        """A new client (credentials, connection pool): SnapStart's after-restore hook."""
        self.client = self.client_factory()

    def invoke(self, function_name: str, payload: bytes) -> InvokeResult:
        response = self.client.invoke(
            FunctionName=function_name, InvocationType="RequestResponse", Payload=payload
        )
        return InvokeResult(response["Payload"].read(), response.get("FunctionError"))


def _failure(tool: str, message: str) -> dict[str, Any]:
    return responses.failure([FieldError("tool", message)], {})


# Lambda Invoke errors worth another attempt: throttling and the service's own 5xx. Safe
# since every write tool is idempotent (a duplicate gets the first answer, never a second
# write). Timeouts are not retried: the tool may still be running, and API Gateway's 30 s
# would run out anyway.
_THROTTLED = frozenset(
    {"TooManyRequestsException", "ThrottlingException", "Throttling", "RequestLimitExceeded"}
)


def retryable(exc: ClientError) -> bool:
    status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0
    return exc.response.get("Error", {}).get("Code") in _THROTTLED or int(status) >= 500


class LambdaDispatcher:
    """Forwards a tool call to the tool's Lambda; every failure becomes a clean envelope.

    Throttled and 5xx invokes are retried up to `max_attempts` in all, with full-jitter
    exponential backoff (base `backoff_s`, each wait at most `max_backoff_s`)."""

    def __init__(
        self,
        invoker: Invoker,
        functions: Mapping[str, str],
        *,
        max_attempts: int = 3,
        backoff_s: float = 0.1,
        max_backoff_s: float = 1.0,
        sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
        rng: Callable[[], float] = random.random,
    ) -> None:
        self.invoker = invoker
        self.functions = dict(functions)
        self.max_attempts = max_attempts
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.sleep = sleep
        self.rng = rng

    async def _invoke(self, tool: str, function_name: str, payload: bytes) -> InvokeResult:
        for attempt in range(1, self.max_attempts + 1):
            try:
                # On the event loop, not in a worker thread: a Lambda environment serves one
                # request at a time, and Mangum's new task per invocation would start a new
                # worker thread every time (benchmarks/router_hop.py).
                return self.invoker.invoke(function_name, payload)
            except ClientError as exc:
                if attempt == self.max_attempts or not retryable(exc):
                    raise
                logger.warning(
                    "tool invoke retried",
                    extra={"tool": tool, "reason": type(exc).__name__, "attempt": attempt},
                )
            await self.sleep(self.rng() * min(self.max_backoff_s, self.backoff_s * 2**attempt))
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def dispatch(
        self, principal: Principal, tool: str, arguments: Mapping[str, Any]
    ) -> dict[str, Any]:
        function_name = self.functions.get(tool)
        if function_name is None:
            return _failure(tool, f"Das Tool '{tool}' ist in dieser Installation nicht verfügbar.")
        payload = RouterInvocation(
            source="brain-router",
            tool=tool,
            arguments=dict(arguments),
            principal=PrincipalPayload.of(principal),
        ).model_dump_json()
        try:
            result = await self._invoke(tool, function_name, payload.encode())
        except (BotoCoreError, ClientError) as exc:  # timeouts, throttling, missing function
            logger.error("tool invoke failed", extra={"tool": tool, "reason": type(exc).__name__})
            return _failure(
                tool,
                f"{tool} ist gerade nicht erreichbar (Zeitüberschreitung oder Überlast). "
                "Bitte später erneut versuchen; geschriebene Einträge vorher per fetch prüfen.",
            )
        if result.function_error:
            logger.error("tool crashed", extra={"tool": tool, "reason": result.function_error})
            return _failure(tool, f"Interner Fehler in {tool}. Bitte später erneut versuchen.")
        try:
            envelope = json.loads(result.payload)
        except (ValueError, UnicodeDecodeError):
            envelope = None
        if not isinstance(envelope, dict) or "erfolg" not in envelope:
            logger.error("tool answer malformed", extra={"tool": tool})
            return _failure(tool, f"Interner Fehler in {tool}: unerwartete Antwort.")
        return envelope


def build_router(settings: Settings, invoker: Invoker) -> LambdaAsgi:
    app = build_app(
        LambdaDispatcher(
            invoker, settings.tool_functions, max_attempts=settings.tool_invoke_max_attempts
        ),
        bearer_resolver(settings),
        settings,
        self_authorizing=self_authorizing(settings),
    )
    # The app's lifespan (fastmcp's session manager) runs once per environment, not per call.
    return LambdaAsgi(app, api_gateway_base_path=settings.api_base_path)


@cache
def _settings() -> Settings:
    return Settings()


def _lambda_client() -> Any:
    # No botocore retries (total_max_attempts; botocore's max_attempts=1 would still retry
    # once): LambdaDispatcher retries throttling and 5xx itself (bounded, jittered, logged);
    # the write tools are idempotent, so a retried invoke is safe.
    config = Config(
        retries={"mode": "standard", "total_max_attempts": 1},
        connect_timeout=5,
        read_timeout=_settings().tool_invoke_timeout_s,
    )
    return aws_session().client("lambda", config=config)


@cache
def _invoker() -> BotoInvoker:
    return BotoInvoker(_lambda_client)


@cache
def _router() -> LambdaAsgi:
    silence_payload_loggers()
    return build_router(_settings(), _invoker())


def _renew() -> None:
    """After a SnapStart restore: a new Lambda client; the app itself stays."""
    if _invoker.cache_info().currsize:
        _invoker().renew()


def reset() -> None:
    """Forget settings, client and app (tests: a fresh environment per test)."""
    for cached in (_router, _invoker, _settings):
        cached.cache_clear()


# SnapStart: the app (fastmcp, tools, schemas) is built before the snapshot.
on_snapshot("router", _router, _renew)


@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    lambda_context: Any = context  # Powertools' and Mangum's LambdaContext types agree
    response: dict[str, Any] = _router()(event, lambda_context)
    return response
