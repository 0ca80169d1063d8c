"""Reading template.yaml (AWS SAM) for the infra tests: CloudFormation YAML with short tags,
the functions, routes and policies, and the names the tests share."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from shared.rest.app import RESOURCES

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
