"""The structure of AWS calls: which ran one after the other, counted, not timed.

Every call is recorded on the *strand* it ran on: the steps of one thread of control. The
root strand is the thread that reset the structure (the test's, the dispatcher's); each task
of a pool stage and each group of a `side_by_side` is a strand of its own, a child of the
strand that started it (network.py `_Tracked` marks them; pool and side threads get a copy of
the caller's context). A strand's steps are its calls and its groups (a stage or a
side-by-side), in the order they happened; only its own thread appends to a strand.

Round trips of a strand: 1 per call plus, per group, the round trips of its longest child
(they run side by side); a stage of more tasks than the pool has workers is scheduled as the
pool does (in order, each task on the worker free first). That is what a client waits for on
a network of equal round-trip times, its own work infinitely fast: the speed of the test
machine is not in it. Not modelled: stages of different side groups competing for one pool's
workers (the production pool, `aws_max_parallel` = 256, is never full in these tests).

Invariants (checked by conftest `CallRecorder.waves`): the longest structural chain is also a
chain in time (each call started after the previous one ended), so the timed chain is never
shorter; a call on a thread no strand knows (not the root thread, no strand in its context)
is an error, never silently dropped.
"""

from __future__ import annotations

import contextvars
import heapq
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

type Step = str | Group  # an operation's name, or a group of strands side by side


@dataclass(eq=False)
class Strand:
    steps: list[Step] = field(default_factory=list)

    def chain(self) -> list[str]:
        """The operations of one longest chain of calls one after the other."""
        longest: list[str] = []
        for step in self.steps:
            longest += [step] if isinstance(step, str) else step.chain()
        return longest


@dataclass(eq=False)
class Group:
    strands: list[Strand]
    workers: int | None  # a stage's pool size; None: a thread per strand

    def chain(self) -> list[str]:
        chains = [strand.chain() for strand in self.strands]
        if self.workers is None or len(chains) <= self.workers:
            return max(chains, key=len, default=[])
        # the pool: tasks in order, each on the worker free first (ties: the lowest)
        busy: list[tuple[int, int, list[str]]] = [(0, i, []) for i in range(self.workers)]
        for chain in chains:
            until, worker, done = heapq.heappop(busy)
            heapq.heappush(busy, (until + len(chain), worker, done + chain))
        return max((done for _, _, done in busy), key=len)


_STRAND: contextvars.ContextVar[Strand | None] = contextvars.ContextVar(
    "test_round_trip_strand", default=None
)


class Structure:
    """The strands of the calls since the last `reset` (module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        """A new root strand on the calling thread."""
        with self._lock:
            self.root = Strand()
            self.untracked: list[str] = []
            self._root_thread = threading.get_ident()

    def _here(self) -> Strand | None:
        strand = _STRAND.get()
        if strand is None and threading.get_ident() == self._root_thread:
            return self.root
        return strand

    def call(self, operation: str) -> None:
        here = self._here()
        if here is None:
            with self._lock:
                self.untracked.append(operation)
        else:
            here.steps.append(operation)

    def group[T](self, tasks: list[Callable[[], T]], workers: int | None) -> list[Callable[[], T]]:
        """Record a group of `tasks` side by side on this strand; the tasks, each to run on
        a strand of its own."""
        strands = [Strand() for _ in tasks]
        here = self._here()
        if here is None:
            with self._lock:
                self.untracked.append(f"a group of {len(tasks)}")
        else:
            here.steps.append(Group(strands, workers))
        return [_on(strand, task) for strand, task in zip(strands, tasks, strict=True)]

    def round_trips(self) -> int:
        return len(self.root.chain())

    def chain(self) -> list[str]:
        return self.root.chain()


def _on[T](strand: Strand, task: Callable[[], T]) -> Callable[[], T]:
    def run() -> T:
        token = _STRAND.set(strand)
        try:
            return task()
        finally:
            _STRAND.reset(token)

    return run
