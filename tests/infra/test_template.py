"""template.yaml (AWS SAM): the deployment matches the code it deploys — storage, tool
functions, grants, schedules, runtime and environment.

Offline and fast: the template is read with PyYAML (CloudFormation short tags become their
long forms, tests/infra/cfn.py); cfn-lint and `sam validate --lint` run in
scripts/check_template.sh.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from typing import Any

from shared.config import Settings
from shared.embedding.bedrock import COHERE_MULTILINGUAL, TITAN_V2
from shared.embedding.port import EmbeddingProfile
from shared.rest.app import RESOURCES
from shared.storage.dynamo.embeddings import index_name
from shared.storage.dynamo.schema import (
    TABLE_PROPERTIES,
    VECTOR_BUCKET_PROPERTIES,
)
from shared.tools.catalog import TOOLS
from tests.infra.cfn import (
    API,
    CONSOLE_ROUTES,
    CONSOLIDATE,
    DOCS_PATHS,
    EXPIRY,
    REST,
    ROOT,
    ROUTER,
    SECRET_STATEMENT,
    WRITE_POLICIES,
    camel,
    function_props,
    functions,
    http_routes,
    policies,
    without_kms_key,
    yaml_of,
)

# --- Storage --------------------------------------------------------------------------------


def test_table_properties_are_exactly_the_schema(template: dict[str, Any]) -> None:
    # Given the single source of truth in shared/storage/dynamo/schema.py
    # When the template's table is read
    table = template["Resources"]["BrainTable"]
    # Then it is a DynamoDB table with exactly TABLE_PROPERTIES (no TableName either)
    assert table["Type"] == "AWS::DynamoDB::Table"
    assert without_kms_key(table["Properties"]) == TABLE_PROPERTIES, (
        "template.yaml BrainTable.Properties differ from TABLE_PROPERTIES; paste:\n"
        + yaml_of(TABLE_PROPERTIES)
    )


def test_call_records_live_in_our_table(template: dict[str, Any]) -> None:
    # The retry layer's records are items of the one table (storage/dynamo/reservations.py):
    # no table of their own (beside the OAuth server's state), nothing in the environment
    # that names one
    tables = [n for n, r in template["Resources"].items() if r["Type"] == "AWS::DynamoDB::Table"]
    assert sorted(tables) == ["BrainTable", "OAuthStateTable"]
    env = template["Globals"]["Function"]["Environment"]["Variables"]
    assert not [name for name in env if "IDEMPOTENCY" in name]


def test_vector_bucket_properties_are_exactly_the_schema(template: dict[str, Any]) -> None:
    # Given VECTOR_BUCKET_PROPERTIES
    # When the template's vector bucket is read
    bucket = template["Resources"]["VectorBucket"]
    # Then it is an S3 Vectors bucket with exactly those properties (no name)
    assert bucket["Type"] == "AWS::S3Vectors::VectorBucket"
    assert without_kms_key(bucket["Properties"]) == VECTOR_BUCKET_PROPERTIES, (
        "template.yaml VectorBucket.Properties differ from VECTOR_BUCKET_PROPERTIES; paste:\n"
        + yaml_of(VECTOR_BUCKET_PROPERTIES)
    )


EMBEDDERS = {
    "bedrock-titan-1024": ("bedrock-titan", EmbeddingProfile(TITAN_V2, 1024)),
    "bedrock-titan-512": ("bedrock-titan", EmbeddingProfile(TITAN_V2, 512)),
    "bedrock-titan-256": ("bedrock-titan", EmbeddingProfile(TITAN_V2, 256)),
    "bedrock-cohere": ("bedrock-cohere", EmbeddingProfile(COHERE_MULTILINGUAL, 1024)),
}


def test_the_embedder_index_is_the_one_its_profile_writes_to(template: dict[str, Any]) -> None:
    # Given the Embedder parameter and its mapping
    allowed = template["Parameters"]["Embedder"]["AllowedValues"]
    assert template["Parameters"]["Embedder"]["Default"] == "none"
    mapping = template["Mappings"]["EmbedderProfiles"]
    assert set(allowed) == set(mapping) == {"none", *EMBEDDERS}
    # Then each embedder's index is named as the adapter names its profile's index
    for name, (kind, profile) in EMBEDDERS.items():
        entry = mapping[name]
        assert entry["Kind"] == kind, name
        assert (entry["ModelId"], entry["Dimension"]) == (profile.model, profile.dimension)
        assert entry["IndexName"] == index_name(profile.hash, profile.dimension), name
        Settings(embedder=kind, embedding_dimension=entry["Dimension"])  # valid settings
    # And the index is declared only with an embedder: cosine, float32, in our vector bucket
    index = template["Resources"]["EmbeddingIndex"]
    assert (index["Type"], index["Condition"]) == ("AWS::S3Vectors::Index", "HasEmbedder")
    props = index["Properties"]
    assert (props["DataType"], props["DistanceMetric"]) == ("float32", "cosine")
    assert props["VectorBucketArn"] == {"Ref": "VectorBucket"}


def test_table_and_bucket_survive_stack_deletion_and_replacement(
    template: dict[str, Any],
) -> None:
    # Given the resources that hold the memories
    for name in ("BrainTable", "VectorBucket", "EmbeddingIndex"):
        resource = template["Resources"][name]
        # Then deleting the stack or replacing the resource keeps them
        assert resource.get("DeletionPolicy") == "Retain", name
        assert resource.get("UpdateReplacePolicy") == "Retain", name


def test_every_tool_has_exactly_one_function(template: dict[str, Any]) -> None:
    # Given the tool catalogue
    by_code = {}
    for name, resource in functions(template).items():
        code_uri = resource["Properties"]["CodeUri"]
        assert code_uri not in by_code, f"{code_uri} used by {by_code.get(code_uri)} and {name}"
        by_code[code_uri] = name
    for tool in TOOLS:
        # When the function whose code is functions/<tool>/ is looked up
        name = by_code.get(f"functions/{tool}/")
        # Then it exists, is named after the tool and runs app.handler
        assert name == f"{camel(tool)}Function", (tool, name)
        assert function_props(template, name)["Handler"] == "app.handler", name
    # And there is no other function than the tools, the router, the expiry sweep, the
    # consolidation, the REST API and the OAuth server
    expected = {f"functions/{tool}/" for tool in TOOLS}
    expected |= {"functions/mcp_router/", "functions/expiry/", "functions/memory_api/"}
    expected |= {"functions/oauth/", "functions/consolidate/"}
    assert set(by_code) == expected


def test_every_tool_function_has_its_post_route_behind_the_jwt_authorizer(
    template: dict[str, Any],
) -> None:
    # Given every HttpApi route of the template
    routes: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for function, route, props in http_routes(template):
        routes.setdefault(route, []).append((function, props))
    default = template["Resources"][API]["Properties"]["Auth"]["DefaultAuthorizer"]
    for tool in TOOLS:
        # When the tool's own route is looked up
        targets = routes.get(f"POST /v1/tools/{tool}", [])
        # Then exactly one exists, on the tool's function, on our API, with the JWT authorizer
        assert [function for function, _ in targets] == [f"{camel(tool)}Function"], tool
        (_, props) = targets[0]
        assert props["ApiId"] == {"Ref": API}, tool
        assert props.get("Auth", {}).get("Authorizer", default) == default, tool


def test_rest_function_serves_every_memory_route_verifying_tokens_itself(
    template: dict[str, Any],
) -> None:
    # Given the routes of the REST function
    default = template["Resources"][API]["Properties"]["Auth"]["DefaultAuthorizer"]
    routes = {
        route: props.get("Auth", {}).get("Authorizer", default)
        for function, route, props in http_routes(template)
        if function == REST
    }
    # Then it serves exactly the operations of the resources' OpenAPI documents plus the
    # public documentation routes, all without the JWT authorizer: the function verifies
    # Brain's OAuth tokens and the OIDC provider's itself (lambda_runtime/oauth_keys.py)
    operations = {
        f"{method.upper()} {path}"
        for resource, _, _ in RESOURCES
        for path, item in resource.document()["paths"].items()
        for method in item
    }
    # (and the console, which signs people in itself)
    assert set(routes) == operations | {f"GET {path}" for path in DOCS_PATHS} | CONSOLE_ROUTES
    assert set(routes.values()) == {"NONE"}
    env = function_props(template, REST)["Environment"]["Variables"]
    assert env["BRAIN_OAUTH_SIGNING_SECRET_ARN"] == {"Ref": "OAuthSigningSecret"}
    # And it runs app.handler from functions/memory_api/ with CRUD on our table and bucket
    props = function_props(template, REST)
    assert (props["CodeUri"], props["Handler"]) == ("functions/memory_api/", "app.handler")
    granted = policies(template["Resources"][REST])
    assert sorted(name for name, _ in granted) == ["DynamoDBCrudPolicy", "Statement", "Statement"]
    assert ("Statement", [SECRET_STATEMENT]) in granted
    # And it writes, searches and deletes vectors, embedding with the configured model
    assert vector_grants(template["Resources"][REST]) == (VECTOR_WRITE | VECTOR_READ, True)
    assert (
        props["Environment"]["Variables"]["BRAIN_API_BASE_PATH"]
        == function_props(template, ROUTER)["Environment"]["Variables"]["BRAIN_API_BASE_PATH"]
    )


# S3 Vectors actions per function (least privilege): writers put (and delete what a failed
# write left), searchers query (a metadata filter needs GetVectors too) and list indexes (the
# dimensions of a profile), deleters delete; the rest never touch vectors.
VECTOR_WRITE = {"s3vectors:PutVectors", "s3vectors:DeleteVectors", "s3vectors:CreateIndex"}
VECTOR_READ = {"s3vectors:QueryVectors", "s3vectors:GetVectors", "s3vectors:ListIndexes"}
VECTOR_DELETE = {"s3vectors:DeleteVectors"}
VECTOR_ACTIONS: dict[str, set[str]] = {
    "insert_brain_longterm_memory": VECTOR_WRITE,
    "insert_brain_shortterm_memory": VECTOR_WRITE,
    "update_brain_memories": VECTOR_WRITE,
    "remember": VECTOR_WRITE,
    "delete_brain_memories": VECTOR_DELETE,
    "search_memory": VECTOR_READ,
    "recall": VECTOR_READ,
    "recall_context": VECTOR_READ,
}
# Functions that embed texts server-side when an Embedder is configured.
EMBEDDING_TOOLS = {
    "insert_brain_longterm_memory",
    "insert_brain_shortterm_memory",
    "remember",
    "search_memory",
    "recall",
    "recall_context",
}
VECTOR_RESOURCES = [{"Ref": "VectorBucket"}, {"Fn::Sub": "${VectorBucket}/index/*"}]


def vector_grants(resource: dict[str, Any]) -> tuple[set[str], bool]:
    """The S3 Vectors actions a function may use (on our vector bucket only) and whether it
    may invoke the configured Bedrock embedding model (only when one is configured)."""
    actions: set[str] = set()
    bedrock = False
    for name, statements in policies(resource):
        if name != "Statement":
            continue
        for statement in statements:
            if "Fn::If" in statement:
                condition, granted, otherwise = statement["Fn::If"]
                assert (condition, otherwise) == ("HasEmbedder", {"Ref": "AWS::NoValue"})
                assert granted["Action"] == "bedrock:InvokeModel"
                bedrock = True
            elif statement["Sid"] == "EmbeddingVectors":
                assert statement["Resource"] == VECTOR_RESOURCES
                actions |= set(statement["Action"])
    return actions, bedrock


def test_read_only_tools_can_only_read(template: dict[str, Any]) -> None:
    for tool, spec in TOOLS.items():
        # Given a tool's function and its SAM policy templates
        resource = template["Resources"][f"{camel(tool)}Function"]
        granted = policies(resource)
        names = [name for name, _ in granted]
        if spec.read_only:
            # Then a read-only tool has read policies only
            assert not [n for n in names if WRITE_POLICIES.search(n)], (tool, names)
            assert "DynamoDBReadPolicy" in names, tool
        else:
            # And a writing tool gets CRUD on our table (its call records live there)
            assert "DynamoDBCrudPolicy" in names, tool
        # And exactly its S3 Vectors actions, and Bedrock only if it embeds texts
        assert vector_grants(resource) == (
            VECTOR_ACTIONS.get(tool, set()),
            tool in EMBEDDING_TOOLS,
        ), tool
        # And every policy is scoped to our table or vector bucket
        for name, args in granted:
            if name.startswith("DynamoDB"):
                assert args == {"TableName": {"Ref": "BrainTable"}}, (tool, name)
            else:
                assert name == "Statement", (tool, name)


def test_expiry_sweeps_on_a_schedule_with_crud_access(template: dict[str, Any]) -> None:
    # Given the expiry function
    expiry = template["Resources"][EXPIRY]
    props = function_props(template, EXPIRY)
    # Then it runs app.handler from functions/expiry/ with room for a bounded sweep
    assert (props["CodeUri"], props["Handler"], props["Timeout"]) == (
        "functions/expiry/",
        "app.handler",
        300,
    )
    # And a Schedule event starts it every few minutes
    schedules = [e for e in expiry["Properties"]["Events"].values() if e["Type"] == "Schedule"]
    assert [e["Properties"]["Schedule"] for e in schedules] == ["rate(5 minutes)"]
    assert schedules[0]["Properties"].get("Enabled", True) is True
    # And it may delete from the table and delete vectors, nothing else
    assert sorted(name for name, _ in policies(expiry)) == ["DynamoDBCrudPolicy", "Statement"]
    assert vector_grants(expiry) == (VECTOR_DELETE, False)


def test_consolidation_runs_daily_for_the_named_tenants(template: dict[str, Any]) -> None:
    # Given the consolidation function
    consolidate = template["Resources"][CONSOLIDATE]
    props = function_props(template, CONSOLIDATE)
    # Then it runs app.handler from functions/consolidate/, one run at a time
    assert (props["CodeUri"], props["Handler"], props["Timeout"]) == (
        "functions/consolidate/",
        "app.handler",
        900,
    )
    assert props["ReservedConcurrentExecutions"] == 1
    # And a daily Schedule starts it with the tenants of the parameter as its input
    schedules = [e for e in consolidate["Properties"]["Events"].values() if e["Type"] == "Schedule"]
    assert [e["Properties"]["Schedule"] for e in schedules] == ["rate(1 day)"]
    assert schedules[0]["Properties"]["Input"] == {
        "Fn::Sub": '{"tenants": "${ConsolidationTenants}"}'
    }
    assert template["Parameters"]["ConsolidationTenants"]["Default"] == ""
    # And it may write the table and query, read and delete vectors, nothing else
    assert sorted(name for name, _ in policies(consolidate)) == ["DynamoDBCrudPolicy", "Statement"]
    (statement,) = [v for name, v in policies(consolidate) if name == "Statement"]
    actions = {a for s in statement for a in s["Action"]}
    assert actions == {"s3vectors:QueryVectors", "s3vectors:GetVectors", "s3vectors:DeleteVectors"}


def test_every_function_has_a_log_group_with_the_retention_parameter(
    template: dict[str, Any],
) -> None:
    # Given the log groups of the template
    groups = {
        json.dumps(r["Properties"]["LogGroupName"]): r["Properties"]
        for r in template["Resources"].values()
        if r["Type"] == "AWS::Logs::LogGroup"
    }
    for name in functions(template):
        # When the function's own group /aws/lambda/<function name> is looked up
        group = groups.get(json.dumps({"Fn::Sub": f"/aws/lambda/${{{name}}}"}))
        # Then it exists and keeps logs as long as the parameter says
        assert group is not None, name
        assert group["RetentionInDays"] == {"Ref": "LogRetentionDays"}, name


def test_functions_run_python313_on_arm64_with_both_layers(template: dict[str, Any]) -> None:
    for name in functions(template):
        # Given a function with the globals applied
        props = function_props(template, name)
        # Then it runs the runtime the layers are built for
        assert props["Runtime"] == "python3.13", name
        assert props["Architectures"] == ["arm64"], name
        assert props["Layers"] == [{"Ref": "DependenciesLayer"}, {"Ref": "CoreLayer"}], name
        # And API-facing functions answer within API Gateway's 30 s
        if name not in (EXPIRY, CONSOLIDATE):
            assert props["Timeout"] <= 29, name
    # And the router outlasts the tools it waits for
    tool_timeouts = {function_props(template, f"{camel(t)}Function")["Timeout"] for t in TOOLS}
    assert function_props(template, ROUTER)["Timeout"] > max(tool_timeouts)
    assert function_props(template, ROUTER)["MemorySize"] == 1024


def test_tests_and_tooling_run_the_lambda_runtime_minor(template: dict[str, Any]) -> None:
    # Given the Lambda runtime of every function, e.g. python3.13
    runtime = template["Globals"]["Function"]["Runtime"]
    major, minor = (int(part) for part in runtime.removeprefix("python").split("."))
    # When the test interpreter and the project's tool settings are read
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    # Then the venv (so CI) runs exactly that minor, and ruff and mypy check for it
    assert sys.version_info[:2] == (major, minor)
    assert project["project"]["requires-python"] == f">={major}.{minor}"
    assert project["tool"]["ruff"]["target-version"] == f"py{major}{minor}"
    assert project["tool"]["mypy"]["python_version"] == f"{major}.{minor}"
    # And the Makefile builds the venv with that minor
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(rf"^PYTHON_MINOR := {major}\.{minor}$", makefile, re.MULTILINE)


def test_environment_configures_settings_from_the_parameters(template: dict[str, Any]) -> None:
    # Given the environment every function gets
    env = template["Globals"]["Function"]["Environment"]["Variables"]
    # Then it selects the AWS backend on our table and bucket
    assert env["BRAIN_BACKEND"] == "aws"
    assert env["BRAIN_TABLE_NAME"] == {"Ref": "BrainTable"}
    assert env["BRAIN_BUCKET_NAME"] == {"Ref": "VectorBucket"}
    mapped = {"Fn::FindInMap": ["EmbedderProfiles", {"Ref": "Embedder"}, "Kind"]}
    assert env["BRAIN_EMBEDDER"] == mapped
    # And passes each parameter to its setting
    expected = {
        "BRAIN_OIDC_ISSUER": "OidcIssuer",
        "BRAIN_OIDC_AUDIENCE": "OidcAudience",
        "BRAIN_SHORTTERM_TTL_DEFAULT_S": "ShortTermTtlSeconds",
        "BRAIN_SCRUB_POLICY": "ScrubPolicy",
        "BRAIN_LOG_LEVEL": "LogLevel",
        "POWERTOOLS_LOG_LEVEL": "LogLevel",
        "BRAIN_CLAIM_TENANT": "ClaimTenant",
        "BRAIN_CLAIM_NUTZER": "ClaimNutzer",
        "BRAIN_CLAIM_AGENT": "ClaimAgent",
        "BRAIN_CLAIM_TEAMS": "ClaimTeams",
    }
    assert {key: env.get(key) for key in expected} == {
        key: {"Ref": param} for key, param in expected.items()
    }
    assert env["POWERTOOLS_SERVICE_NAME"] == "brain"
    assert env["FASTMCP_ENABLE_RICH_LOGGING"] == "false"
    # And every BRAIN_ variable of any function names a real setting (no silent typo)
    for name in functions(template):
        variables = function_props(template, name)["Environment"]["Variables"]
        for key in variables:
            if key.startswith("BRAIN_"):
                assert key.removeprefix("BRAIN_").lower() in Settings.model_fields, (name, key)
