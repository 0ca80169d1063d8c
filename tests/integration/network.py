"""A simulated network for the round-trip tests: waves measured on the production pool.

moto answers requests in-process, instantly and not thread-safely. To measure waves — the
longest chain of AWS calls that do not overlap, pool limits included — the `pooled`
adapter (conftest) runs its stages on the production thread pool (`RoundTrips` of
`aws_max_parallel` workers) behind a `Network`:

- every request waits a fixed round-trip time (`delay`), side by side with the others;
- responses come back in the order the requests were sent (equal round-trip times);
- a response is released only when the client is *quiet*: no pool task is doing client
  work (building, signing, parsing a call) and no submitted task is waiting for a free
  worker. So the client counts as infinitely fast: on a loaded machine, a call that was
  ready to go is never chained behind another call's end just because the CPU was busy
  (the waves are the structure of the calls, not the speed of the test machine). A task
  queued because the pool is full does wait: pool limits stay in the count. The groups
  `side_by_side` runs on threads of their own count as client work too, while they are
  not waiting for the network or for their own stages;
- moto then answers one request at a time (it is not thread-safe).

`Network.tracked(RoundTrips(n))` gives the pool whose tasks the network can see.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from functools import partial
from typing import Any

from moto.core.models import botocore_stubber

from shared.storage.aws import AwsClients
from shared.storage.dynamo import RoundTrips
from shared.storage.dynamo.parallel import in_stage
from tests.integration.stages import Numbered
from tests.integration.structure import Structure

# A round trip; short, since the client's own speed no longer matters (see above).
RTT = 0.05


def each_client(clients: AwsClients) -> list[Any]:
    """Every client of the adapter (whatever services it uses)."""
    return [getattr(clients, f.name) for f in fields(clients)]


@dataclass
class Network:
    delay: float = 0.0
    pool: int = 1
    structure: Structure = field(default_factory=Structure)  # the calls' strands
    _moto: threading.Lock = field(default_factory=threading.Lock)
    _quiet: threading.Condition = field(default_factory=threading.Condition)
    _queued: int = 0  # submitted pool tasks that have not started
    _running: int = 0  # started pool tasks
    _working: int = 0  # started pool tasks doing client work (not waiting on the network)
    _task: threading.local = field(default_factory=threading.local)
    _tickets: itertools.count[int] = field(default_factory=itertools.count)
    _in_flight: deque[int] = field(default_factory=deque)  # tickets in the order sent

    def attach(self, clients: AwsClients) -> Network:
        """Answer the clients' requests (instead of moto's own `before-send` handler:
        botocore calls every `before-send` handler, so both would answer)."""
        for client in each_client(clients):
            client.meta.events.unregister("before-send", botocore_stubber)
            client.meta.events.register_first("before-send", self.send)
        return self

    def tracked(self, round_trips: RoundTrips) -> RoundTrips:
        self.pool = round_trips.max_parallel
        return _Tracked(self, round_trips.max_parallel)

    def _is_quiet(self) -> bool:
        ready = min(self._queued, self.pool - self._running)
        return self._working == 0 and ready == 0

    def send(self, event_name: str, request: Any, **kwargs: Any) -> Any:
        in_task = getattr(self._task, "active", False)
        if self.delay:
            with self._quiet:
                ticket = next(self._tickets)
                self._in_flight.append(ticket)
                if in_task:
                    self._working -= 1
                self._quiet.notify_all()
            time.sleep(self.delay)
            with self._quiet:
                self._quiet.wait_for(lambda: self._in_flight[0] == ticket and self._is_quiet())
                self._in_flight.popleft()
                if in_task:
                    self._working += 1
                self._quiet.notify_all()
        with self._moto:
            return botocore_stubber(event_name, request, **kwargs)

    def submitted(self, count: int) -> None:
        with self._quiet:
            self._queued += count

    def working(self, change: int) -> None:
        """A side-by-side group starts (+1) or ends / waits for its stages (-1)."""
        with self._quiet:
            self._working += change
            self._quiet.notify_all()

    def active(self) -> bool:
        return bool(getattr(self._task, "active", False))

    def side[T](self, task: Callable[[], T]) -> T:
        """Run a side-by-side group on this (fresh) thread as client work."""
        self.working(+1)
        self._task.active = True
        try:
            return task()
        finally:
            self._task.active = False
            self.working(-1)

    def run_task[T](self, task: Callable[[], T]) -> T:
        with self._quiet:
            self._queued -= 1
            self._running += 1
            self._working += 1
        # A stage of one task runs on its caller's thread: inside a side group that thread
        # stays a side task afterwards (restore, never clear, the flag).
        previous = self.active()
        self._task.active = True
        try:
            return task()
        finally:
            self._task.active = previous
            with self._quiet:
                self._running -= 1
                self._working -= 1
                self._quiet.notify_all()


class _Tracked(Numbered):
    """The production pool, stages numbered, each top-level task announced to the network."""

    def __init__(self, network: Network, max_parallel: int) -> None:
        super().__init__(max_parallel)
        self._network = network

    def run[T](self, tasks: Sequence[Callable[[], T]]) -> list[T]:
        if not tasks or in_stage():  # nested: inline in its task
            return super().run(tasks)
        self._network.submitted(len(tasks))
        network = self._network
        marked = network.structure.group(list(tasks), self.max_parallel)
        bound = [_bind(network, task) for task in marked]
        if not network.active():
            return super().run(bound)
        network.working(-1)  # a side group waits for its stage
        try:
            return super().run(bound)
        finally:
            network.working(+1)

    def side_by_side[T](self, tasks: Sequence[Callable[[], T]]) -> list[T]:
        if self.max_parallel == 1 or len(tasks) < 2 or in_stage():
            return super().side_by_side(tasks)
        network = self._network
        nested = network.active()
        tasks = network.structure.group(list(tasks), None)

        def first() -> T:
            if not nested:
                return network.side(tasks[0])
            try:
                return tasks[0]()
            finally:
                network.working(-1)  # the enclosing group now waits for the others

        others = [partial(network.side, task) for task in tasks[1:]]
        try:
            return super().side_by_side([first, *others])
        finally:
            if nested:
                network.working(+1)


def _bind[T](network: Network, task: Callable[[], T]) -> Callable[[], T]:
    return lambda: network.run_task(task)
