"""template.yaml: the layers, pinned requirements, parameters, outputs and samconfig."""

from __future__ import annotations

import json
import re
import tomllib
from importlib import metadata
from typing import Any

import pytest
import yaml

from tests.infra.cfn import (
    LAMBDA_ONLY,
    LAYER_DISTRIBUTION,
    LOCAL_ONLY,
    ROOT,
    RUNTIME_PROVIDED,
    CfnLoader,
    pinned_requirements,
    recipe_lines,
    requirement_name,
)

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
