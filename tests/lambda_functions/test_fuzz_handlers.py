"""Property-based fuzzing of every Lambda handler of template.yaml (issue 11), loaded by the
template-driven harness on DynamoDB Local (S3 Vectors on moto): router invocations and HTTP
API events with malformed arguments, bodies, claims and shapes. No handler raises, no HTTP
answer is a 5xx, and a refused call writes nothing to the table. Counts are printed
(`pytest -s`)."""

from __future__ import annotations

import base64
import copy
import functools
import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.lambda_runtime import router as router_module
from shared.tools.catalog import TOOLS
from tests import dynamodb_local
from tests.infra.cfn import function_props, functions, load_template
from tests.lambda_functions.conftest import FakeLambdaContext, LocalInvoker
from tests.lambda_functions.test_template_functions import (
    TABLE,
    Handler,
    deploy,
    event,
    rest_event,
)
from tests.security.fuzz_strategies import dumps, fuzz, json_values, mutated, raw_bodies

COUNTS: Counter[str] = Counter()


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.fixture
def deployed(template: dict[str, Any]) -> Iterator[dict[str, Handler]]:
    with deploy(template) as handlers:
        yield handlers


LEAKS = ("Traceback", "Exceeds the limit", "RecursionError", "KeyError")


@functools.cache
def _dynamodb(endpoint: str, access_key: str) -> Any:
    return boto3.client(
        "dynamodb",
        endpoint_url=endpoint,
        aws_access_key_id=access_key,
        aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],
    )


def item_count() -> int:
    """Data items in the table on DynamoDB Local (the deployed functions' database): a refused
    call stores nothing, but may end the stale call record of an earlier call (a replay whose
    memory was deleted since), so call records are not counted."""
    client = _dynamodb(os.environ["AWS_ENDPOINT_URL_DYNAMODB"], os.environ["AWS_ACCESS_KEY_ID"])
    return dynamodb_local.item_count(client, TABLE, calls=False)


def tool_handlers(template: dict[str, Any], deployed: dict[str, Handler]) -> dict[str, Handler]:
    """The function of every MCP tool (the REST API function answers problem documents, not
    envelopes: `test_fuzz_rest_function`)."""
    found = {
        Path(function_props(template, name)["CodeUri"]).name: deployed[name]
        for name in functions(template)
    }
    return {tool: handler for tool, handler in found.items() if tool in TOOLS}


def http_event(sample: dict[str, Any], body: bytes, encoded: bool) -> dict[str, Any]:
    """An HTTP API v2 event with the sample's authorizer claims and `body`."""
    router = event("mcp_router")
    result = copy.deepcopy(router)
    result["body"] = base64.b64encode(body).decode() if encoded else body.decode("latin-1")
    result["isBase64Encoded"] = encoded
    result["requestContext"]["authorizer"] = copy.deepcopy(router["requestContext"]["authorizer"])
    del sample
    return result


def run_tool(handler: Handler, tool_event: Any, kind: str) -> None:
    before = item_count()
    answer = handler(tool_event, FakeLambdaContext())
    COUNTS[kind] += 1
    assert isinstance(answer, dict)
    text = json.dumps(answer, ensure_ascii=False)
    assert not any(leak in text for leak in LEAKS), text[:300]
    if "statusCode" in answer:
        COUNTS[f"status {answer['statusCode']}"] += 1
        assert answer["statusCode"] < 500, text[:300]
        envelope = json.loads(answer["body"])
    else:
        envelope = answer
    assert "erfolg" in envelope, text[:300]
    if envelope["erfolg"] is False:
        COUNTS["refused"] += 1
        if not envelope.get("anzahl_erfolgreich"):
            assert item_count() == before, envelope.get("fehler")


def test_fuzz_every_tool_handler(template: dict[str, Any], deployed: dict[str, Handler]) -> None:
    handlers = tool_handlers(template, deployed)
    samples = {tool: event(tool) for tool in handlers}

    @fuzz(250)
    @given(data=st.data(), tool=st.sampled_from(sorted(handlers)))
    def run(data: st.DataObject, tool: str) -> None:
        sample = samples[tool]
        shape = data.draw(st.sampled_from(["router", "router-any", "http", "http-raw"]))
        if shape == "router":
            tool_event: Any = {**sample, "arguments": data.draw(mutated(sample["arguments"]))}
        elif shape == "router-any":
            tool_event = data.draw(mutated(sample) | json_values)
        elif shape == "http":
            body = dumps(data.draw(mutated(sample["arguments"])))
            tool_event = http_event(sample, body, data.draw(st.booleans()))
        else:
            tool_event = http_event(sample, data.draw(raw_bodies), data.draw(st.booleans()))
        if not isinstance(tool_event, dict):
            tool_event = {"payload": tool_event}
        run_tool(handlers[tool], tool_event, f"tool {shape}")

    run()
    assert sum(v for k, v in COUNTS.items() if k.startswith("tool ")) >= 250


# Routes of the REST function the body fuzzing aims at: (method, path, a valid body).
LEDGER_BOOKING = {
    "art": "ausgabe",
    "betrag": "12.50",
    "waehrung": "EUR",
    "datum": "2026-11-30",
    "gegenpartei": "Bahn",
    "kategorie": "reise",
    "path": "teams/vertrieb/reisen",
}
REST_ROUTES: list[tuple[str, str, Any]] = [
    ("POST", "/api/memory", None),  # None: the sample event's body
    ("GET", "/api/memory", None),
    ("PATCH", "/api/memory/longterm_1", {"tags": ["a"]}),
    ("DELETE", "/api/memory/longterm_1", None),
    ("POST", "/api/ledger/buchungen", {"eintraege": [LEDGER_BOOKING]}),
    ("POST", "/api/ledger/stornos", {"eintraege": [{"ID": 1, "grund": "doppelt"}]}),
    ("GET", "/api/ledger", None),
    ("POST", "/api/projects/vertrieb/mitglieder", {"mitglieder": ["bob"]}),
    ("DELETE", "/api/projects/vertrieb/mitglieder/bob", None),
]


