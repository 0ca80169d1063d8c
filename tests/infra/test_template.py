"""template.yaml (AWS SAM): the deployment matches the code it deploys.

Offline and fast: the template is read with PyYAML (CloudFormation short tags become their
long forms); cfn-lint and `sam validate --lint` run in scripts/check_template.sh.
"""

from __future__ import annotations

import copy
import json
import re
import sys
import tomllib
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any, cast

import pytest
import yaml

from shared.auth.oauth.dynamo_state import OAUTH_TABLE_PROPERTIES
from shared.auth.oauth.routes import oauth_routes
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

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"
REQUIREMENTS = ROOT / "layers" / "dependencies" / "requirements.txt"

ROUTER = "McpRouterFunction"
REST = "MemoryApiFunction"
OAUTH = "OAuthFunction"
SECRET_STATEMENT = {
    "Sid": "ReadOAuthSigningKey",
    "Effect": "Allow",
    "Action": "secretsmanager:GetSecretValue",
    "Resource": {"Ref": "OAuthSigningSecret"},
}
EXPIRY = "ExpiryFunction"
CONSOLIDATE = "ConsolidateFunction"
API = "BrainHttpApi"
METADATA_PATHS = {
    "/.well-known/oauth-protected-resource",
    "/.well-known/oauth-protected-resource/mcp",
}
# The REST function's public routes: per resource its documentation page and OpenAPI document,
# and the pages' assets.
DOCS_PATHS = {
    "/docs",  # the index of the pages below
    "/docs/api/assets/{name}",
    *(f"/docs/api/{page}" for _, page, _ in RESOURCES),
    *(resource.openapi_path for resource, _, _ in RESOURCES),
}
# The console's public routes on the REST function: it signs people in itself (issue 24).
CONSOLE_ROUTES = {"GET /", "GET /console", "GET /console/{proxy+}", "POST /console/{proxy+}"}
WRITE_POLICIES = re.compile(r"Crud|Write|FullAccess|Invoke", re.IGNORECASE)
# Shipped to Lambda only, not needed by the tests (zoneinfo data for runtimes without it).
LAMBDA_ONLY = {"tzdata"}
# Needed only by the local server, not in Lambda.
# The local server only: uvicorn, and the built-in login's password hashing (on AWS the
# OAuth function signs users in through the OIDC provider).
LOCAL_ONLY = {"uvicorn", "argon2-cffi"}
# Part of Lambda's Python runtime: the SnapStart hook registry must be the runtime's own.
RUNTIME_PROVIDED = {"snapshot-restore-py"}
# The layer ships the code of these without the meta package's extras (CLI, OpenAPI, ...).
LAYER_DISTRIBUTION = {"fastmcp": "fastmcp-slim"}


# --- Reading CloudFormation YAML ---------------------------------------------------------


class CfnLoader(yaml.SafeLoader):
    """SafeLoader that turns `!Ref x` into {"Ref": x}, `!Sub s` into {"Fn::Sub": s}, ...
    and refuses duplicate keys (which PyYAML would silently overwrite)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _construct_short_tag(loader: CfnLoader, suffix: str, node: yaml.Node) -> dict[str, Any]:
    value: Any
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        assert isinstance(node, yaml.MappingNode)
        value = loader.construct_mapping(node, deep=True)
    if suffix in ("Ref", "Condition"):
        return {suffix: value}
    if suffix == "GetAtt" and isinstance(value, str):
        value = value.split(".", 1)
    return {f"Fn::{suffix}": value}


CfnLoader.add_multi_constructor("!", _construct_short_tag)


def load_template(path: Path = TEMPLATE) -> dict[str, Any]:
    loaded = yaml.load(path.read_text(encoding="utf-8"), Loader=CfnLoader)
    assert isinstance(loaded, dict)
    return loaded


def camel(tool: str) -> str:
    return "".join(part.capitalize() for part in tool.split("_"))


def functions(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        name: resource
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
    }


def function_props(template: dict[str, Any], name: str) -> dict[str, Any]:
    """A function's properties with Globals.Function applied (maps merged, as SAM does)."""
    merged = copy.deepcopy(template.get("Globals", {}).get("Function", {}))
    for key, value in template["Resources"][name].get("Properties", {}).items():
        if key == "Environment":
            variables = merged.setdefault("Environment", {}).setdefault("Variables", {})
            variables.update(value.get("Variables", {}))
        else:
            merged[key] = value
    return merged


