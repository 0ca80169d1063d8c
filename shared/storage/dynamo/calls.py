"""Low-level DynamoDB calls shared by the adapter: batched reads and writes split into
parallel chunks, retries of unprocessed keys/items with jittered backoff, query paging.

Every helper that issues several independent calls issues them as one `RoundTrips` stage;
a retry of what came back unprocessed is a further stage, after a backoff sleep (one loop
for reads and writes: `until_processed`).

Deferred cleanup (`defer`): work no answer depends on (a replace's stale posting keys
cleared from its index record, the replaced vector deleted). Inside `deferring()` — the
retry layer's call — it waits for the call record's completion and runs beside it
(`take_deferred`); outside, it runs at once as a stage of its own. Deferred tasks log
their failures and never raise.
"""

from __future__ import annotations

import itertools
import json
import logging
import random
import time
import uuid
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Final, cast

from botocore.exceptions import BotoCoreError, ClientError

from shared.domain import CounterName
from shared.storage.dynamo.items import PK, SK, Item, counter_key, expression, get_n
from shared.storage.dynamo.parallel import RoundTrips

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

_log = logging.getLogger(__name__)


BATCH_GET_MAX: Final = 100
_DEFERRED: ContextVar[list[Callable[[], object]] | None] = ContextVar("deferred", default=None)
BATCH_WRITE_MAX: Final = 25
# DynamoDB's item size limit. One item over it fails a whole BatchWriteItem call.
ITEM_MAX_BYTES: Final = 400 * 1024
AWS_ERRORS: Final = (ClientError, BotoCoreError)
CONDITION_FAILED: Final = "ConditionalCheckFailed"  # a cancellation reason's code
CONDITION_FAILED_ERROR: Final = "ConditionalCheckFailedException"  # a single write's error code
TRANSACTION_CONFLICT: Final = "TransactionConflict"


class StorageUnavailable(RuntimeError):
    """A read could not be completed (DynamoDB kept keys unprocessed or failed)."""


def error_code(exc: BaseException) -> str:
    if isinstance(exc, ClientError):
        return str(exc.response.get("Error", {}).get("Code", ""))
    return type(exc).__name__


def cancel_reasons(exc: BaseException, actions: int = 0) -> list[dict[str, Any]] | None:
    """The CancellationReasons of a cancelled TransactWriteItems (in the order of its
    actions, at least `actions` of them; `Code` "None" for the ones that did not fail);
    None for any other error."""
    if error_code(exc) != "TransactionCanceledException":
        return None
    reasons = list(getattr(exc, "response", {}).get("CancellationReasons", []))
    return reasons + [{"Code": "None"}] * (actions - len(reasons))


def item_key(item: Mapping[str, Any]) -> tuple[str, str]:
    return str(item[PK]["S"]), str(item[SK]["S"])


def item_size_bound(item: Mapping[str, Any]) -> int:
    """An upper bound of an item's size as DynamoDB counts it (attribute names plus values):
    its JSON text in UTF-8, which holds every name and value, quoted."""
    return len(json.dumps(item, ensure_ascii=False).encode())


def chunks(values: Sequence[Any], size: int) -> list[list[Any]]:
    return [list(values[i : i + size]) for i in range(0, len(values), size)]


@dataclass
class Backoff:
    """Exponential backoff with jitter; `sleep` and `rng` are injectable for tests."""

    sleep: Callable[[float], None] = time.sleep
    rng: Callable[[], float] = random.random
    base: float = 0.025
    cap: float = 1.0

    def wait(self, attempt: int) -> None:
        """Sleep before retry number `attempt` (1 = first retry)."""
        ceiling = min(self.cap, self.base * (2 ** max(attempt - 1, 0)))
        delay = ceiling * (0.5 + self.rng() / 2)  # "equal jitter": never zero, never herd
        self.sleep(delay)


