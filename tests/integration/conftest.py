"""Fixtures for the DynamoDB + S3 Vectors adapter: DynamoDB Local (tests/dynamodb_local) and
S3 Vectors on moto (in-process).

The `storage` adapter runs its stages serially (S3 Vectors on moto is not thread-safe; the
concurrency tests run threads of their own), numbered (stages.py), so `CallRecorder` still
sees which calls would run side by side. The `pooled`
adapter runs its stages on the production thread pool behind a simulated `Network`
(network.py), each call recorded on its strand (structure.py). `CallRecorder.waves()`
counts what a client on AWS waits for: the longest chain of calls one after the other in
that structure, pool limits included — counted, not timed, so a loaded machine does not
change it; each call's interval is recorded too, the cross-check (`timed_waves`).
"""

from __future__ import annotations

import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from botocore.awsrequest import AWSResponse, HTTPHeaders

from shared.config import Settings
from shared.storage.aws import AwsClients
from shared.storage.dynamo import DynamoStorage, RoundTrips, bootstrap
from tests.contract.s3vectors_query import emulating
from tests.dynamodb_local import local_aws
from tests.integration.network import RTT, Network, each_client
from tests.integration.stages import Numbered, Stage, current_stage

# The pool of the `pooled` adapter: as in production.
POOL = Settings().aws_max_parallel

TABLE = "brain-it"
BUCKET = "brain-it-embeddings"


@pytest.fixture
def clients() -> Iterator[AwsClients]:
    """Fresh clients per test (tests register event hooks on them): DynamoDB on DynamoDB
    Local, an empty database of the test's own; S3 Vectors on moto, QueryVectors emulated
    (every write with vectors queries their nearest stored ones: its duplicate check)."""
    with local_aws() as aws:
        yield aws


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
    options.setdefault("round_trips", Numbered())
    return DynamoStorage(clients, table_name=TABLE, bucket_name=BUCKET, sleep=sleeps, **options)


@pytest.fixture
def storage(clients: AwsClients, created: list[str], sleeps: Sleeps) -> Iterator[DynamoStorage]:
    adapter = make_storage(clients, sleeps)
    yield adapter
    adapter.close()


@dataclass
class Call:
    """One API call: its round-trip stage and its interval (`time.perf_counter`), from
    `before-call` to `after-call` (retries of the call included)."""

    service: str
    operation: str
    stage: Stage | None
    start: float = 0.0
    end: float = float("inf")


@dataclass
class CallRecorder:
    """Every AWS API call (not retries of one call) with the round-trip stage it ran in
    and its interval.

    It listens on the generic `before-call` event; a test hook on a more specific event
    (`before-call.dynamodb.X`) runs first and, if it answers the call, hides it from here.
    """

    calls: list[Call] = field(default_factory=list)
    network: Network | None = None
    _open: threading.local = field(default_factory=threading.local)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def hook(self, model: Any, **_: Any) -> None:
        if emulating():
            return  # the QueryVectors emulation's own ListVectors
        call = Call(
            model.service_model.service_name, model.name, current_stage(), time.perf_counter()
        )
        self.opened(call)
        self._open.call = call

    def opened(self, call: Call) -> None:
        with self._lock:
            self.calls.append(call)
        if self.network is not None:
            self.network.structure.call(call.operation)

    def done(self, **_: Any) -> None:
        # A call answered by a test hook never opened one here: its after-call finds none.
        call: Call | None = getattr(self._open, "call", None)
        if call is not None:
            call.end = time.perf_counter()
            self._open.call = None

    def attach(self, clients: AwsClients) -> CallRecorder:
        for client in each_client(clients):
            client.meta.events.register("before-call", self.hook)
            client.meta.events.register("after-call", self.done)
            client.meta.events.register("after-call-error", self.done)
        return self

    def waves(self) -> int:
        """The round trips a client waits for: the longest chain of calls one after the
        other in the calls' structure (structure.py: counted, not timed, so the same on a
        loaded machine), pool limits included. Behind a `Network` (the `pooled` adapter).
        Checked against the clock: the structural chain is a chain in time too, so the
        timed chain is never shorter (a structure that claims an order the calls did not
        have fails here), and no call ran on a thread no strand knows."""
        assert self.network is not None, "waves() needs the `pooled` adapter"
        structure = self.network.structure
        assert structure.untracked == [], f"calls outside every strand: {structure.untracked}"
        counted = structure.round_trips()
        assert counted <= self.timed_waves(), (counted, structure.chain(), self.timed_waves())
        return counted

    def chain(self) -> list[str]:
        """The operations of one longest chain of `waves()`."""
        assert self.network is not None, "chain() needs the `pooled` adapter"
        return self.network.structure.chain()

    def timed_waves(self) -> int:
        """The longest chain of calls that do not overlap in time (each starting after the
        previous one ended): the cross-check of `waves()`; on a loaded machine it can be
        longer (a call ready to go may start after another one ended), never shorter."""
        calls = sorted(self.calls, key=lambda call: call.start)
        chain: list[int] = []
        for i, call in enumerate(calls):
            before = [chain[j] for j in range(i) if calls[j].end <= call.start]
            chain.append(1 + max(before, default=0))
        return max(chain, default=0)

    def reset(self) -> None:
        self.calls.clear()
        if self.network is not None:
            self.network.structure.reset()

    def start(self) -> CallRecorder:
        """Reset, and from now on delay every request by the network's round-trip time
        (setup before runs without it: only the measured calls pay the delay)."""
        self.reset()
        if self.network is not None:
            self.network.delay = RTT
        return self

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


def record_query_vectors(clients: AwsClients, recorder: CallRecorder) -> None:
    """QueryVectors (answered from moto's vectors by the `clients` fixture's emulation: moto
    lacks it) recorded with its interval: the emulation answers before the recorder's
    generic hook sees the call."""
    open_calls: dict[int, Call] = {}

    def counted(**_: Any) -> None:
        call = Call("s3vectors", "QueryVectors", current_stage(), time.perf_counter())
        recorder.opened(call)
        open_calls[threading.get_ident()] = call

    def answered(**_: Any) -> None:
        open_calls.pop(threading.get_ident()).end = time.perf_counter()

    # before the emulation's own hook (the `clients` fixture's), which answers the call
    clients.s3vectors.meta.events.register_first("before-call.s3vectors.QueryVectors", counted)
    clients.s3vectors.meta.events.register("after-call.s3vectors.QueryVectors", answered)


@pytest.fixture
def recorder(clients: AwsClients) -> CallRecorder:
    return CallRecorder().attach(clients)


@pytest.fixture
def pooled(
    clients: AwsClients, created: list[str], sleeps: Sleeps, recorder: CallRecorder
) -> Iterator[DynamoStorage]:
    """The adapter on the production thread pool behind a `Network` (network.py), whose
    round-trip time `recorder.start()` switches on."""
    recorder.network = Network().attach(clients)
    round_trips = recorder.network.tracked(RoundTrips(POOL))
    adapter = make_storage(clients, sleeps, round_trips=round_trips)
    yield adapter
    adapter.close()


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