def http_routes(template: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(function, "METHOD /path", event properties) for every HttpApi event."""
    for name, resource in functions(template).items():
        for event in resource["Properties"].get("Events", {}).values():
            if event["Type"] == "HttpApi":
                props = event["Properties"]
                yield name, f"{props['Method'].upper()} {props['Path']}", props


def policies(resource: dict[str, Any]) -> list[tuple[str, Any]]:
    result = []
    for policy in resource["Properties"].get("Policies", []):
        if isinstance(policy, str):
            result.append((policy, None))
        else:
            ((name, args),) = policy.items()
            result.append((name, args))
    return result


def substituted_json(sub: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """A `!Sub` JSON string: the object, and each key's ${LogicalId} placeholder."""
    assert isinstance(sub, dict) and set(sub) == {"Fn::Sub"}, sub
    text = sub["Fn::Sub"]
    assert isinstance(text, str), "BRAIN_TOOL_FUNCTIONS must be a plain !Sub string"
    decoded = json.loads(re.sub(r"\$\{([A-Za-z0-9]+)\}", r"<\1>", text))
    refs = {key: re.fullmatch(r"<([A-Za-z0-9]+)>", value) for key, value in decoded.items()}
    return decoded, {key: match.group(1) for key, match in refs.items() if match}


def yaml_of(value: Any) -> str:
    return yaml.safe_dump(value, sort_keys=False, default_flow_style=False)


def recipe_lines(makefile: Path) -> list[str]:
    """The commands of a Makefile (continuations joined, whitespace collapsed)."""
    text = makefile.read_text(encoding="utf-8").replace("\\\n", " ")
    return [" ".join(line.split()) for line in text.splitlines() if line.startswith("\t")]


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(spec: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec)
    assert match, spec
    return norm(match.group(1))


def pinned_requirements() -> dict[str, str]:
    pins = {}
    for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]+\])?==([^\s;]+)", line)
        assert match, f"requirements.txt: {line!r} is not pinned with =="
        pins[norm(match.group(1))] = match.group(3)
    return pins


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


# --- Storage --------------------------------------------------------------------------------


def if_kms_key(value: Any) -> dict[str, Any]:
    """`!If [HasKmsKey, value, !Ref AWS::NoValue]`: the template's optional-key overlay."""
    return {"Fn::If": ["HasKmsKey", value, {"Ref": "AWS::NoValue"}]}


def without_kms_key(properties: dict[str, Any]) -> dict[str, Any]:
    """The properties without the customer-managed-key overlay the template adds to
    TABLE_PROPERTIES / VECTOR_BUCKET_PROPERTIES (exactly that overlay, nothing else, is
    removed)."""
    result = copy.deepcopy(properties)
    sse = result.get("SSESpecification", {})
    if sse.get("KMSMasterKeyId") == if_kms_key({"Ref": "KmsKeyArn"}):
        assert sse.pop("SSEType") == if_kms_key("KMS")
        del sse["KMSMasterKeyId"]
    encryption = result.get("EncryptionConfiguration", {})
    if encryption.get("KmsKeyArn") == if_kms_key({"Ref": "KmsKeyArn"}):
        del encryption["KmsKeyArn"]
    return result


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


# --- MCP router and routes ---------------------------------------------------------------------


def alias_of(function: str, template: dict[str, Any]) -> str:
    """The logical ID of the alias SAM generates for a function's AutoPublishAlias."""
    return f"{function}Alias{template['Globals']['Function']['AutoPublishAlias']}"


def test_every_function_publishes_snapstart_versions_behind_an_alias(
    template: dict[str, Any],
) -> None:
    for name in functions(template):
        # Given a function with the globals applied
        props = function_props(template, name)
        # Then every deploy publishes a version behind the alias, with SnapStart on it
        assert props["AutoPublishAlias"] == "live", name
        assert props["SnapStart"] == {"ApplyOn": "PublishedVersions"}, name
    # And the restore hooks exist for what must not be shared between environments
    assert (ROOT / "shared" / "lambda_runtime" / "snapstart.py").is_file()


def test_router_may_only_invoke_the_tool_aliases(template: dict[str, Any]) -> None:
    # Given the router's policies
    granted = policies(template["Resources"][ROUTER])
    # Then there are two inline statements: reading the OAuth signing key, and
    # lambda:InvokeFunction
    assert [name for name, _ in granted] == ["Statement", "Statement"]
    assert granted[0] == ("Statement", [SECRET_STATEMENT])
    (_, statements) = granted[1]
    (statement,) = statements
    assert statement["Effect"] == "Allow"
    assert statement["Action"] == "lambda:InvokeFunction"
    # And only on the qualified ARNs of the tool functions' aliases, not on $LATEST or *
    invoked = sorted(resource["Ref"] for resource in statement["Resource"])
    assert invoked == sorted(alias_of(f"{camel(tool)}Function", template) for tool in TOOLS)