class TableCalls:
    """The calls on one table, bound to a client, the stage runner and the retry policy."""

    def __init__(
        self,
        client: DynamoDBClient,
        table_name: str,
        round_trips: RoundTrips,
        backoff: Backoff,
        max_attempts: int,
    ) -> None:
        self.client = client
        self.table = table_name
        self.round_trips = round_trips
        self.backoff = backoff
        self.max_attempts = max(1, max_attempts)

    def transact(self, actions: Sequence[Mapping[str, Any]]) -> None:
        """One TransactWriteItems of `actions` on this table; its fresh ClientRequestToken
        makes botocore's resend of this attempt (after a lost answer) idempotent."""
        on_table = [
            {kind: {**body, "TableName": self.table}}
            for one in actions
            for kind, body in one.items()
        ]
        self.client.transact_write_items(
            TransactItems=cast(Any, on_table), ClientRequestToken=uuid.uuid4().hex
        )

    # --- single items -------------------------------------------------------------------

    def reserve_ids(self, tenant: str, counter: CounterName, count: int) -> range:
        """`count` (>= 1) consecutive IDs of a per-tenant counter: one UpdateItem `ADD`."""
        if count < 1:
            raise ValueError(f"count must be >= 1, not {count}")
        added = expression(add={"value": count})
        response = self.client.update_item(
            TableName=self.table,
            Key=counter_key(tenant, counter),
            ReturnValues="UPDATED_NEW",
            **added,
        )
        last = get_n(response["Attributes"], "value")
        return range(last - count + 1, last + 1)

    def get_item(self, key: Item) -> Item | None:
        response = self.client.get_item(TableName=self.table, Key=key, ConsistentRead=True)
        item = response.get("Item")
        return dict(item) if item is not None else None

    # --- batched reads ------------------------------------------------------------------

    def batch_get(self, keys: Sequence[Item]) -> list[Item]:
        """Consistent BatchGetItem of any number of keys: chunks of 100 in one stage,
        unprocessed keys retried (further stages) up to `max_attempts` times."""
        unique = list({item_key(k): k for k in keys}.values())
        pages, left = self.until_processed(
            self._batch_get_chunk, BATCH_GET_MAX, chunks(unique, BATCH_GET_MAX)
        )
        if left:
            raise StorageUnavailable(f"BatchGetItem: {len(left)} keys stayed unprocessed")
        return [item for page in pages for item in page]

    def _batch_get_chunk(self, keys: list[Item]) -> tuple[list[Item], list[Item]]:
        response: dict[str, Any] = dict(
            self.client.batch_get_item(
                RequestItems={self.table: {"Keys": keys, "ConsistentRead": True}}
            )
        )
        items = [dict(i) for i in response.get("Responses", {}).get(self.table, [])]
        left = response.get("UnprocessedKeys", {}).get(self.table, {}).get("Keys", [])
        return items, [dict(k) for k in left]

    # --- batched writes -----------------------------------------------------------------

    def batch_write[Owner: Hashable](self, requests: Sequence[tuple[Owner, Item]]) -> set[Owner]:
        """BatchWriteItem of (owner, WriteRequest) pairs: chunks of 25 in one stage,
        unprocessed items retried (further stages). Returns the owners of the requests
        that finally failed. Keys must be unique across `requests`."""
        write = BatchWrite(self, requests)
        return write.finish(self.round_trips.run(write.tasks()))

    def _batch_write_chunk(self, requests: list[Item]) -> tuple[list[Item], list[Item]]:
        """(the requests that failed, the ones left unprocessed)."""
        try:
            request_items: dict[str, Any] = {self.table: requests}
            response = self.client.batch_write_item(RequestItems=request_items)
        except AWS_ERRORS as exc:
            _log.warning("BatchWriteItem failed: %s", exc)
            return requests, []
        return [], [dict(r) for r in response.get("UnprocessedItems", {}).get(self.table, [])]

    def until_processed[T](
        self,
        send: Callable[[list[Item]], tuple[T, list[Item]]],
        size: int,
        pending: list[list[Item]],
        sent: Sequence[tuple[T, list[Item]]] | None = None,
    ) -> tuple[list[T], list[Item]]:
        """`pending` chunks (of `size`) sent as one stage (`sent`: their outcomes, when a
        caller's stage sent them), then what came back unprocessed, after a backoff, up to
        `max_attempts` stages: the outcomes, and what stayed unprocessed."""
        done: list[T] = []
        for attempt in range(1, self.max_attempts + 1):
            if sent is None:
                sent = self.round_trips.run([partial(send, c) for c in pending])
            left: list[Item] = []
            for outcome, unprocessed in sent:
                done.append(outcome)
                left += unprocessed
            pending, sent = chunks(left, size), None
            if not pending or attempt == self.max_attempts:
                break
            self.backoff.wait(attempt)
        return done, [item for chunk in pending for item in chunk]

    # --- queries ------------------------------------------------------------------------

    def query_many(
        self, queries: Sequence[Mapping[str, Any]], limit: int | None = None
    ) -> list[list[Item]]:
        """Run independent queries side by side; a query whose page ended before `limit`
        (or before its end, without a limit) continues in a further stage."""
        pages = QueryPages(self, queries, [limit] * len(queries))
        return pages.finish(self.round_trips.run(pages.tasks()))

    def _query_page(
        self, query: Mapping[str, Any], start: Mapping[str, Any] | None, limit: int | None
    ) -> tuple[list[Item], Mapping[str, Any] | None]:
        kwargs: dict[str, Any] = {"TableName": self.table, **query}
        if start is not None:
            kwargs["ExclusiveStartKey"] = start
        if limit is not None:
            kwargs["Limit"] = limit
        response = self.client.query(**kwargs)
        items = [dict(i) for i in response.get("Items", [])]
        return items, response.get("LastEvaluatedKey")


Page = tuple[list[Item], Mapping[str, Any] | None]


