"""The MCP router Lambda under Mangum, dispatching to the tool Lambdas through a local invoker
(JSON round trip), on moto: protocol, auth, clean errors and warm invocations."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.config import Settings
from shared.lambda_runtime.payloads import PrincipalPayload
from shared.lambda_runtime.router import build_router
from shared.lambda_runtime.tool_handler import make_tool_handler
from shared.tools.catalog import TOOLS
from tests.lambda_functions.conftest import FakeLambdaContext, LocalInvoker

EVENTS = Path(__file__).resolve().parents[2] / "events"
FUNCTIONS = {tool: f"brain-{tool.replace('_', '-')}" for tool in TOOLS}


def router_event(message: dict[str, Any], **changes: Any) -> dict[str, Any]:
    event: dict[str, Any] = copy.deepcopy(json.loads((EVENTS / "mcp_router.json").read_text()))
    event["body"] = json.dumps(message)
    for key, value in changes.items():
        event[key] = value
    return event


def tool_call(tool: str, arguments: dict[str, Any], request_id: int = 1) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }


def structured(response: dict[str, Any]) -> dict[str, Any]:
    assert response["statusCode"] == 200, response
    result: dict[str, Any] = json.loads(response["body"])["result"]["structuredContent"]
    return result


@pytest.fixture
def invoker(aws_env: dict[str, str], lambda_context: FakeLambdaContext) -> LocalInvoker:
    handlers = {FUNCTIONS[tool]: make_tool_handler(tool) for tool in TOOLS}
    return LocalInvoker(handlers, lambda_context)


@pytest.fixture
def router(invoker: LocalInvoker) -> Iterator[Any]:
    router = build_router(Settings(tool_functions=FUNCTIONS), invoker)
    yield router
    router.close()


IDENTITY = {"nutzer": "anna", "agent": "support-bot"}
INSERT = {
    "inhalt": {
        "memories": [
            {
                "kurzbeschreibung": "k",
                "memory": "Rückruf nur vormittags",
                "tags": [],
                "scope": "kunde",
                "scope_vk": "K-1",
                **IDENTITY,
            }
        ],
        **IDENTITY,
    }
}


def test_router_answers_the_protocol_itself(router: Any, invoker: LocalInvoker) -> None:
    # Given the router Lambda, When a client initializes and lists tools
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    init = router(router_event(initialize), FakeLambdaContext())
    listed = router(
        router_event({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}), FakeLambdaContext()
    )
    # Then both are answered without invoking any tool Lambda
    assert json.loads(init["body"])["result"]["serverInfo"]["name"] == "brain"
    names = {tool["name"] for tool in json.loads(listed["body"])["result"]["tools"]}
    assert names == set(TOOLS)
    assert invoker.calls == []


def test_tools_call_is_forwarded_to_that_tools_lambda(router: Any, invoker: LocalInvoker) -> None:
    inserted = structured(
        router(router_event(tool_call("insert_brain_longterm_memory", INSERT)), FakeLambdaContext())
    )
    fetch = {"inhalt": {"memories": {"longterm": ["longterm_1"]}, **IDENTITY}}
    fetched = structured(
        router(router_event(tool_call("fetch_brain_memories", fetch)), FakeLambdaContext())
    )
    assert inserted["daten"][0]["ID"] == "longterm_1"
    assert fetched["daten"]["longterm"][0]["memory"] == "Rückruf nur vormittags"
    assert invoker.calls == [
        FUNCTIONS["insert_brain_longterm_memory"],
        FUNCTIONS["fetch_brain_memories"],
    ]


def test_unknown_tool_is_a_json_rpc_invalid_params_error(
    router: Any, invoker: LocalInvoker
) -> None:
    # Given the router Lambda
    # When a client calls a tool name the server does not publish
    response = router(router_event(tool_call("no_such_tool", {}, 7)), FakeLambdaContext())
    # Then it answers JSON-RPC error -32602 naming the tool (not a tool result), in German,
    # without invoking any tool Lambda
    assert response["statusCode"] == 200, response
    body = json.loads(response["body"])
    assert "result" not in body and body["id"] == 7
    assert body["error"]["code"] == -32602
    assert body["error"]["data"] == {"name": "no_such_tool"}
    assert "Unbekanntes Tool 'no_such_tool'" in body["error"]["message"]
    assert invoker.calls == []


def test_principal_comes_from_the_authorizer_claims(router: Any) -> None:
    # A token for anna cannot act as bruno: the claims, not the arguments, decide.
    forged = copy.deepcopy(INSERT)
    forged["inhalt"]["nutzer"] = "bruno"
    answer = structured(
        router(router_event(tool_call("insert_brain_longterm_memory", forged)), FakeLambdaContext())
    )
    assert answer["erfolg"] is False
    assert "nicht berechtigt" in answer["fehler"][0]["meldung"]


def test_no_authorizer_claims_is_401_with_metadata(router: Any) -> None:
    event = router_event(tool_call("fetch_brain_memories", {}))
    del event["requestContext"]["authorizer"]
    response = router(event, FakeLambdaContext())
    assert response["statusCode"] == 401
    challenge = response["headers"]["www-authenticate"]
    assert (
        'resource_metadata="https://abc123.execute-api.eu-central-1.amazonaws.com/.well-known/oauth-protected-resource/mcp"'
        in challenge
    )


def test_missing_scope_is_403_before_any_invoke(router: Any, invoker: LocalInvoker) -> None:
    event = router_event(tool_call("insert_brain_longterm_memory", INSERT))
    event["requestContext"]["authorizer"]["jwt"]["claims"]["scope"] = "memory:read"
    response = router(event, FakeLambdaContext())
    assert response["statusCode"] == 403
    assert invoker.calls == []


def test_metadata_route_without_token(router: Any) -> None:
    event = router_event(
        {},
        routeKey="GET /.well-known/oauth-protected-resource/mcp",
        rawPath="/.well-known/oauth-protected-resource/mcp",
    )
    event["requestContext"]["http"] = {
        **event["requestContext"]["http"],
        "method": "GET",
        "path": event["rawPath"],
    }
    del event["requestContext"]["authorizer"]
    event["body"] = None
    response = router(event, FakeLambdaContext())
    assert response["statusCode"] == 200
    body = json.loads(response["body"])
    assert body["resource"] == "https://abc123.execute-api.eu-central-1.amazonaws.com/mcp"


def test_tool_crash_timeout_and_unknown_function_become_clean_tool_errors(
    aws_env: dict[str, str], lambda_context: FakeLambdaContext
) -> None:
    from botocore.exceptions import ReadTimeoutError

    def crash(event: dict[str, Any], context: Any) -> Any:
        raise RuntimeError("boom")

    class TimingOut(LocalInvoker):
        def invoke(self, function_name: str, payload: bytes) -> Any:
            if function_name == "slow":
                raise ReadTimeoutError(endpoint_url="https://lambda")
            return super().invoke(function_name, payload)

    invoker = TimingOut({"crashing": crash}, lambda_context)
    functions = {"fetch_brain_memories": "crashing", "recall": "slow"}  # select_brain: none
    router = build_router(Settings(tool_functions=functions), invoker)
    answers = {
        tool: router(router_event(tool_call(tool, args)), lambda_context)
        for tool, args in [
            ("fetch_brain_memories", {"inhalt": {"memories": {}, **IDENTITY}}),
            ("recall", {"query": "x"}),
            ("select_brain", {**IDENTITY}),
        ]
    }
    for tool, response in answers.items():
        # Then each is an MCP tool result with isError and a German message, never a 5xx
        assert response["statusCode"] == 200, tool
        result = json.loads(response["body"])["result"]
        assert result["isError"] is True
        assert result["structuredContent"]["erfolg"] is False
    messages = {
        tool: json.loads(r["body"])["result"]["structuredContent"]["fehler"][0]["meldung"]
        for tool, r in answers.items()
    }
    assert "Interner Fehler" in messages["fetch_brain_memories"]
    assert "nicht erreichbar" in messages["recall"]
    assert "nicht verfügbar" in messages["select_brain"]


def test_hundred_warm_invocations_in_one_process(router: Any) -> None:
    # fastmcp's session manager under Mangum must survive invocation after invocation.
    for number in range(1, 101):
        # identical calls are replays, identical memories near-duplicates: copies allowed
        distinct = {**INSERT, "referenzfelder": {"n": number, "duplikat_erlaubt": True}}
        answer = structured(
            router(
                router_event(tool_call("insert_brain_longterm_memory", distinct, number)),
                FakeLambdaContext(),
            )
        )
        assert answer["daten"][0]["ID"] == f"longterm_{number}"


def _client_error(code: str, status: int) -> Any:
    from botocore.exceptions import ClientError

    return ClientError(
        {"Error": {"Code": code, "Message": "x"}, "ResponseMetadata": {"HTTPStatusCode": status}},
        "Invoke",
    )


class FlakyInvoker(LocalInvoker):
    """Fails the first `failures` invokes with the given error, then invokes for real."""

    def __init__(self, handlers: Any, context: Any, errors: list[Any]) -> None:
        super().__init__(handlers, context)
        self.errors = errors

    def invoke(self, function_name: str, payload: bytes) -> Any:
        if self.errors:
            self.calls.append(function_name)
            raise self.errors.pop(0)
        return super().invoke(function_name, payload)


@pytest.mark.parametrize(
    ("errors", "attempts", "stored"),
    [
        ([("TooManyRequestsException", 429), ("ServiceException", 500)], 3, True),
        ([("TooManyRequestsException", 429)] * 3, 3, False),
        ([("ResourceNotFoundException", 404)], 1, False),
    ],
    ids=["throttled then 5xx then ok", "throttled every time", "4xx is not retried"],
)
def test_router_retries_throttling_and_5xx_with_bounded_jittered_backoff(
    aws_env: dict[str, str],
    lambda_context: FakeLambdaContext,
    errors: list[tuple[str, int]],
    attempts: int,
    stored: bool,
) -> None:
    import anyio

    from shared.lambda_runtime.router import LambdaDispatcher

    # Given a tool Lambda that is throttled or fails before it answers
    handlers = {FUNCTIONS[tool]: make_tool_handler(tool) for tool in TOOLS}
    invoker = FlakyInvoker(handlers, lambda_context, [_client_error(*e) for e in errors])
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    dispatcher = LambdaDispatcher(invoker, FUNCTIONS, max_attempts=3, sleep=sleep, rng=lambda: 1.0)
    principal = PrincipalPayload.model_validate(
        {
            "tenant": "acme",
            "subject": "acme:anna",
            "nutzer": ["anna"],
            "agents": ["support-bot"],
            "scopes": ["memory:read", "memory:write"],
        }
    ).principal()
    # When the router forwards an insert
    envelope = anyio.run(dispatcher.dispatch, principal, "insert_brain_longterm_memory", INSERT)
    # Then it tried at most three times, waiting with capped exponential backoff
    assert len(invoker.calls) == attempts
    assert waits == [0.2, 0.4][: attempts - 1]
    # And the memory was stored exactly when an attempt got through
    assert envelope["erfolg"] is stored
    if not stored:
        assert "nicht erreichbar" in envelope["fehler"][0]["meldung"]
