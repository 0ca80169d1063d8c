"""What `sam local invoke` would do, without Docker: every function of template.yaml is loaded
from its CodeUri and Handler the way Lambda does, with the environment the template gives it,
and invoked (twice: cold and warm) with its sample event from events/, on moto tables and
buckets created from the template's own resource definitions."""

from __future__ import annotations

import importlib.util
import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import boto3
import pytest
from moto import mock_aws

from shared.lambda_runtime import container as container_module
from shared.lambda_runtime import oauth_api as oauth_module
from shared.lambda_runtime import oauth_keys as oauth_keys_module
from shared.lambda_runtime import rest_api as rest_module
from shared.lambda_runtime import router as router_module
from shared.storage.dynamo.schema import create_table_kwargs
from tests.contract.s3vectors_query import every_client_emulating
from tests.dynamodb_local import dynamodb_env
from tests.infra.cfn import ROOT, function_props, functions, load_template
from tests.lambda_functions.conftest import FakeLambdaContext, LocalInvoker

TABLE = "BrainTable-test"
OAUTH_TABLE = "OAuthStateTable-test"
OAUTH_SECRET = "OAuthSigningSecret-test"
BUCKET = "embeddingsbucket-test"
TEST_PARAMETERS = {
    "OidcIssuer": "https://cognito-idp.eu-central-1.amazonaws.com/eu-central-1_Example",
    "OidcAudience": "brain-client",
}
AWS_ENV = {
    "AWS_DEFAULT_REGION": "eu-central-1",
    "AWS_REGION": "eu-central-1",
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "BRAIN_AWS_MAX_PARALLEL": "1",  # S3 Vectors on moto is not thread-safe
}
EVENT_OF = {"McpRouterFunction": "mcp_router", "ExpiryFunction": "expiry"}
NO_VALUE = object()  # what `!Ref AWS::NoValue` resolves to: the property is left out
Handler = Callable[[dict[str, Any], Any], Any]
RESETTABLE = (container_module, router_module, rest_module, oauth_module, oauth_keys_module)