def test_router_knows_the_function_of_every_tool(template: dict[str, Any]) -> None:
    # Given the router's BRAIN_TOOL_FUNCTIONS (a !Sub JSON object)
    env = function_props(template, ROUTER)["Environment"]["Variables"]
    decoded, refs = substituted_json(env["BRAIN_TOOL_FUNCTIONS"])
    # Then it maps every tool, and only tools, to the ARN of that tool's published alias
    assert set(decoded) == set(TOOLS)
    assert refs == {tool: alias_of(f"{camel(tool)}Function", template) for tool in TOOLS}
    # And the router runs app.handler from functions/mcp_router/
    props = function_props(template, ROUTER)
    assert (props["CodeUri"], props["Handler"]) == ("functions/mcp_router/", "app.handler")


def test_router_strips_the_stage_path(template: dict[str, Any]) -> None:
    # Given the router's BRAIN_API_BASE_PATH
    env = function_props(template, ROUTER)["Environment"]["Variables"]
    # Then it is / on the $default stage and /<StageName> on a named one
    assert env["BRAIN_API_BASE_PATH"] == {
        "Fn::If": ["IsDefaultStage", "/", {"Fn::Sub": "/${StageName}"}]
    }
    assert template["Conditions"]["IsDefaultStage"] == {
        "Fn::Equals": [{"Ref": "StageName"}, "$default"]
    }
    assert template["Parameters"]["StageName"]["Default"] == "$default"


def test_api_authorizes_with_the_oidc_issuer_by_default(template: dict[str, Any]) -> None:
    # Given the HTTP API
    api = template["Resources"][API]
    assert api["Type"] == "AWS::Serverless::HttpApi"
    auth = api["Properties"]["Auth"]
    # Then its default authorizer is a JWT authorizer on the bearer header, with the issuer
    # and audience parameters
    authorizer = auth["Authorizers"][auth["DefaultAuthorizer"]]
    assert authorizer["IdentitySource"] == "$request.header.Authorization"
    assert authorizer["JwtConfiguration"] == {
        "issuer": {"Ref": "OidcIssuer"},
        "audience": [{"Ref": "OidcAudience"}],
    }
    assert api["Properties"]["StageName"] == {"Ref": "StageName"}


def test_only_tool_routes_use_the_jwt_authorizer_the_rest_verify_in_the_function(
    template: dict[str, Any],
) -> None:
    # Given every HttpApi route and the API's default authorizer
    default = template["Resources"][API]["Properties"]["Auth"]["DefaultAuthorizer"]
    oauth_paths = {route.path for route in oauth_routes(cast(Any, None))}
    seen = set()
    for function, route, props in http_routes(template):
        method, path = route.split(" ", 1)
        seen.add(route)
        # Then every route is on our API (an event without ApiId would land on an implicit
        # API without the authorizer)
        assert props.get("ApiId") == {"Ref": API}, route
        authorizer = props.get("Auth", {}).get("Authorizer", default)
        if path in METADATA_PATHS:
            # And the RFC 9728 metadata is a public GET on the router
            assert (method, function, authorizer) == ("GET", ROUTER, "NONE"), route
        elif path in DOCS_PATHS:
            # And the API documentation is a public GET on the REST function
            assert (method, function, authorizer) == ("GET", REST, "NONE"), route
        elif route in CONSOLE_ROUTES:
            # And the console, which signs people in itself, is public on the REST function
            assert (function, authorizer) == (REST, "NONE"), route
        elif path.startswith("/v1/tools/"):
            # And the plain tool routes keep the JWT authorizer (OIDC tokens)
            assert authorizer == default, route
        elif path in oauth_paths:
            # And the authorization server's routes are public, on its own function
            assert (function, authorizer) == (OAUTH, "NONE"), route
        else:
            # And the MCP endpoint and the REST API verify tokens in their function
            assert function in (ROUTER, REST) and authorizer == "NONE", route
    # And the MCP endpoint and both metadata URLs exist, and every OAuth route
    assert {"POST /mcp"} | {f"GET {path}" for path in METADATA_PATHS} <= seen
    assert oauth_paths == {
        route.split(" ", 1)[1] for f, route, _ in http_routes(template) if f == OAUTH
    }
    mcp_routes = [(f, r) for f, r, _ in http_routes(template) if r.endswith(" /mcp")]
    assert {f for f, _ in mcp_routes} == {ROUTER}


