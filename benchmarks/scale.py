"""Scale benchmark (issue 12): does a caller's search cost follow what it owns, not what the
tenant holds?

One tenant is filled in steps to each size (default 2,000, 20,000, 200,000 memories) from
1,000 nutzer. The caller (`n0000`) owns 300 memories in its own area and reads 5 teams and 10
projects with 10 memories each; everything added later lands in other nutzer's areas and
other teams. After each step the benchmark times, through the real service functions,
`search_memory`, `recall_context` and `select_brain` for the caller (median of `--queries`
calls after a warm-up), what the word ranking read (postings and steps per search: the safe
top-k of `shared/search/topk.py` reads pages of the caller's lists only while a memory not
yet seen could still enter the top 10) and what its read budget costs: recall@10 of the
budgeted ranking against the unbounded one, and the share of searches the budget cut.

`--owned-share F` sends that share of every memory added later into the caller's own area
(the caller grows with the tenant): its common word's list then outgrows the first page,
so the reads, the steps and the budget's cost show at scale.

`--backend dynamodb` runs the same on DynamoDB Local (AWS's own engine, tests/dynamodb_local;
started and stopped by the run; smaller default sizes, the adapter on its production pool)
and reports, per search, the AWS calls and the read units, estimated from the response items
with DynamoDB's sizing rules (strongly consistent: ⌈bytes / 4 KB⌉ per Query, per
BatchGetItem item; GSI Queries half). Its times are the engine's on this machine (loopback,
no network): they show growth with size, not AWS latency.

Run: .venv/bin/python benchmarks/scale.py [--sizes 2000,20000,200000] [--backend sqlite]
A measurement: it prints a table; `ratio` is the time at the largest size over the time at
the smallest. The smoke test (tests/unit/test_scale_benchmark.py) runs it tiny.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.auth.principal import ALL_SCOPES, Principal
from shared.config import Settings
from shared.domain import (
    BrainEntry,
    BrainWrite,
    CounterName,
    Memory,
    MemoryId,
    MemoryType,
    NewMemory,
    Project,
    VkTyp,
)
from shared.search.analyzer import document_terms
from shared.search.topk import UNBOUNDED
from shared.services.areas import Visibility
from shared.services.brain import select_brain
from shared.services.context import ServiceContext
from shared.services.memories import memory_terms
from shared.services.memory_os import recall_context, search_memory
from shared.services.word_search import rank_words
from shared.storage.port import StoragePort
from shared.validation.memory_requests import parse_recall_context, parse_search
from shared.validation.requests import parse_select

TENANT = "scale"
CALLER = "n0000"
NUTZER = 1000
OWNED = 300
PER_SHARED_AREA = 10
BRAIN_ENTRIES = 500
NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
# A very common word (in 90% of all memories: the caller's own list of it exceeds the
# cut-off) and a vocabulary with a Zipf-like spread.
COMMON = "projekt"
VOCABULARY = [
    f"{a}{b}{c}"
    for a in ("ka", "lo", "mi", "ne", "ru", "sa", "te", "vo", "wi", "zu")
    for b in ("ber", "dan", "fel", "gor", "hin", "kel", "mar", "ros", "sun", "tal")
    for c in ("a", "e", "i", "o", "ung", "er", "en", "is", "um", "ax")
]
QUERY_WORDS = 2


@dataclass(frozen=True)
class Scenario:
    """What the caller sees, fixed for every size (the smoke test makes it small)."""

    owned: int = OWNED
    per_shared_area: int = PER_SHARED_AREA
    brain_entries: int = BRAIN_ENTRIES
    teams: int = 5
    projects: int = 10
    # Share of the memories added by `grow_to` that land in the caller's own area.
    owned_share: float = 0.0

    @property
    def team_names(self) -> list[str]:
        return [f"t{i}" for i in range(self.teams)]

    @property
    def project_names(self) -> list[str]:
        return [f"p{i}" for i in range(self.projects)]

    def caller(self) -> Principal:
        return Principal(
            tenant=TENANT,
            subject=CALLER,
            nutzer=frozenset({CALLER}),
            agents=frozenset({"bot"}),
            scopes=ALL_SCOPES,
            teams=frozenset(self.team_names),
        )


def _words(rng: random.Random, count: int) -> list[str]:
    # Zipf-like: index = floor(len * u^3) favours the first words.
    return [VOCABULARY[int(len(VOCABULARY) * rng.random() ** 3)] for _ in range(count)]


def _memory(rng: random.Random, memory_id: MemoryId, nutzer: str, area: str) -> Memory:
    words = _words(rng, 18)
    if rng.random() < 0.9:
        words.append(COMMON)
    text = " ".join(words)
    memory = Memory(
        tenant=TENANT,
        id=memory_id,
        kurzbeschreibung=" ".join(words[:3]),
        memory=text,
        tags=[],
        scope="kunde",
        scope_vk=f"K-{rng.randrange(BRAIN_ENTRIES)}",
        nutzer=nutzer,
        agent="bot",
        created_at=NOW,
        updated_at=NOW,
        expires_at=NOW + timedelta(days=30) if memory_id.typ is MemoryType.SHORTTERM else None,
        area=area,
    )
    memory.terms, memory.doc_len = memory_terms(memory)
    return memory


@dataclass
class Filler:
    storage: StoragePort
    scenario: Scenario = field(default_factory=Scenario)
    rng: random.Random = field(default_factory=lambda: random.Random(12))
    count: int = 0

    def _put(self, owners: list[tuple[str, str]]) -> None:
        """Store one memory per (nutzer, area); every tenth is short-term."""
        by_typ: dict[MemoryType, list[tuple[str, str]]] = {}
        for index, owner in enumerate(owners):
            typ = MemoryType.SHORTTERM if (self.count + index) % 10 == 9 else MemoryType.LONGTERM
            by_typ.setdefault(typ, []).append(owner)
        for typ, group in by_typ.items():
            for start in range(0, len(group), 500):
                chunk = group[start : start + 500]
                ids = self.storage.reserve_ids(TENANT, CounterName(typ.value), len(chunk))
                memories = [
                    NewMemory(_memory(self.rng, MemoryId(typ, number), nutzer, area))
                    for number, (nutzer, area) in zip(ids, chunk, strict=True)
                ]
                failures = [f for f in self.storage.put_memories(memories) if f is not None]
                if failures:
                    raise RuntimeError(f"fill failed: {failures[0]}")
        self.count += len(owners)

    def first(self) -> None:
        """The caller's 300, its teams' and projects' memories, the brain entries."""
        for name in self.scenario.project_names:
            self.storage.create_project(Project(TENANT, name, "n0001", NOW, frozenset({CALLER})))
        shared = self.scenario.per_shared_area
        owners = [(CALLER, f"users/{CALLER}")] * self.scenario.owned
        for team in self.scenario.team_names:
            owners += [(f"n{1 + self.rng.randrange(NUTZER - 1):04d}", f"teams/{team}")] * shared
        for project in self.scenario.project_names:
            owners += [("n0001", f"projects/{project}")] * shared
        self._put(owners)
        ids = self.storage.reserve_ids(TENANT, CounterName.BRAIN, self.scenario.brain_entries)
        writes = []
        for number in ids:
            titel = f"Kunde K-{number - ids.start}"
            inhalt = " ".join(_words(self.rng, 25))
            terms, doc_len = document_terms(titel, inhalt)
            entry = BrainEntry(
                tenant=TENANT,
                id=number,
                titel=titel,
                inhalt=inhalt,
                vk_typ=VkTyp.KUNDE,
                vk_referenz_id=f"K-{number - ids.start}",
                tags=[],
                stammdaten={},
                nutzer="n0001",
                agent="bot",
                created_at=NOW,
                updated_at=NOW,
                terms=terms,
                doc_len=doc_len,
            )
            writes.append(BrainWrite(entry))
        for start in range(0, len(writes), 100):
            self.storage.put_brain_entries(writes[start : start + 100])

    def grow_to(self, size: int) -> None:
        """Other nutzer's memories (own areas and 50 other teams) up to `size`."""
        while self.count < size:
            batch = min(5000, size - self.count)
            owners = []
            for _ in range(batch):
                if self.rng.random() < self.scenario.owned_share:
                    owners.append((CALLER, f"users/{CALLER}"))
                    continue
                nutzer = f"n{1 + self.rng.randrange(NUTZER - 1):04d}"
                in_team = self.rng.random() < 0.2
                area = f"teams/other{self.rng.randrange(50)}" if in_team else f"users/{nutzer}"
                owners.append((nutzer, area))
            self._put(owners)