class Intrinsics:
    """Resolves the intrinsic functions the template uses, as CloudFormation would."""

    def __init__(self, template: dict[str, Any]) -> None:
        self.parameters = {
            name: TEST_PARAMETERS.get(name, spec.get("Default"))
            for name, spec in template["Parameters"].items()
        }
        self.physical = {
            "BrainTable": TABLE,
            "VectorBucket": BUCKET,
            "OAuthStateTable": OAUTH_TABLE,
            "OAuthSigningSecret": OAUTH_SECRET,
        }
        self.conditions = template.get("Conditions", {})
        self.mappings = template.get("Mappings", {})
        alias = template["Globals"]["Function"]["AutoPublishAlias"]
        # The alias SAM generates per function (AutoPublishAlias): Ref is its qualified ARN.
        self.aliases = {f"{name}Alias{alias}": (name, alias) for name in functions(template)}

    def ref(self, name: str) -> str:
        if name in self.parameters:
            return str(self.parameters[name])
        if name in self.aliases:
            return alias_arn(*self.aliases[name])
        return self.physical.get(name, name)  # a function's physical name: its logical ID here

    def resolve(self, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        if "Ref" in value:
            return self.ref(value["Ref"])
        if "Fn::Sub" in value:
            text = value["Fn::Sub"]
            return re.sub(r"\$\{([A-Za-z0-9:.]+)\}", lambda m: self.ref(m.group(1)), text)
        if "Fn::If" in value:
            condition, then, otherwise = value["Fn::If"]
            return self.resolve(then if self.condition(condition) else otherwise)
        if "Fn::FindInMap" in value:
            mapping, key, attribute = (self.resolve(v) for v in value["Fn::FindInMap"])
            return str(self.mappings[mapping][key][attribute])
        raise AssertionError(f"unexpected intrinsic {value}")

    def resolve_all(self, value: Any) -> Any:
        """`value` with every intrinsic resolved and `AWS::NoValue` entries dropped."""
        if isinstance(value, list):
            items = [self.resolve_all(item) for item in value]
            return [item for item in items if item is not NO_VALUE]
        if not isinstance(value, dict):
            return value
        if value == {"Ref": "AWS::NoValue"}:
            return NO_VALUE
        if len(value) == 1 and next(iter(value)) in ("Ref", "Fn::Sub", "Fn::If", "Fn::FindInMap"):
            if "Fn::If" in value:
                condition, then, otherwise = value["Fn::If"]
                return self.resolve_all(then if self.condition(condition) else otherwise)
            return self.resolve(value)
        items = {key: self.resolve_all(item) for key, item in value.items()}
        return {key: item for key, item in items.items() if item is not NO_VALUE}

    def condition(self, name: str) -> bool:
        return self._evaluate(self.conditions[name])

    def _evaluate(self, expression: dict[str, Any]) -> bool:
        if "Fn::Not" in expression:
            (inner,) = expression["Fn::Not"]
            return not self._evaluate(inner)
        left, right = expression["Fn::Equals"]
        return bool(self.resolve(left) == self.resolve(right))


def alias_arn(function: str, alias: str) -> str:
    return f"arn:aws:lambda:eu-central-1:123456789012:function:{function}:{alias}"


def load_handler(name: str, props: dict[str, Any]) -> Handler:
    module_name, function = props["Handler"].rsplit(".", 1)
    path = ROOT / props["CodeUri"] / f"{module_name}.py"
    spec = importlib.util.spec_from_file_location(f"lambda_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    handler: Handler = getattr(module, function)
    return handler


def create_storage(template: dict[str, Any]) -> None:
    """Table and bucket from the template's own resource definitions (parameter defaults)."""
    resources = Intrinsics(template).resolve_all(template["Resources"])
    session = boto3.session.Session()  # not the default one: it keeps the first credentials
    dynamodb = session.client("dynamodb")
    dynamodb.create_table(**create_table_kwargs(TABLE, resources["BrainTable"]["Properties"]))
    dynamodb.create_table(
        **create_table_kwargs(OAUTH_TABLE, resources["OAuthStateTable"]["Properties"])
    )
    # The generated signing key (GenerateSecretString: letters and digits)
    length = resources["OAuthSigningSecret"]["Properties"]["GenerateSecretString"]["PasswordLength"]
    boto3.client("secretsmanager").create_secret(Name=OAUTH_SECRET, SecretString="k" * length)
    encryption = resources["VectorBucket"]["Properties"]["EncryptionConfiguration"]
    session.client("s3vectors").create_vector_bucket(
        vectorBucketName=BUCKET, encryptionConfiguration={"sseType": encryption["SseType"]}
    )


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.fixture
def deployed(template: dict[str, Any]) -> Iterator[dict[str, Handler]]:
    with deploy(template) as handlers:
        yield handlers


@contextmanager
def deploy(template: dict[str, Any]) -> Iterator[dict[str, Handler]]:
    """Every function's handler, loaded with its template environment, on DynamoDB Local
    (S3 Vectors on moto)."""
    intrinsics = Intrinsics(template)
    handlers: dict[str, Handler] = {}
    environment: dict[str, str] = {}
    for name in functions(template):
        variables = function_props(template, name).get("Environment", {}).get("Variables", {})
        environment.update({key: str(intrinsics.resolve(v)) for key, v in variables.items()})
    # moto sets fake credentials of its own when it starts: the environment comes after it.
    with (
        dynamodb_env() as dynamodb,
        mock_aws(),
        mock.patch.dict(os.environ, {**environment, **AWS_ENV, **dynamodb}),
        every_client_emulating(),
    ):
        create_storage(template)
        for module in RESETTABLE:
            module.reset()
        for name in functions(template):
            handlers[name] = load_handler(name, function_props(template, name))
        yield handlers
        for module in RESETTABLE:
            module.reset()


def event(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((ROOT / "events" / f"{name}.json").read_text())
    return loaded


def event_name(props: dict[str, Any]) -> str:
    return Path(props["CodeUri"]).name


TOOL_ORDER = [
    "insert_brain_longterm_memory",
    "insert_brain_shortterm_memory",
    "upsert_brain",
    "fetch_brain_memories",
    "rate_brain_memories",
    "select_brain",
    "update_brain_memories",
    "remember",
    "search_memory",
    "recall",
    "recall_context",
    "ledger",
    "delete_brain_memories",
]


def test_every_function_has_a_sample_event(template: dict[str, Any]) -> None:
    names = {event_name(function_props(template, name)) for name in functions(template)}
    assert names == {path.stem for path in (ROOT / "events").glob("*.json")}


def test_every_tool_function_answers_its_sample_event_cold_and_warm(
    template: dict[str, Any], deployed: dict[str, Handler]
) -> None:
    by_event = {event_name(function_props(template, n)): n for n in functions(template)}
    assert set(TOOL_ORDER) <= set(by_event)
    answers: dict[str, list[dict[str, Any]]] = {}
    for tool in TOOL_ORDER:
        handler = deployed[by_event[tool]]
        answers[tool] = [handler(event(tool), FakeLambdaContext()) for _ in range(2)]
    # Then every call answered with the contract envelope
    for tool, pair in answers.items():
        for answer in pair:
            assert set(answer) >= {"erfolg", "daten", "referenzfelder"}, tool
    # And the writes and reads did what the sample events ask for; a write event sent
    # twice is one write, answered twice alike (retry-safe writes)
    for tool in ("insert_brain_longterm_memory", "rate_brain_memories", "upsert_brain", "ledger"):
        assert answers[tool][0] == answers[tool][1], tool
    assert answers["insert_brain_longterm_memory"][0]["daten"][0]["ID"] == "longterm_1"
    assert answers["upsert_brain"][0]["daten"][0]["erfolg"] is True
    fetched = answers["fetch_brain_memories"][0]["daten"]
    assert [m["ID"] for m in fetched["longterm"]] == ["longterm_1"]
    assert answers["rate_brain_memories"][1]["daten"][0]["score_count"] == 1
    assert answers["select_brain"][0]["daten"]["anzahl"] == 1  # upserted once
    assert answers["update_brain_memories"][0]["erfolg"] is True
    assert answers["remember"][0]["erfolg"] is True
    assert answers["search_memory"][0]["daten"]["treffer"]
    booked = answers["ledger"][0]["daten"][0]
    assert (booked["ID"], booked["wirkung"], booked["erfolg"]) == (1, "-49.90", True)
    assert answers["delete_brain_memories"][0]["daten"]["geloescht"] == ["longterm_1"]
    assert answers["delete_brain_memories"][1] == answers["delete_brain_memories"][0]


def test_router_answers_its_sample_event_through_the_tool_lambdas(
    template: dict[str, Any], deployed: dict[str, Handler], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the router as deployed, with lambda:Invoke replaced by a local invoker that
    # JSON-round-trips into the tool handlers the template defines
    # (which exist only as published versions behind their alias)
    alias = template["Globals"]["Function"]["AutoPublishAlias"]
    by_alias = {alias_arn(name, alias): handler for name, handler in deployed.items()}
    invoker = LocalInvoker(by_alias, FakeLambdaContext())
    monkeypatch.setattr(router_module, "BotoInvoker", lambda client_factory: invoker)
    router = deployed["McpRouterFunction"]
    # When its sample event (a tools/call of insert) arrives twice
    answers = [router(event("mcp_router"), FakeLambdaContext()) for _ in range(2)]
    # Then both are answered by the insert function's alias (never $LATEST), the resend
    # with the first answer
    ids = [json.loads(a["body"])["result"]["structuredContent"]["daten"][0]["ID"] for a in answers]
    assert [a["statusCode"] for a in answers] == [200, 200]
    assert ids == ["longterm_1", "longterm_1"]
    assert invoker.calls == [alias_arn("InsertBrainLongtermMemoryFunction", alias)] * 2


def test_expiry_function_answers_its_scheduled_event(deployed: dict[str, Handler]) -> None:
    handler = deployed["ExpiryFunction"]
    assert handler(event("expiry"), FakeLambdaContext()) == {"geloescht": 0}
    assert handler(event("expiry"), FakeLambdaContext()) == {"geloescht": 0}


def test_consolidate_function_answers_its_scheduled_event(deployed: dict[str, Handler]) -> None:
    handler = deployed["ConsolidateFunction"]
    # The schedule's input names the tenants; an empty store has nothing to merge
    answer = handler(event("consolidate"), FakeLambdaContext())
    summary = {
        "trockenlauf": False,
        "cluster": [],
        "entfernt": 0,
        "bewertungen_uebernommen": 0,
        "vollstaendig": True,
        "nicht_erreicht": [],
    }
    assert answer == {"trockenlauf": False, "mandanten": {"tenant-a": summary}}
    # And without tenants (the parameter's default) it does nothing
    assert handler({"tenants": ""}, FakeLambdaContext()) == {"trockenlauf": False, "mandanten": {}}


class EndingLambdaContext(FakeLambdaContext):
    """A context whose function has less than the consolidation's margin left."""

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


def test_consolidate_function_out_of_time_starts_no_area_and_says_so(
    template: dict[str, Any], deployed: dict[str, Handler]
) -> None:
    by_event = {event_name(function_props(template, n)): n for n in functions(template)}
    # Given a tenant with one memory (the sample insert's), and under a minute left
    insert = deployed[by_event["insert_brain_longterm_memory"]]
    assert insert(event("insert_brain_longterm_memory"), FakeLambdaContext())["erfolg"] is True
    # When the schedule fires for that tenant
    answer = deployed["ConsolidateFunction"]({"tenants": "acme"}, EndingLambdaContext())
    # Then the run stops before its first area and names what it left for the next run
    summary = answer["mandanten"]["acme"]
    assert summary["vollstaendig"] is False and summary["entfernt"] == 0
    assert summary["nicht_erreicht"] == ["longterm:users/anna"]


def rest_event(method: str, path: str, query: str = "", body: Any = None) -> dict[str, Any]:
    """The REST sample event, re-aimed at another route (same authorizer claims)."""
    sample = event("memory_api")
    route = path if not path.startswith("/api/memory/") else "/api/memory/{memory_id}"
    sample.update(
        routeKey=f"{method} {route}",
        rawPath=path,
        rawQueryString=query,
        body=None if body is None else json.dumps(body),
    )
    sample["requestContext"].update(routeKey=f"{method} {route}")
    sample["requestContext"]["http"].update(method=method, path=path)
    return sample


def test_rest_function_serves_the_memory_api_from_its_sample_event(
    deployed: dict[str, Handler],
) -> None:
    handler = deployed["MemoryApiFunction"]
    # When the sample event (POST /api/memory into the caller's team) arrives cold and warm
    created = [handler(event("memory_api"), FakeLambdaContext()) for _ in range(2)]
    # Then one memory is created in the team area, with provenance: the second is a retry
    assert [a["statusCode"] for a in created] == [201, 201], created
    bodies = [json.loads(a["body"]) for a in created]
    assert [b["ID"] for b in bodies] == ["longterm_1", "longterm_1"]
    assert {(b["bereich"], b["quelle"]["system"]) for b in bodies} == {("teams/vertrieb", "crm")}
    # And another memory into the same team
    other = json.loads(event("memory_api")["body"]) | {"memory": "Zweite Notiz zum Kunden."}
    second_created = handler(rest_event("POST", "/api/memory", body=other), FakeLambdaContext())
    assert json.loads(second_created["body"])["ID"] == "longterm_2"
    # When they are listed page by page (one per page)
    first = handler(rest_event("GET", "/api/memory", "limit=1&team=vertrieb"), FakeLambdaContext())
    page = json.loads(first["body"])
    assert [m["ID"] for m in page["eintraege"]] == ["longterm_2"]
    cursor = page["naechster_cursor"]
    second = handler(
        rest_event("GET", "/api/memory", f"limit=1&team=vertrieb&cursor={cursor}"),
        FakeLambdaContext(),
    )
    assert [m["ID"] for m in json.loads(second["body"])["eintraege"]] == ["longterm_1"]
    # When one is changed, read and deleted
    patched = handler(
        rest_event("PATCH", "/api/memory/longterm_1", body={"tags": ["erledigt"]}),
        FakeLambdaContext(),
    )
    assert json.loads(patched["body"])["tags"] == ["erledigt"]
    deleted = handler(rest_event("DELETE", "/api/memory/longterm_1"), FakeLambdaContext())
    assert deleted["statusCode"] == 200
    gone = handler(rest_event("GET", "/api/memory/longterm_1"), FakeLambdaContext())
    assert gone["statusCode"] == 404
    assert gone["headers"]["content-type"] == "application/problem+json"
    # And the documentation page and its document are served by the same function
    page_answer = handler(rest_event("GET", "/docs/api/memory"), FakeLambdaContext())
    assert page_answer["statusCode"] == 200 and "swagger-ui" in page_answer["body"]
    spec = handler(rest_event("GET", "/api/memory/openapi.json"), FakeLambdaContext())
    assert json.loads(spec["body"])["openapi"] == "3.1.0"


def test_rest_function_serves_the_ledger_and_project_members(
    deployed: dict[str, Handler],
) -> None:
    handler = deployed["MemoryApiFunction"]
    booking = {
        "art": "ausgabe",
        "betrag": "19.99",
        "waehrung": "EUR",
        "datum": "2026-11-30",
        "gegenpartei": "Bahn",
        "kategorie": "reise",
        "path": "projects/kasse/reisen",
        "create_project": True,
    }
    book = rest_event("POST", "/api/ledger/buchungen", body={"eintraege": [booking]})
    # When the sample caller (anna) books into a new project, twice (a retry)
    booked = [handler(book, FakeLambdaContext()) for _ in range(2)]
    # Then one entry is booked and the retry gets the first answer
    assert [b["statusCode"] for b in booked] == [201, 201], booked[0]
    assert booked[0]["body"] == booked[1]["body"]
    assert json.loads(booked[0]["body"])["ergebnisse"][0]["wirkung"] == "-19.99"
    # When anna, the project's owner, adds bob and lists the members
    members = "/api/projects/kasse/mitglieder"
    added = handler(rest_event("POST", members, body={"mitglieder": ["bob"]}), FakeLambdaContext())
    listed = handler(rest_event("GET", members), FakeLambdaContext())
    assert added["statusCode"] == 200, added
    assert json.loads(listed["body"])["mitglieder"] == ["anna", "bob"]
    # And the query answers the exact sum from the running totals
    queried = handler(rest_event("GET", "/api/ledger", "path=projects/kasse"), FakeLambdaContext())
    daten = json.loads(queried["body"])
    assert (daten["summen"][0]["saldo"], daten["summen_quelle"]) == ("-19.99", "laufende_summen")
    # And each resource's page and document are served by the same function
    for resource in ("ledger", "projects"):
        page = handler(rest_event("GET", f"/docs/api/{resource}"), FakeLambdaContext())
        assert page["statusCode"] == 200 and "swagger-ui" in page["body"]
        spec = handler(rest_event("GET", f"/api/{resource}/openapi.json"), FakeLambdaContext())
        assert json.loads(spec["body"])["openapi"] == "3.1.0"


def test_rest_function_under_a_named_stage_publishes_its_stage_path(
    deployed: dict[str, Handler], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the REST function behind a named stage (the template sets BRAIN_API_BASE_PATH)
    monkeypatch.setenv("BRAIN_API_BASE_PATH", "/prod")
    container_module.reset()
    rest_module.reset()
    handler = deployed["MemoryApiFunction"]
    staged = rest_event("GET", "/prod/api/memory/openapi.json")
    created_event = rest_event(
        "POST", "/prod/api/memory", body={"kurzbeschreibung": "a", "memory": "b"}
    )
    # When the document is fetched and a memory created through the stage path
    spec = json.loads(handler(staged, FakeLambdaContext())["body"])
    created = handler(created_event, FakeLambdaContext())
    # Then the document names the stage as its server (Try it out calls go there) and the
    # Location of the new memory includes it
    assert spec["servers"] == [{"url": "/prod"}]
    assert created["statusCode"] == 201, created
    assert created["headers"]["location"] == "/prod/api/memory/longterm_1"


def test_rest_function_serves_the_console_at_the_root_of_its_stage(
    deployed: dict[str, Handler], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the REST function behind a named stage, with the template's session secret
    monkeypatch.setenv("BRAIN_API_BASE_PATH", "/prod")
    container_module.reset()
    rest_module.reset()
    handler = deployed["MemoryApiFunction"]
    # When a browser opens the stage's root, and then the console's sign-in page
    root = handler(rest_event("GET", "/prod/"), FakeLambdaContext())
    page = handler(rest_event("GET", "/prod/console/anmelden"), FakeLambdaContext())
    # Then the root leads to the console under the stage path
    assert (root["statusCode"], root["headers"]["location"]) == (303, "/prod/console/")
    # And the sign-in page is served with its own assets under the stage, a sealed session
    # cookie (Secure: API Gateway speaks HTTPS) and the console's CSP
    assert page["statusCode"] == 200, page
    assert 'href="/prod/console/static/console.css"' in page["body"]
    # The function has the OAuth signing secret: the Brain account is offered (the token
    # exchange goes to the OAuth function behind the same API, tests/e2e/test_console_oauth.py)
    assert 'id="konto-anmelden" href="/prod/console/anmelden/konto' in page["body"]
    cookie = " ".join(page.get("cookies", [])) or page["headers"].get("set-cookie", "")
    assert "brain_console=" in cookie and "HttpOnly" in cookie and "Path=/prod/console/" in cookie
    assert "Secure" in cookie
    assert "script-src 'self'" in page["headers"]["content-security-policy"]
    script = handler(rest_event("GET", "/prod/console/static/htmx.min.js"), FakeLambdaContext())
    assert script["statusCode"] == 200
