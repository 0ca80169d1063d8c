"""template.yaml: the MCP router, its aliases and the HTTP API's routes and authorizers."""

from __future__ import annotations

from typing import Any, cast

from shared.auth.oauth.dynamo_state import OAUTH_TABLE_PROPERTIES
from shared.auth.oauth.routes import oauth_routes
from shared.tools.catalog import TOOLS
from tests.infra.cfn import (
    API,
    CONSOLE_ROUTES,
    DOCS_PATHS,
    METADATA_PATHS,
    OAUTH,
    REST,
    ROOT,
    ROUTER,
    SECRET_STATEMENT,
    camel,
    function_props,
    functions,
    http_routes,
    policies,
    substituted_json,
    without_kms_key,
    yaml_of,
)

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