def queries(count: int) -> list[str]:
    rng = random.Random(99)
    return [" ".join([COMMON, *_words(rng, QUERY_WORDS)]) for _ in range(count)]


def timed(action: Callable[[], object], runs: list[str]) -> float:
    """Median milliseconds of `action` per query text, after one untimed pass over the same
    texts: the steady state of a server whose caller's postings are in the page cache (the
    first pass at a new size would time reading them from a file grown in between)."""
    for _ in runs:
        action()
    samples = []
    for _ in runs:
        began = time.perf_counter()
        action()
        samples.append((time.perf_counter() - began) * 1000)
    return statistics.median(samples)


@dataclass
class Row:
    size: int
    search_ms: float
    recall_context_ms: float
    select_brain_ms: float
    recall_at_10: float  # of the budgeted word ranking against the unbounded one
    postings_read: float  # per search: postings the word ranking read
    steps: float = 0.0  # per search: steps (side-by-side page reads) of the word ranking
    cut: float = 0.0  # share of searches whose reads the budget stopped
    list_postings: float = 0.0  # per search: postings in the caller's lists (all of them)
    extra: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Reads:
    recall_at_10: float
    postings: float
    steps: float
    cut: float
    list_postings: float


def word_reads(
    ctx: ServiceContext, texts: list[str], principal: Principal, totals: bool = True
) -> Reads:
    """What the budgeted top 10 read, and its recall@10 against the unbounded ranking; with
    `totals`, also how many postings the caller's lists hold (one more exhaustive read)."""
    scores, postings, steps, cut, total = [], 0, 0, 0, 0
    for text in texts:
        bounded = rank_words(ctx, principal, Visibility(ctx, principal, CALLER), text, depth=10)
        full = rank_words(
            ctx, principal, Visibility(ctx, principal, CALLER), text, depth=10, budget=UNBOUNDED
        )
        assert bounded.reads is not None and full.reads is not None
        postings += bounded.reads.postings_read
        steps += bounded.reads.steps
        cut += not bounded.reads.complete
        if totals:
            everything = rank_words(
                ctx,
                principal,
                Visibility(ctx, principal, CALLER),
                text,
                depth=10**9,
                budget=UNBOUNDED,
            )
            assert everything.reads is not None
            total += everything.reads.postings_read
        best = {memory_id for memory_id, _ in full.ranked[:10]}
        if best:
            scores.append(len(best & {m for m, _ in bounded.ranked[:10]}) / len(best))
    n = len(texts)
    recall = statistics.mean(scores) if scores else 1.0
    return Reads(recall, postings / n, steps / n, cut / n, total / n)