def test_oauth_function_owns_its_state_table_and_the_signing_key(
    template: dict[str, Any],
) -> None:
    resources = template["Resources"]
    # Given the OAuth state table: exactly OAUTH_TABLE_PROPERTIES, kept on deletion
    table = resources["OAuthStateTable"]
    assert without_kms_key(table["Properties"]) == OAUTH_TABLE_PROPERTIES, yaml_of(
        OAUTH_TABLE_PROPERTIES
    )
    assert table["DeletionPolicy"] == table["UpdateReplacePolicy"] == "Retain"
    # And the signing key: a generated secret, read by the OAuth, router and REST functions
    secret = resources["OAuthSigningSecret"]
    assert secret["Type"] == "AWS::SecretsManager::Secret"
    assert secret["Properties"]["GenerateSecretString"]["PasswordLength"] >= 32
    readers = {
        name
        for name in functions(template)
        if ("Statement", [SECRET_STATEMENT]) in policies(resources[name])
    }
    assert readers == {OAUTH, ROUTER, REST}
    # And the OAuth function signs users in through the OIDC issuer's app client
    props = function_props(template, OAUTH)
    env = props["Environment"]["Variables"]
    assert env["BRAIN_OAUTH_TABLE_NAME"] == {"Ref": "OAuthStateTable"}
    assert env["BRAIN_OAUTH_UPSTREAM_ISSUER"] == {"Ref": "OidcIssuer"}
    assert env["BRAIN_OAUTH_UPSTREAM_CLIENT_ID"] == {"Ref": "OidcAudience"}
    (table_grant,) = [s for name, s in policies(resources[OAUTH]) if s != [SECRET_STATEMENT]]
    assert {s["Resource"]["Fn::GetAtt"][0] for s in table_grant} == {"OAuthStateTable"}


# --- Layers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("layer", ["DependenciesLayer", "CoreLayer"])
def test_layers_build_with_make_and_precompile_unchecked_pyc(
    template: dict[str, Any], layer: str
) -> None:
    # Given a layer of the template
    resource = template["Resources"][layer]
    props, meta = resource["Properties"], resource.get("Metadata", {})
    assert resource["Type"] == "AWS::Serverless::LayerVersion"
    assert props["CompatibleRuntimes"] == [template["Globals"]["Function"]["Runtime"]]
    assert props["CompatibleArchitectures"] == template["Globals"]["Function"]["Architectures"]
    # When its Makefile is read (ContextPath, else ContentUri)
    assert meta.get("BuildMethod") == "makefile"
    makefile = ROOT / meta.get("ContextPath", props["ContentUri"]) / "Makefile"
    text = makefile.read_text(encoding="utf-8")
    # Then it has the target sam build calls, fills $(ARTIFACTS_DIR)/python and compiles
    # every module to unchecked-hash .pyc with the runtime's CPython
    assert re.search(rf"^build-{layer}:", text, re.MULTILINE), makefile
    assert re.search(r"^LAYER := \$\(ARTIFACTS_DIR\)/python$", text, re.MULTILINE), makefile
    compile_lines = [line for line in recipe_lines(makefile) if "-m compileall" in line]
    assert compile_lines, makefile
    assert all("--invalidation-mode unchecked-hash" in line for line in compile_lines)
    assert all(line.endswith('"$(LAYER)"') for line in compile_lines), compile_lines
    runtime = template["Globals"]["Function"]["Runtime"]
    assert re.search(rf"^PYTHON \?= {re.escape(runtime)}$", text, re.MULTILINE), makefile


def test_dependencies_are_installed_for_the_lambda_platform() -> None:
    # Given the dependencies layer's Makefile
    commands = recipe_lines(ROOT / "layers" / "dependencies" / "Makefile")
    # Then pip installs binary wheels for CPython 3.13 on arm64 Linux from requirements.txt
    (install,) = [command for command in commands if "-m pip install" in command]
    for flag in (
        "--platform manylinux2014_aarch64",
        "--implementation cp",
        "--python-version 3.13",
        "--only-binary=:all:",
        "--no-compile",
        "--requirement requirements.txt",
    ):
        assert f" {flag}" in install, flag


def test_core_layer_ships_the_shared_package(template: dict[str, Any]) -> None:
    # Given the core layer
    props = template["Resources"]["CoreLayer"]["Properties"]
    # Then its content is the shared package itself (so `sam build --cached` sees changes)
    assert (ROOT / props["ContentUri"]).resolve() == (ROOT / "shared").resolve()
    commands = recipe_lines(ROOT / "layers" / "core" / "Makefile")
    # And it lands as python/shared, without the developer's __pycache__
    assert 'cp -R . "$(LAYER)/shared/"' in commands
    assert [c for c in commands if "-name __pycache__" in c and c.endswith("-exec rm -rf {} +")]


