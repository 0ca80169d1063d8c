"""A function's cold start imports only what that function uses: a tool function loads neither
the MCP server stack nor the other tools' services (the catalog is the one source of tool
metadata, its handlers import their service on first call)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from tests.infra.cfn import ROOT
from tests.lambda_functions.conftest import LAMBDA_ENV

PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import app
from shared.lambda_runtime.container import container
container()
from shared import schemas
print(json.dumps({"modules": sorted(sys.modules), "schemas": schemas._load.cache_info().currsize}))
"""
SERVICES = {
    "shared.services.memories",
    "shared.services.memory_admin",
    "shared.services.memory_os",
    "shared.services.brain",
    "shared.services.ledger",
    "shared.ledger.requests",
}
SERVER_STACK = ("fastmcp", "mcp", "mangum", "starlette", "shared.server")
# Compiled on first use or before the SnapStart snapshot (tool_handler.warm_tool).
SCRUB_PATTERNS = {"shared.scrubbing.patterns", "shared.scrubbing.scrubber"}
# The DynamoDB adapter's parts (every module of the package but the adapter's core): built on
# first use or before the snapshot (container.prime).
ADAPTER_CORE = {"__init__", "adapter", "calls", "items", "membership_hints", "parallel", "schema"}
STORAGE_PARTS = {
    f"shared.storage.dynamo.{path.stem}"
    for path in (ROOT / "shared" / "storage" / "dynamo").glob("*.py")
    if path.stem not in ADAPTER_CORE
}
# Loaded by the calls that need them: the retry layer (writing tools), the stemmers (word
# index), the ledger's model.
ON_FIRST_USE = {
    "shared.tools.retry",
    "snowballstemmer",
    "shared.search.analyzer",
    "shared.ledger.model",
}
# Not at all: the settings read the environment without it (shared/config.py).
NEVER = {"pydantic_settings", "dotenv"}


def run_probe(probe: str, function: str, **env: str) -> dict[str, Any]:
    """What `probe` prints (JSON, last line) in a fresh interpreter with the function's dir."""
    out = subprocess.run(
        [sys.executable, "-c", probe, str(ROOT / "functions" / function)],
        capture_output=True,
        text=True,
        env={**os.environ, **LAMBDA_ENV, **env},
        cwd=ROOT,
        check=True,
        timeout=60,
    )
    loaded: dict[str, Any] = json.loads(out.stdout.splitlines()[-1])
    return loaded


def cold_start(function: str) -> tuple[set[str], int]:
    """The modules loaded and the number of schemas read by import + init."""
    loaded = run_probe(PROBE, function)
    return set(loaded["modules"]), int(loaded["schemas"])


@pytest.mark.parametrize(
    "function", ["fetch_brain_memories", "search_memory", "insert_brain_longterm_memory"]
)
def test_tool_function_cold_start_loads_no_other_tool_and_no_server(function: str) -> None:
    # Given a tool function imported and initialised in a fresh interpreter, as Lambda does
    modules, schemas_read = cold_start(function)
    # Then no tool's service is loaded before its first call, and no MCP server stack at all
    assert not SERVICES & modules, sorted(SERVICES & modules)
    server = sorted(m for m in modules if m.split(".")[0] in SERVER_STACK or m in SERVER_STACK)
    assert not server, server
    # And no published schema was read (they load on demand, for help answers)
    assert schemas_read == 0
    # And the scrubbing patterns are not compiled (the settings only name a policy)
    assert not SCRUB_PATTERNS & modules
    # And of the storage only the adapter's core: no part, no ledger, no retry layer
    assert len(STORAGE_PARTS) >= 13
    assert not STORAGE_PARTS & modules, sorted(STORAGE_PARTS & modules)
    assert not ON_FIRST_USE & modules, sorted(ON_FIRST_USE & modules)
    # And no pydantic-settings
    assert not NEVER & modules, sorted(NEVER & modules)


GATEWAY_PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import app
from shared.lambda_runtime.{module} import {build}
{build}()
print(json.dumps({{"modules": sorted(sys.modules)}}))
"""
# As the template configures them: an OIDC issuer for the in-app fallback verifier.
OIDC = {"BRAIN_OIDC_ISSUER": "https://issuer.example", "BRAIN_OIDC_AUDIENCE": "brain"}
# API Gateway's JWT authorizer verifies the tokens: the fallback loads PyJWT on first use.
JWT = {"jwt", "shared.auth.local_tokens"}


def test_router_cold_start_loads_no_storage_and_no_tool_code() -> None:
    # Given the router imported and its app built in a fresh interpreter, as Lambda does
    probe = GATEWAY_PROBE.format(module="router", build="_router")
    loaded = run_probe(probe, "mcp_router", BRAIN_TOOL_FUNCTIONS="{}", **OIDC)
    modules = set(loaded["modules"])
    # Then it forwards calls without the storage, the tools' dispatch or any service
    assert not {m for m in modules if m.startswith("shared.storage")}
    assert "shared.tools.dispatch" not in modules and not SERVICES & modules
    assert not ON_FIRST_USE & modules, sorted(ON_FIRST_USE & modules)
    # And without PyJWT
    assert not JWT & modules


def test_rest_function_cold_start_loads_no_jwt_library() -> None:
    # Given the REST function imported and its app built, with an OIDC issuer
    probe = GATEWAY_PROBE.format(module="rest_api", build="_app")
    modules = set(run_probe(probe, "memory_api", **OIDC)["modules"])
    # Then neither PyJWT nor cryptography is loaded before a token needs verifying
    assert not JWT & modules
    assert not {m for m in modules if m.startswith("cryptography")}