def test_fuzz_rest_function(deployed: dict[str, Handler]) -> None:
    handler = deployed["MemoryApiFunction"]
    sample = event("memory_api")
    body = json.loads(sample["body"])

    @fuzz(150)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        shape = data.draw(st.sampled_from(["event", "any", "body", "raw"]))
        if shape == "event":
            rest: Any = data.draw(mutated(sample))
        elif shape == "any":
            rest = data.draw(json_values)
        else:
            method, path, valid = data.draw(st.sampled_from(REST_ROUTES))
            example = body if valid is None else valid
            raw = dumps(data.draw(mutated(example))) if shape == "body" else data.draw(raw_bodies)
            rest = rest_event(method, path, data.draw(st.sampled_from(["", "nutzer=anna"])))
            encoded = data.draw(st.booleans())
            rest["body"] = base64.b64encode(raw).decode() if encoded else raw.decode("latin-1")
            rest["isBase64Encoded"] = encoded
        before = item_count()
        answer = handler(rest, FakeLambdaContext())
        COUNTS[f"rest {shape}"] += 1
        COUNTS[f"status {answer['statusCode']}"] += 1
        text = json.dumps(answer, ensure_ascii=False)
        assert answer["statusCode"] < 500, text[:300]
        assert not any(leak in text for leak in LEAKS), text[:300]
        if answer["statusCode"] >= 400:
            assert item_count() == before, text[:300]

    run()
    assert sum(v for k, v in COUNTS.items() if k.startswith("rest ")) >= 150
    # The REST function answered more than refusals of the event's shape
    assert {COUNTS["status 201"] > 0, COUNTS["status 422"] > 0} == {True}
    print("\nREST Lambda fuzz counts:", {k: v for k, v in sorted(COUNTS.items())})


def without(value: dict[str, Any], *path: str) -> dict[str, Any]:
    result = copy.deepcopy(value)
    parent = result
    for step in path[:-1]:
        parent = parent[step]
    del parent[path[-1]]
    return result


def test_rest_function_answers_400_to_events_it_cannot_serve(
    deployed: dict[str, Handler],
) -> None:
    handler = deployed["MemoryApiFunction"]
    sample = event("memory_api")
    # Given events API Gateway's HTTP API never sends (each crashed Mangum before: KeyError
    # 'path', 'sourceIp', TypeError, AttributeError, RuntimeError)
    broken = [
        {},
        {"httpMethod": "GET", "path": "/api/memory"},  # a REST API (1.0) event
        {**sample, "version": "1.0"},
        without(sample, "requestContext", "http", "path"),
        without(sample, "requestContext", "http", "sourceIp"),
        without(sample, "rawPath"),
        {**sample, "headers": None},
        {**sample, "body": 5},
        {**sample, "rawQueryString": 5},
        {**sample, "cookies": 3},
        {**sample, "isBase64Encoded": "ja"},
        {**sample, "rawQueryString": "q=\ud800"},
    ]
    for malformed in broken:
        before = item_count()
        # When one arrives
        answer = handler(malformed, FakeLambdaContext())
        # Then it is a 400 problem document naming no internals, and nothing is stored
        assert answer["statusCode"] == 400, (malformed, answer)
        assert answer["headers"]["content-type"] == "application/problem+json"
        problem = json.loads(answer["body"])
        assert problem["status"] == 400
        assert problem["detail"].startswith("Ungültige Anfrage: Das Ereignis ist keine HTTP-API")
        assert not any(leak in answer["body"] for leak in (*LEAKS, "Error", "mangum"))
        assert item_count() == before
    # And the well-formed sample is still served
    assert handler(sample, FakeLambdaContext())["statusCode"] == 201


def test_fuzz_router_and_expiry(
    template: dict[str, Any], deployed: dict[str, Handler], monkeypatch: pytest.MonkeyPatch
) -> None:
    invoker = LocalInvoker(dict(deployed), FakeLambdaContext())
    monkeypatch.setattr(router_module, "BotoInvoker", lambda client: invoker)
    router = deployed["McpRouterFunction"]
    sample = event("mcp_router")
    call = json.loads(sample["body"])

    @fuzz(100)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        body = data.draw(st.one_of(mutated(call).map(dumps), raw_bodies))
        router_event = http_event(sample, body, data.draw(st.booleans()))
        before = item_count()
        answer = router(router_event, FakeLambdaContext())
        COUNTS["router"] += 1
        COUNTS[f"status {answer['statusCode']}"] += 1
        assert answer["statusCode"] < 500, answer
        assert not any(leak in answer.get("body", "") for leak in LEAKS)
        structured = json.loads(answer["body"] or "null") if answer.get("body") else None
        result = structured.get("result") if isinstance(structured, dict) else None
        envelope = result.get("structuredContent") if isinstance(result, dict) else None
        refused = isinstance(envelope, dict) and envelope.get("erfolg") is False
        if refused and not envelope.get("anzahl_erfolgreich"):
            assert item_count() == before

    run()
    expiry = deployed["ExpiryFunction"]

    @fuzz(20)
    @given(expiry_event=mutated(event("expiry")) | json_values)
    def sweep(expiry_event: Any) -> None:
        COUNTS["expiry"] += 1
        answer = expiry(expiry_event if isinstance(expiry_event, dict) else {}, FakeLambdaContext())
        assert "geloescht" in answer

    sweep()
    print("\nLambda fuzz counts:", dict(sorted(COUNTS.items())))