def measure(
    ctx: ServiceContext, size: int, texts: list[str], principal: Principal, *, timing: bool = True
) -> Row:
    """Timings (median ms; NaN without `timing`), recall@10 and postings per search."""
    cycle: Iterator[str] = iter(texts * 1000)

    def search() -> object:
        return search_memory(ctx, principal, parse_search({"query": next(cycle), "limit": 10}))

    def context() -> object:
        request = parse_recall_context({"task": next(cycle), "limit": 10})
        return recall_context(ctx, principal, request)

    def brain() -> object:
        request = parse_select({"query": next(cycle), "nutzer": CALLER, "agent": "bot"})
        return select_brain(ctx, principal, request)

    times = [timed(action, texts) for action in (search, context, brain)] if timing else []
    reads = word_reads(ctx, texts, principal, totals=timing)
    return Row(
        size,
        *(times or [math.nan] * 3),
        reads.recall_at_10,
        reads.postings,
        reads.steps,
        reads.cut,
        reads.list_postings,
    )


@contextmanager
def sqlite_storage() -> Iterator[StoragePort]:
    from shared.storage.sqlite import SqliteStorage

    with tempfile.TemporaryDirectory() as directory, SqliteStorage(Path(directory) / "b.db") as s:
        yield s


def run_sqlite(sizes: list[int], count: int, scenario: Scenario | None = None) -> list[Row]:
    rows = []
    texts = queries(count)
    with sqlite_storage() as storage:
        filler = Filler(storage, scenario or Scenario())
        filler.first()
        ctx = ServiceContext(storage, Settings(), lambda: NOW)
        for size in sizes:
            filler.grow_to(size)
            rows.append(measure(ctx, size, texts, filler.scenario.caller()))
    return rows


def item_bytes(item: dict[str, Any]) -> int:
    """DynamoDB item size: attribute names plus values (strings UTF-8, numbers ~digits/2)."""
    total = 0
    for name, value in item.items():
        total += len(name.encode())
        if "S" in value:
            total += len(value["S"].encode())
        elif "N" in value:
            total += 1 + math.ceil(len(value["N"]) / 2)
        else:
            total += len(str(value).encode())
    return total