def test_requirements_pin_what_the_tests_run_against() -> None:
    # Given the pins of the dependencies layer and the project's runtime dependencies
    pins = pinned_requirements()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = list(project["dependencies"])
    runtime += project.get("optional-dependencies", {}).get("lambda", [])
    # Then every runtime dependency (but the local server's) ships to Lambda
    needed = {requirement_name(spec) for spec in runtime} - LOCAL_ONLY - RUNTIME_PROVIDED
    shipped = {LAYER_DISTRIBUTION.get(name, name) for name in needed}
    assert shipped <= set(pins), sorted(shipped - set(pins))
    # And a slim distribution ships the same version the tests run
    for name, slim in LAYER_DISTRIBUTION.items():
        assert metadata.version(name) == pins[slim], (name, slim)
    # And what Lambda's runtime provides is not packaged (a second snapshot_restore_py would
    # hold a hook registry the runtime never reads)
    assert not RUNTIME_PROVIDED & set(pins)
    # And each pin is the version installed where the tests run
    for name, version in pins.items():
        if name in LAMBDA_ONLY:
            continue
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = "not installed"
        assert installed == version, f"{name}: requirements.txt {version}, tests {installed}"


# --- Parameters, outputs, samconfig ---------------------------------------------------------


def test_parameters_are_described_and_used(template: dict[str, Any]) -> None:
    text = json.dumps({k: v for k, v in template.items() if k != "Parameters"})
    for name, param in template["Parameters"].items():
        # Given a parameter: Then it says what it means
        assert len(param.get("Description", "")) >= 20, name
        # And something uses it
        assert f'{{"Ref": "{name}"}}' in text or f"${{{name}}}" in text, name
    assert template["Parameters"]["LogRetentionDays"]["Default"] == 30
    assert template["Parameters"]["ShortTermTtlSeconds"]["Default"] == 604800
    assert template["Parameters"]["ScrubPolicy"]["AllowedValues"] == ["redact", "reject"]


def test_outputs_give_the_mcp_and_metadata_urls(template: dict[str, Any]) -> None:
    outputs = template["Outputs"]
    base = "https://${BrainHttpApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}"
    # Given each URL output: Then it is the root path on $default and /<stage>/... otherwise
    for name, path in (
        ("McpUrl", "/mcp"),
        ("MetadataUrl", "/.well-known/oauth-protected-resource/mcp"),
        ("ToolsBaseUrl", "/v1/tools"),
        ("MemoryApiDocsUrl", "/docs/api/memory"),
    ):
        assert outputs[name]["Value"] == {
            "Fn::If": [
                "IsDefaultStage",
                {"Fn::Sub": base + path},
                {"Fn::Sub": base + "/${StageName}" + path},
            ]
        }, name
    assert outputs["TableName"]["Value"] == {"Ref": "BrainTable"}
    assert outputs["BucketName"]["Value"] == {"Ref": "VectorBucket"}


def test_samconfig_builds_without_containers_and_deploys_with_a_changeset() -> None:
    config = tomllib.loads((ROOT / "samconfig.toml").read_text(encoding="utf-8"))["default"]
    build = config["build"]["parameters"]
    deploy = config["deploy"]["parameters"]
    assert (build["use_container"], build["cached"], build["parallel"]) == (False, True, True)
    assert deploy["capabilities"] == "CAPABILITY_IAM"
    assert (deploy["confirm_changeset"], deploy["resolve_s3"]) == (True, True)


def test_loader_understands_short_tags_and_refuses_duplicates() -> None:
    # Given YAML with CloudFormation short tags
    text = "a: !Ref X\nb: !GetAtt T.Arn\nc: !If [C, !Sub '${X}', !Ref AWS::NoValue]\n"
    # Then they load as their long forms
    assert yaml.load(text, Loader=CfnLoader) == {
        "a": {"Ref": "X"},
        "b": {"Fn::GetAtt": ["T", "Arn"]},
        "c": {"Fn::If": ["C", {"Fn::Sub": "${X}"}, {"Ref": "AWS::NoValue"}]},
    }
    # And a duplicate key is an error
    with pytest.raises(yaml.constructor.ConstructorError):
        yaml.load("a: 1\na: 2\n", Loader=CfnLoader)
