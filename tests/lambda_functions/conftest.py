"""Lambda handlers on DynamoDB Local (S3 Vectors on moto): environment as the template sets
it, a fake Lambda context, and a local invoker that runs a tool Lambda in-process with a JSON
round trip."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest
from moto import mock_aws

from shared.config import Settings
from shared.lambda_runtime import container as container_module
from shared.lambda_runtime.router import InvokeResult
from shared.storage.aws import make_clients
from shared.storage.dynamo.schema import bootstrap
from tests.contract.s3vectors_query import every_client_emulating
from tests.dynamodb_local import dynamodb_env

TABLE = "brain-lambda-test"
BUCKET = "brain-lambda-test-embeddings"
LAMBDA_ENV = {
    "AWS_DEFAULT_REGION": "eu-central-1",
    "AWS_REGION": "eu-central-1",
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "BRAIN_BACKEND": "aws",
    "BRAIN_TABLE_NAME": TABLE,
    "BRAIN_BUCKET_NAME": BUCKET,
    "BRAIN_AWS_MAX_PARALLEL": "1",  # S3 Vectors on moto is not thread-safe
    "POWERTOOLS_SERVICE_NAME": "brain",
    "POWERTOOLS_METRICS_NAMESPACE": "Brain",
    "POWERTOOLS_DEV": "false",
    "FASTMCP_ENABLE_RICH_LOGGING": "false",
}


@dataclass
class FakeLambdaContext:
    function_name: str = "brain-test"
    memory_limit_in_mb: int = 512
    invoked_function_arn: str = "arn:aws:lambda:eu-central-1:123456789012:function:brain-test"
    aws_request_id: str = "req-0001"
    function_version: str = "$LATEST"
    log_group_name: str = "/aws/lambda/brain-test"
    log_stream_name: str = "stream"

    def get_remaining_time_in_millis(self) -> int:
        return 29_000


@pytest.fixture
def lambda_context() -> FakeLambdaContext:
    return FakeLambdaContext()


@pytest.fixture
def aws_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The table (DynamoDB Local, a database of the test's own) and the bucket (moto); a
    fresh Lambda container per test; QueryVectors answered from moto's vectors."""
    with dynamodb_env() as dynamodb, mock_aws(), every_client_emulating():
        env = {**LAMBDA_ENV, **dynamodb}
        with mock.patch.dict(os.environ, env):
            bootstrap(make_clients(Settings()), TABLE, BUCKET)
            container_module.reset()
            yield env
            container_module.reset()


Handler = Callable[[dict[str, Any], Any], Any]


class LocalInvoker:
    """Stands in for `lambda:Invoke`: the payload goes through JSON both ways, exactly as the
    Lambda service would carry it, into the target function's handler."""

    def __init__(self, handlers: dict[str, Handler], context: Any) -> None:
        self.handlers = handlers
        self.context = context
        self.calls: list[str] = []

    def invoke(self, function_name: str, payload: bytes) -> InvokeResult:
        self.calls.append(function_name)
        event = json.loads(payload)
        try:
            result = self.handlers[function_name](event, self.context)
        except Exception as exc:
            error = {"errorMessage": str(exc), "errorType": type(exc).__name__}
            return InvokeResult(json.dumps(error).encode(), "Unhandled")
        return InvokeResult(json.dumps(result).encode())
