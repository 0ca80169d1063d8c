"""Fixtures for the DynamoDB + S3 adapter on moto (in-process, serial round trips).

moto is not thread-safe, so the adapter runs its stages serially here; the stage ids it
sets are the same as in production, so `CallRecorder` still sees which calls would run
side by side.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import boto3
import pytest
from botocore.awsrequest import AWSResponse, HTTPHeaders
from moto import mock_aws

from shared.config import Settings
from shared.storage.aws import AwsClients, make_clients
from shared.storage.dynamo import DynamoStorage, RoundTrips, Stage, bootstrap, current_stage

TABLE = "brain-it"
BUCKET = "brain-it-embeddings"
REGION = "eu-central-1"

_MOTO_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": REGION,
    "AWS_REGION": REGION,
}
_MOTO_UNSET = (
    "AWS_ENDPOINT_URL",
    "AWS_ENDPOINT_URL_DYNAMODB",
    "AWS_ENDPOINT_URL_S3",
    "AWS_PROFILE",
)


@pytest.fixture
def moto(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name, value in _MOTO_ENV.items():
        monkeypatch.setenv(name, value)
    for name in _MOTO_UNSET:
        monkeypatch.delenv(name, raising=False)
    with mock_aws():
        yield


@pytest.fixture(scope="session")
def boto_session() -> boto3.session.Session:
    """One session for all tests: it caches the service models, so clients are cheap."""
    return boto3.session.Session(
        aws_access_key_id="testing", aws_secret_access_key="testing", region_name=REGION
    )


@pytest.fixture
def clients(moto: None, boto_session: boto3.session.Session) -> AwsClients:
    """Fresh clients per test: tests register event hooks on them."""
    return make_clients(Settings(), boto_session)


@pytest.fixture
def created(clients: AwsClients) -> list[str]:
    return bootstrap(clients, TABLE, BUCKET)


@dataclass
class Sleeps:
    """Injected instead of time.sleep: records the backoff delays, never waits."""

    delays: list[float] = field(default_factory=list)

    def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


def make_storage(clients: AwsClients, sleeps: Sleeps, **options: Any) -> DynamoStorage:
    return DynamoStorage(
        clients,
        table_name=TABLE,
        bucket_name=BUCKET,
        round_trips=RoundTrips.serial(),
        sleep=sleeps,
        **options,
    )


@pytest.fixture
def storage(clients: AwsClients, created: list[str], sleeps: Sleeps) -> Iterator[DynamoStorage]:
    adapter = make_storage(clients, sleeps)
    yield adapter
    adapter.close()


@dataclass(frozen=True)
class Call:
    service: str
    operation: str
    stage: Stage | None


@dataclass
class CallRecorder:
    """Every AWS API call (not retries of one call) with the round-trip stage it ran in.

    It listens on the generic `before-call` event; a test hook on a more specific event
    (`before-call.dynamodb.X`) runs first and, if it answers the call, hides it from here.
    """

    calls: list[Call] = field(default_factory=list)

    def hook(self, model: Any, **_: Any) -> None:
        self.calls.append(Call(model.service_model.service_name, model.name, current_stage()))

    def attach(self, clients: AwsClients) -> CallRecorder:
        clients.dynamodb.meta.events.register("before-call", self.hook)
        clients.s3.meta.events.register("before-call", self.hook)
        return self

    def reset(self) -> None:
        self.calls.clear()

    def operations(self) -> Counter[str]:
        return Counter(call.operation for call in self.calls)

    def sequential_round_trips(self) -> int:
        """Per stage the most calls one task made (they ran one after the other), plus
        one per call outside any stage."""
        per_task: dict[int, Counter[int]] = defaultdict(Counter)
        lone = 0
        for call in self.calls:
            if call.stage is None:
                lone += 1
            else:
                per_task[call.stage.stage][call.stage.task] += 1
        return lone + sum(max(tasks.values()) for tasks in per_task.values())

    def stages(self) -> list[Counter[str]]:
        """The operations of each sequential step, in order (a lone call is a step)."""
        steps: list[Counter[str]] = []
        index: dict[int, int] = {}
        for call in self.calls:
            if call.stage is None:
                steps.append(Counter([call.operation]))
            elif call.stage.stage in index:
                steps[index[call.stage.stage]][call.operation] += 1
            else:
                index[call.stage.stage] = len(steps)
                steps.append(Counter([call.operation]))
        return steps


@pytest.fixture
def recorder(clients: AwsClients) -> CallRecorder:
    return CallRecorder().attach(clients)


@dataclass
class Injected:
    """Calls answered by a test hook instead of the service; `active = False` stops it."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    active: bool = True


def inject_failure(
    client: Any,
    event: str,
    when: Callable[[dict[str, Any]], bool] = lambda _request: True,
    *,
    code: str = "InternalError",
    status: int = 500,
) -> Injected:
    """Answer matching calls with an error instead of sending them (a `before-call` hook
    that short-circuits the request; botocore does not retry it). `when` sees botocore's
    request dict (url_path, body, ...)."""
    error = {"Code": code, "Message": "injected by the test"}
    return inject_response(
        client,
        event,
        lambda request: (
            (status, {"Error": error, "ResponseMetadata": {"HTTPStatusCode": status}})
            if when(request)
            else None
        ),
    )


def inject_response(
    client: Any,
    event: str,
    answer: Callable[[dict[str, Any]], tuple[int, dict[str, Any]] | None],
) -> Injected:
    """Answer calls for which `answer(request)` gives (status, parsed response)."""
    injected = Injected()

    def hook(params: dict[str, Any], **_: Any) -> tuple[AWSResponse, dict[str, Any]] | None:
        if not injected.active:
            return None
        response = answer(params)
        if response is None:
            return None
        injected.requests.append(params)
        status, parsed = response
        return AWSResponse(params.get("url", ""), status, HTTPHeaders(), None), parsed

    client.meta.events.register(f"before-call.{event}", hook)
    return injected
