"""Translates template.yaml with the SAM translator (offline) and checks what SAM generates
for SnapStart: every Lambda function has SnapStart on published versions, and everything that
invokes a function (API integrations, invoke permissions, schedule targets, the router's
invoke statement) names its published alias, never the unqualified function ($LATEST).

Runs in .venv-sam (aws-sam-cli brings samtranslator), from scripts/check_template.sh:
    .venv-sam/bin/python scripts/check_aliases.py [template.yaml]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from samtranslator.translator.transform import transform
from samtranslator.yaml_helper import yaml_parse

PARAMETERS = {"OidcIssuer": "https://issuer.example", "OidcAudience": "brain"}


class NoManagedPolicies:
    """The translator asks IAM for managed policy ARNs only when a template names them."""

    def load(self) -> dict[str, str]:
        return {}


def translated(path: Path) -> dict[str, Any]:
    template = yaml_parse(path.read_text(encoding="utf-8"))
    for resource in template["Resources"].values():
        # Local paths are S3 URIs only after `sam package`; the translator wants the latter.
        if resource["Type"] == "AWS::Serverless::Function":
            resource["Properties"]["CodeUri"] = "s3://bucket/code.zip"
        elif resource["Type"] == "AWS::Serverless::LayerVersion":
            resource["Properties"]["ContentUri"] = "s3://bucket/layer.zip"
    result: dict[str, Any] = transform(template, PARAMETERS, NoManagedPolicies())
    return result


def problems(resources: dict[str, Any]) -> list[str]:
    found: list[str] = []
    functions = {n for n, r in resources.items() if r["Type"] == "AWS::Lambda::Function"}
    aliases = {n for n, r in resources.items() if r["Type"] == "AWS::Lambda::Alias"}
    for name in sorted(functions):
        props = resources[name]["Properties"]
        if props.get("SnapStart") != {"ApplyOn": "PublishedVersions"}:
            found.append(f"{name}: no SnapStart on published versions")
        if not any(resources[a]["Properties"]["FunctionName"] == {"Ref": name} for a in aliases):
            found.append(f"{name}: no alias")
    names = "|".join(map(re.escape, functions))
    unqualified = re.compile(r"\$\{(" + names + r")(\.Arn)?\}")
    for name, resource in resources.items():
        kind, props = resource["Type"], resource.get("Properties", {})
        if kind == "AWS::Lambda::Permission" and props["FunctionName"].get("Ref") not in aliases:
            found.append(f"{name}: permission on {props['FunctionName']}, not an alias")
        if kind == "AWS::ApiGatewayV2::Api":
            for path, operations in props["Body"]["paths"].items():
                for method, operation in operations.items():
                    uri = json.dumps(operation["x-amazon-apigateway-integration"]["uri"])
                    if unqualified.search(uri):
                        found.append(f"{method.upper()} {path}: integration invokes $LATEST")
        if kind == "AWS::Events::Rule":
            for target in props.get("Targets", []):
                if target["Arn"].get("Ref") not in aliases:
                    found.append(f"{name}: target {target['Arn']} is not an alias")
        if kind == "AWS::IAM::Role":
            for policy in props.get("Policies", []):
                for statement in _statements(policy["PolicyDocument"]["Statement"]):
                    actions = statement["Action"]
                    actions = [actions] if isinstance(actions, str) else actions
                    if not any(a.startswith("lambda:Invoke") for a in actions):
                        continue
                    resources_ = statement["Resource"]
                    resources_ = resources_ if isinstance(resources_, list) else [resources_]
                    for target in resources_:
                        if not (isinstance(target, dict) and target.get("Ref") in aliases):
                            found.append(f"{name}: may invoke {json.dumps(target)}")
    return found


def _statements(statements: list[Any]) -> list[dict[str, Any]]:
    """The statements, with both branches of a conditional one (`Fn::If`)."""
    flat: list[dict[str, Any]] = []
    for statement in statements:
        if "Fn::If" in statement:
            _, *branches = statement["Fn::If"]
            flat += [b for b in branches if isinstance(b, dict) and "Action" in b]
        else:
            flat.append(statement)
    return flat


def main() -> None:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "template.yaml")
    found = problems(translated(path)["Resources"])
    for problem in found:
        print(f"check_aliases: {problem}", file=sys.stderr)
    if found:
        sys.exit(1)
    print("check_aliases: every function has SnapStart and is invoked through its alias")


if __name__ == "__main__":
    main()
