"""SnapStart runtime hooks, run the way Lambda's Python runtime runs them: before-snapshot hooks
in reverse order of registration, after-restore hooks in order. What a restored environment
must not share with the snapshot (AWS clients with their credentials and pools, the storage's
thread pool, the random seed) is new afterwards; the app itself is kept."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any
from unittest import mock

import pytest
import snapshot_restore_py

from shared.config import Settings
from shared.lambda_runtime import container as container_module
from shared.lambda_runtime import router as router_module
from shared.lambda_runtime.tool_handler import make_tool_handler
from shared.storage.aws import make_clients
from shared.storage.dynamo.schema import bootstrap
from tests.dynamodb_local import dynamodb_env
from tests.lambda_functions.conftest import BUCKET, TABLE, FakeLambdaContext
from tests.lambda_functions.test_tool_handlers import sample


def take_snapshot() -> None:
    for func, args, kwargs in reversed(snapshot_restore_py.get_before_snapshot()):
        func(*args, **kwargs)


def restore() -> None:
    for func, args, kwargs in snapshot_restore_py.get_after_restore():
        func(*args, **kwargs)


def access_key(client: Any) -> str:
    key: str = client._request_signer._credentials.access_key
    return key


@pytest.fixture
def router_env(aws_env: dict[str, str]) -> Any:
    functions = {"fetch_brain_memories": "arn:aws:lambda:eu-central-1:1:function:f:live"}
    with mock.patch.dict(os.environ, {"BRAIN_TOOL_FUNCTIONS": json.dumps(functions)}):
        router_module.reset()
        yield
        router_module.reset()


def test_tool_function_gets_new_clients_and_storage_after_restore(
    aws_env: dict[str, str],
) -> None:
    # Given a tool function whose init ran, and its snapshot taken with the init credentials
    handler = make_tool_handler("insert_brain_longterm_memory")
    take_snapshot()
    snapshotted = container_module.container()
    assert access_key(snapshotted.clients.dynamodb) == os.environ["AWS_ACCESS_KEY_ID"]
    # When a new environment is restored from it with credentials of its own (DynamoDB
    # Local keeps a database per access key: the restored one gets the tables too)
    with dynamodb_env() as restored_env, mock.patch.dict(os.environ, restored_env):
        bootstrap(make_clients(Settings()), TABLE, BUCKET)
        restore()
        restored = container_module.container()
        # Then the clients, their credentials and the storage (thread pool) are new
        assert restored is not snapshotted
        assert restored.clients.dynamodb is not snapshotted.clients.dynamodb
        assert restored.clients.s3vectors is not snapshotted.clients.s3vectors
        new_key = restored_env["AWS_ACCESS_KEY_ID"]
        assert new_key != aws_env["AWS_ACCESS_KEY_ID"]
        assert access_key(restored.clients.dynamodb) == new_key
        assert access_key(restored.clients.s3vectors) == new_key
        assert restored.storage is not snapshotted.storage
        # And the settings are those of the function, read again
        assert restored.settings == snapshotted.settings
        # And the restored function serves calls with them
        answer = handler(sample("insert_brain_longterm_memory"), FakeLambdaContext())
        assert answer["erfolg"] is True, answer


def test_snapshot_holds_the_tools_parser_service_and_scrub_patterns(
    aws_env: dict[str, str],
) -> None:
    # Given a tool function in a fresh interpreter: its handler module imported, nothing run
    probe = (
        "import sys, snapshot_restore_py as hooks\n"
        "from shared.lambda_runtime.tool_handler import make_tool_handler\n"
        "make_tool_handler('remember')\n"
        "before = set(sys.modules)\n"
        "for func, args, kwargs in reversed(hooks.get_before_snapshot()):\n"
        "    func(*args, **kwargs)\n"
        "print(' '.join(sorted(set(sys.modules) - before)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    # When the before-snapshot hooks ran (they must touch no storage: they did not fail)
    loaded = set(out.stdout.split())
    # Then the snapshot holds its parser, its service and the compiled scrubbing patterns
    assert {
        "shared.validation.memory_requests",
        "shared.services.memory_os",
        "shared.scrubbing.patterns",
    } <= loaded
    # And the storage parts and the retry layer its first call uses
    assert {
        "shared.storage.dynamo.memories",
        "shared.storage.dynamo.memory_index",
        "shared.storage.dynamo.memory_items",
        "shared.storage.dynamo.reservations",
        "shared.tools.retry",
    } <= loaded
    # And no other tool's service
    assert "shared.services.brain" not in loaded and "shared.services.ledger" not in loaded


def test_restored_environments_do_not_share_the_random_sequence(
    aws_env: dict[str, str],
) -> None:
    # Given the hooks of a tool function and a random state as a snapshot would hold it
    make_tool_handler("fetch_brain_memories")
    random.seed(1234)
    snapshot_state = random.getstate()
    expected_without_reseed = random.random()
    # When two environments are restored from that state
    draws = []
    for _ in range(2):
        random.setstate(snapshot_state)
        restore()
        draws.append(random.random())
    # Then neither repeats the snapshot's sequence, nor each other's
    assert expected_without_reseed not in draws
    assert draws[0] != draws[1]


def test_router_keeps_its_app_and_gets_a_new_lambda_client_after_restore(
    router_env: None,
) -> None:
    # Given the router, built before the snapshot (fastmcp app, tools, Lambda client)
    take_snapshot()
    app = router_module._router()
    invoker = router_module._invoker()
    snapshotted = invoker.client
    assert access_key(snapshotted) == os.environ["AWS_ACCESS_KEY_ID"]
    # When an environment is restored with credentials of its own
    with mock.patch.dict(os.environ, {"AWS_ACCESS_KEY_ID": "restored"}):
        restore()
    # Then the app is the snapshot's, but the Lambda client is new, with the new credentials
    assert router_module._router() is app
    assert invoker.client is not snapshotted
    assert access_key(invoker.client) == "restored"
    # And its configuration is unchanged: no automatic retries of an invoke
    assert invoker.client.meta.config.retries["total_max_attempts"] == 1
    assert invoker.client.meta.config.read_timeout == Settings().tool_invoke_timeout_s


def test_restore_without_a_built_container_builds_nothing(aws_env: dict[str, str]) -> None:
    # Given a function whose container was never built (no snapshot hook ran)
    make_tool_handler("recall")
    container_module.reset()
    # When the restore hooks run
    restore()
    # Then nothing was built eagerly
    assert container_module.container.cache_info().currsize == 0
