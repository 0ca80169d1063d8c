"""A tool Lambda accepts only the router's payload or an authorized HTTP API request."""

from __future__ import annotations

import base64
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from shared.lambda_runtime.tool_handler import make_tool_handler
from tests.lambda_functions.conftest import FakeLambdaContext

EVENTS = Path(__file__).resolve().parents[2] / "events"


def sample(name: str) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((EVENTS / f"{name}.json").read_text())
    return event


def http_event(tool: str, body: Any, *, scope: str = "memory:read memory:write") -> dict[str, Any]:
    event = copy.deepcopy(sample("mcp_router"))
    event["routeKey"] = f"POST /v1/tools/{tool}"
    event["rawPath"] = f"/v1/tools/{tool}"
    event["requestContext"]["http"]["path"] = event["rawPath"]
    event["requestContext"]["authorizer"]["jwt"]["claims"]["scope"] = scope
    event["body"] = body if isinstance(body, str) or body is None else json.dumps(body)
    return event


FETCH = {
    "inhalt": {"memories": {"longterm": ["longterm_1"]}, "nutzer": "anna", "agent": "support-bot"}
}


def test_http_route_answers_with_the_envelope(aws_env: dict[str, str]) -> None:
    handler = make_tool_handler("fetch_brain_memories")
    response = handler(http_event("fetch_brain_memories", FETCH), FakeLambdaContext())
    assert response["statusCode"] == 200
    body = json.loads(response["body"])
    assert body["daten"]["nicht_gefunden"] == ["longterm_1"]


def test_http_route_body_may_be_base64(aws_env: dict[str, str]) -> None:
    event = http_event("fetch_brain_memories", None)
    event["body"] = base64.b64encode(json.dumps(FETCH).encode()).decode()
    event["isBase64Encoded"] = True
    response = make_tool_handler("fetch_brain_memories")(event, FakeLambdaContext())
    assert response["statusCode"] == 200


@pytest.mark.parametrize(
    ("mutate", "status"),
    [
        (lambda e: e["requestContext"].pop("authorizer"), 401),
        (lambda e: e.update(body="{kaputt"), 400),
        (lambda e: e.update(body="[1, 2]"), 400),
        (
            lambda e: e["requestContext"]["authorizer"]["jwt"]["claims"].update(scope="brain:read"),
            403,
        ),
    ],
    ids=["no claims", "broken json", "not an object", "missing scope"],
)
def test_http_route_refusals(aws_env: dict[str, str], mutate: Any, status: int) -> None:
    event = http_event("fetch_brain_memories", FETCH)
    mutate(event)
    response = make_tool_handler("fetch_brain_memories")(event, FakeLambdaContext())
    assert response["statusCode"] == status


@pytest.mark.parametrize(
    "event",
    [
        {"hello": "world"},
        {"source": "brain-router", "tool": "fetch_brain_memories"},  # no principal
        {**sample("fetch_brain_memories"), "extra": 1},
        {**sample("fetch_brain_memories"), "tool": "upsert_brain"},  # another tool
    ],
    ids=["unknown shape", "incomplete invocation", "unknown field", "other tool"],
)
def test_anything_else_is_refused(aws_env: dict[str, str], event: dict[str, Any]) -> None:
    answer = make_tool_handler("fetch_brain_memories")(event, FakeLambdaContext())
    assert answer["erfolg"] is False
    assert answer["fehler"][0]["feld"] == "event"


def test_unknown_tool_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown tool"):
        make_tool_handler("no_such_tool")


def test_second_warm_invocation_reuses_the_container(aws_env: dict[str, str]) -> None:
    from shared.lambda_runtime.container import container

    handler = make_tool_handler("insert_brain_longterm_memory")
    first = handler(sample("insert_brain_longterm_memory"), FakeLambdaContext())
    built = container()
    other = sample("insert_brain_longterm_memory")
    # not a resend of the first, and stored as a copy (not merged as a near-duplicate)
    other["arguments"]["referenzfelder"] = {"lauf": 2, "duplikat_erlaubt": True}
    second = handler(other, FakeLambdaContext())
    assert container() is built
    assert [first["daten"][0]["ID"], second["daten"][0]["ID"]] == ["longterm_1", "longterm_2"]


def _insert_body(*nutzer: Any) -> dict[str, Any]:
    entry = {
        "kurzbeschreibung": "Rückruf",
        "memory": "Nur vormittags.",
        "tags": [],
        "scope": "kunde",
        "scope_vk": "K-1",
        "agent": "support-bot",
    }
    memories = [{**entry, "nutzer": value} for value in nutzer]
    return {"inhalt": {"memories": memories, "nutzer": "anna", "agent": "support-bot"}}


def test_http_route_status_follows_what_was_stored(aws_env: dict[str, str]) -> None:
    handler = make_tool_handler("insert_brain_longterm_memory")
    # Given a batch whose second entry is invalid (nutzer must be a string or number)
    partly = handler(
        http_event("insert_brain_longterm_memory", _insert_body("anna", True)), FakeLambdaContext()
    )
    # Then the partly stored batch is 200 with its per-entry results
    assert partly["statusCode"] == 200
    body = json.loads(partly["body"])
    assert (body["erfolg"], body["anzahl_erfolgreich"], body["anzahl_fehlgeschlagen"]) == (
        False,
        1,
        1,
    )
    # And a batch of which nothing was stored is 422 with the German errors
    nothing = handler(
        http_event("insert_brain_longterm_memory", _insert_body(True)), FakeLambdaContext()
    )
    assert nothing["statusCode"] == 422
    assert json.loads(nothing["body"])["fehler"][0]["feld"].startswith("inhalt.memories[0]")


def _error(feld: str, art: str = "ungueltig") -> dict[str, str]:
    return {"feld": feld, "meldung": "…", "art": art}


@pytest.mark.parametrize(
    ("envelope", "status"),
    [
        ({"erfolg": True}, 200),
        ({"erfolg": False, "anzahl_erfolgreich": 1, "fehler": [{"feld": "x"}]}, 200),
        ({"erfolg": False, "fehler": [_error("scope", "nicht_berechtigt")]}, 403),
        ({"erfolg": False, "fehler": [_error("idempotenz", "in_bearbeitung")]}, 409),
        ({"erfolg": False, "anzahl_erfolgreich": 0, "fehler": [_error("inhalt")]}, 422),
        ({"erfolg": False, "fehler": [_error("inhalt.memories[0]", "nicht_gefunden")]}, 404),
        ({"erfolg": False, "fehler": [_error("speicher", "speicherfehler")]}, 503),
        # The kind decides, never the field or the wording of the message
        ({"erfolg": False, "fehler": [{"feld": "scope", "meldung": "nicht berechtigt"}]}, 422),
    ],
    ids=[
        "stored",
        "partly stored",
        "scope",
        "identical call still runs",
        "nothing stored",
        "not found",
        "storage",
        "no kind",
    ],
)
def test_http_status_mirrors_is_error(envelope: dict[str, Any], status: int) -> None:
    from shared.lambda_runtime.tool_handler import http_status

    assert http_status(envelope) == status