@dataclass
class ReadUnits:
    """botocore `after-call` hook: calls and estimated read units of every DynamoDB read."""

    calls: int = 0
    units: float = 0.0

    def hook(self, http_response: Any, parsed: dict[str, Any], model: Any, **_: Any) -> None:
        self.calls += 1
        if model.name == "Query":
            size = sum(item_bytes(i) for i in parsed.get("Items", []))
            consistent = model.name == "Query" and "IndexName" not in self._last
            self.units += max(1, math.ceil(size / 4096)) * (1.0 if consistent else 0.5)
        elif model.name == "BatchGetItem":
            for items in parsed.get("Responses", {}).values():
                self.units += sum(max(1, math.ceil(item_bytes(i) / 4096)) for i in items)
        elif model.name == "GetItem" and "Item" in parsed:
            self.units += max(1, math.ceil(item_bytes(parsed["Item"]) / 4096))

    _last: dict[str, Any] = field(default_factory=dict)

    def remember(self, params: dict[str, Any], **_: Any) -> None:
        self._last = params

    def reset(self) -> None:
        self.calls, self.units = 0, 0.0


def run_dynamodb(sizes: list[int], count: int, scenario: Scenario | None = None) -> list[Row]:
    from shared.storage.dynamo import DynamoStorage, bootstrap
    from tests.dynamodb_local import local_aws

    rows = []
    texts = queries(count)
    with local_aws(query_vectors=False) as clients:
        bootstrap(clients, "scale", "scale-embeddings")
        storage = DynamoStorage(clients, table_name="scale", bucket_name="scale-embeddings")
        units = ReadUnits()
        clients.dynamodb.meta.events.register("provide-client-params.dynamodb", units.remember)
        clients.dynamodb.meta.events.register("after-call.dynamodb", units.hook)
        filler = Filler(storage, scenario or Scenario())
        filler.first()
        ctx = ServiceContext(storage, Settings(), lambda: NOW)
        for size in sizes:
            filler.grow_to(size)
            row = measure(ctx, size, texts, filler.scenario.caller())
            units.reset()
            for text in texts:
                request = parse_search({"query": text, "limit": 10})
                search_memory(ctx, filler.scenario.caller(), request)
            row.extra = {"calls": units.calls / len(texts), "read_units": units.units / len(texts)}
            rows.append(row)
        storage.close()
    return rows


def print_table(rows: list[Row], backend: str, owned: int = OWNED, share: float = 0.0) -> None:
    extra = rows[0].extra if rows else {}
    head = (
        f"{'memories':>9} {'search ms':>10} {'recall_ctx ms':>14} {'select ms':>10}"
        f" {'r@10':>6} {'postings':>9} {'of lists':>9} {'steps':>6} {'cut':>5}"
    )
    if extra:
        head += f" {'calls/search':>13} {'RCU/search':>11}"
    print(
        f"backend {backend}; the caller owns {owned} (+ {share:.0%} of what is added) and"
        " reads 5 teams + 10 projects"
    )
    print(head)
    for row in rows:
        line = (
            f"{row.size:>9} {row.search_ms:>10.2f} {row.recall_context_ms:>14.2f}"
            f" {row.select_brain_ms:>10.2f} {row.recall_at_10:>6.3f} {row.postings_read:>9.0f}"
            f" {row.list_postings:>9.0f} {row.steps:>6.2f} {row.cut:>5.2f}"
        )
        if row.extra:
            line += f" {row.extra['calls']:>13.1f} {row.extra['read_units']:>11.1f}"
        print(line)
    if len(rows) > 1:
        first, last = rows[0], rows[-1]
        print(
            f"ratio {last.size}/{first.size}: search {last.search_ms / first.search_ms:.2f}×,"
            f" recall_context {last.recall_context_ms / first.recall_context_ms:.2f}×,"
            f" select_brain {last.select_brain_ms / first.select_brain_ms:.2f}×"
        )


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["sqlite", "dynamodb"], default="sqlite")
    parser.add_argument("--sizes", default=None, help="comma list, ascending")
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--owned", type=int, default=OWNED, help="the caller's own memories")
    parser.add_argument(
        "--owned-share", type=float, default=0.0, help="share of added memories the caller owns"
    )
    args = parser.parse_args(argv)
    default = "2000,20000,200000" if args.backend == "sqlite" else "600,2000,6000"
    sizes = [int(part) for part in (args.sizes or default).split(",")]
    run = run_sqlite if args.backend == "sqlite" else run_dynamodb
    try:
        rows = run(sizes, args.queries, Scenario(owned=args.owned, owned_share=args.owned_share))
    finally:
        from tests.dynamodb_local import stop

        stop()  # the DynamoDB Local process, if this run started one
    print_table(rows, args.backend, args.owned, args.owned_share)
    return rows


if __name__ == "__main__":
    main()