class QueryPages:
    """A `query_many` whose first stage runs side by side with other calls: run `tasks()`
    in the caller's stage, then `finish(pages)` continues the unfinished queries (further
    stages) and returns the items per query (at most its limit, None: all)."""

    def __init__(
        self,
        calls: TableCalls,
        queries: Sequence[Mapping[str, Any]],
        limits: Sequence[int | None],
    ) -> None:
        if len(limits) != len(queries):
            raise ValueError("query_many: one limit per query")
        self._calls = calls
        self._queries = queries
        self._bounds = list(limits)
        self._results: list[list[Item]] = [[] for _ in queries]

    def tasks(self) -> list[Callable[[], Page]]:
        return self._tasks(dict.fromkeys(range(len(self._queries))))

    def _tasks(self, cursors: Mapping[int, Mapping[str, Any] | None]) -> list[Callable[[], Page]]:
        return [
            partial(
                self._calls._query_page,
                self._queries[i],
                cursors[i],
                _remaining(self._results[i], self._bounds[i]),
            )
            for i in cursors
        ]

    def finish(self, pages: Sequence[Page]) -> list[list[Item]]:
        order = list(range(len(self._queries)))
        while True:
            cursors: dict[int, Mapping[str, Any] | None] = {}
            for i, (items, last_key) in zip(order, pages, strict=True):
                self._results[i] += items
                if last_key is not None and _remaining(self._results[i], self._bounds[i]) != 0:
                    cursors[i] = last_key
            if not cursors:
                return self._results
            order = list(cursors)
            pages = self._calls.round_trips.run(self._tasks(cursors))


class BatchWrite[Owner: Hashable]:
    """A `batch_write` whose first stage runs side by side with other calls: run `tasks()`
    in the caller's stage, then `finish(outcomes)` retries what came back unprocessed
    (further stages, with backoff) and returns the owners whose requests finally failed."""

    def __init__(self, calls: TableCalls, requests: Sequence[tuple[Owner, Item]]) -> None:
        self._calls = calls
        self._owners: dict[tuple[str, str], Owner] = {}
        for owner, request in requests:
            target = _write_target(request)
            if target in self._owners:
                raise ValueError(f"two writes of one item in a batch: {target}")
            self._owners[target] = owner
        self._chunks = chunks([request for _, request in requests], BATCH_WRITE_MAX)

    def tasks(self) -> list[Callable[[], tuple[list[Item], list[Item]]]]:
        return [partial(self._calls._batch_write_chunk, c) for c in self._chunks]

    def finish(self, outcomes: Sequence[tuple[list[Item], list[Item]]]) -> set[Owner]:
        send = self._calls._batch_write_chunk
        failed, left = self._calls.until_processed(send, BATCH_WRITE_MAX, self._chunks, outcomes)
        return {self._owners[_write_target(r)] for r in [*left, *(r for f in failed for r in f)]}


def run_groups(
    round_trips: RoundTrips, groups: Sequence[Sequence[Callable[[], Any]]]
) -> list[list[Any]]:
    """Run several groups of independent tasks as one stage; results per group."""
    results = iter(round_trips.run([task for group in groups for task in group]))
    return [list(itertools.islice(results, len(group))) for group in groups]


def run_chains[K: Hashable, W, R](
    round_trips: RoundTrips,
    writes: Sequence[W],
    chain_of: Callable[[int, W], K],
    run: Callable[[K, list[W]], list[R]],
) -> list[R]:
    """Writes grouped into chains (`chain_of`; in order within a chain), each chain `run`
    as one task of one stage: the results in the order of `writes`."""
    chains: dict[K, list[int]] = {}
    for index, write in enumerate(writes):
        chains.setdefault(chain_of(index, write), []).append(index)
    outcomes = round_trips.run(
        [partial(run, chain, [writes[i] for i in indices]) for chain, indices in chains.items()]
    )
    results: dict[int, R] = {}
    for indices, chain_results in zip(chains.values(), outcomes, strict=True):
        results.update(zip(indices, chain_results, strict=True))
    return [results[index] for index in range(len(writes))]


def _remaining(found: list[Item], limit: int | None) -> int | None:
    return None if limit is None else max(limit - len(found), 0)


def _write_target(request: Mapping[str, Any]) -> tuple[str, str]:
    if "PutRequest" in request:
        return item_key(request["PutRequest"]["Item"])
    return item_key(request["DeleteRequest"]["Key"])


@contextmanager
def deferring(round_trips: RoundTrips) -> Iterator[None]:
    """Deferred cleanup inside waits for `take_deferred` (module docstring); what is
    still waiting at the end runs then, as one stage."""
    token = _DEFERRED.set([])
    try:
        yield
    finally:
        left = take_deferred()
        _DEFERRED.reset(token)
        round_trips.run(left)


def defer(round_trips: RoundTrips, tasks: Sequence[Callable[[], object]]) -> None:
    """Cleanup beside the call record's completion, or now outside `deferring`."""
    waiting = _DEFERRED.get()
    if waiting is None:
        round_trips.run(tasks)
    else:
        waiting.extend(tasks)


def take_deferred() -> list[Callable[[], object]]:
    """The cleanup waiting in this call (none outside `deferring`)."""
    waiting = _DEFERRED.get() or []
    taken = list(waiting)
    waiting.clear()
    return taken
