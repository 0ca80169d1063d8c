"""Low-level DynamoDB calls shared by the adapter's parts (`TableCalls`): batched reads and
writes in parallel chunks, unprocessed keys/items retried with jittered backoff, query paging.

Several independent calls are one `RoundTrips` stage, one task per chunk or query; a
chunk's retries and a query's next pages run within its own task (`_until_processed`,
`_query`): a task that needs a further call never waits for the others of its stage.

Deferred cleanup (`defer`): work no answer depends on. Inside `deferring()` — the retry
layer's call — it runs beside the call record's completion (`take_deferred`); outside, at
once as a stage of its own. Deferred tasks log their failures and never raise.
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
    from mypy_boto3_dynamodb.type_defs import PaginatorConfigTypeDef

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
BACKOFF_BASE, BACKOFF_CAP = 0.025, 1.0  # seconds


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


def made(create: Callable[[], object], *, exists: str) -> bool:
    """Whether `create` (a bound call: `partial`, so its arguments stay type-checked against
    the client's stubs) made the resource: not when it answers that it exists (error code
    `exists`: made before, or side by side meanwhile)."""
    try:
        create()
    except ClientError as exc:
        if error_code(exc) != exists:
            raise
        return False
    return True


def item_key(item: Mapping[str, Any]) -> tuple[str, str]:
    return str(item[PK]["S"]), str(item[SK]["S"])


def item_size_bound(item: Mapping[str, Any]) -> int:
    """An upper bound of an item's size as DynamoDB counts it (attribute names plus values):
    its JSON text in UTF-8, which holds every name and value, quoted."""
    return len(json.dumps(item, ensure_ascii=False).encode())


def chunks(values: Sequence[Any], size: int) -> list[list[Any]]:
    return [list(values[i : i + size]) for i in range(0, len(values), size)]


@dataclass(eq=False)  # one per adapter: compared and hashed by identity
class TableCalls:
    """The calls on one table, bound to a client, the stage runner and the retry policy
    (at least one of `max_attempts`; `sleep` injectable for tests)."""

    client: DynamoDBClient
    table: str
    round_trips: RoundTrips
    max_attempts: int
    sleep: Callable[[float], None] = time.sleep

    def __post_init__(self) -> None:
        self.max_attempts = max(1, self.max_attempts)

    def wait(self, attempt: int) -> None:
        """Sleep before retry number `attempt` (1 = first retry): exponential backoff from
        25 ms up to 1 s, "equal jitter" (half to all of it: never zero, never a herd)."""
        ceiling = min(BACKOFF_CAP, BACKOFF_BASE * (2 ** max(attempt - 1, 0)))
        self.sleep(ceiling * (0.5 + random.random() / 2))  # noqa: S311 - jitter, not secrets

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

    # --- deferred cleanup (module docstring) --------------------------------------------

    @contextmanager
    def deferring(self) -> Iterator[None]:
        """Deferred cleanup inside waits for `take_deferred`; what is still waiting at the
        end runs then, as one stage."""
        token = _DEFERRED.set([])
        try:
            yield
        finally:
            left = self.take_deferred()
            _DEFERRED.reset(token)
            self.round_trips.run(left)

    def defer(self, tasks: Sequence[Callable[[], object]]) -> None:
        """Cleanup beside the call record's completion, or now outside `deferring`."""
        waiting = _DEFERRED.get()
        if waiting is None:
            self.round_trips.run(tasks)
        else:
            waiting.extend(tasks)

    @staticmethod
    def take_deferred() -> list[Callable[[], object]]:
        """The cleanup waiting in this call (none outside `deferring`)."""
        waiting = _DEFERRED.get() or []
        taken = list(waiting)
        waiting.clear()
        return taken

    # --- single items -------------------------------------------------------------------

    def reserve_ids(self, tenant: str, counter: CounterName, count: int) -> range:
        """`count` (>= 1) consecutive IDs of a per-tenant counter: one UpdateItem `ADD`."""
        if count < 1:
            raise ValueError(f"count must be >= 1, not {count}")
        response = self.client.update_item(
            TableName=self.table,
            Key=counter_key(tenant, counter),
            ReturnValues="UPDATED_NEW",
            **expression(add={"value": count}),
        )
        last = get_n(response["Attributes"], "value")
        return range(last - count + 1, last + 1)

    def get_item(self, key: Item, **request: Any) -> Item | None:
        """Consistent GetItem (`request`: e.g. a ProjectionExpression)."""
        found = self.client.get_item(TableName=self.table, Key=key, ConsistentRead=True, **request)
        return dict(found["Item"]) if "Item" in found else None

    # --- batched reads and writes: a task per chunk, its unprocessed part retried in it --

    def _until_processed[T](
        self, send: Callable[[list[Item]], tuple[list[T], list[Item]]], pending: list[Item]
    ) -> tuple[list[T], list[Item]]:
        """`send` of one chunk, then of what came back unprocessed after a backoff, up to
        `max_attempts` calls: what the calls returned, and what stayed unprocessed."""
        done: list[T] = []
        for attempt in range(1, self.max_attempts + 1):
            if attempt > 1:
                self.wait(attempt - 1)
            outcome, pending = send(pending)
            done += outcome
            if not pending:
                break
        return done, pending

    def batch_get(self, keys: Sequence[Item]) -> list[Item]:
        """Consistent BatchGetItem of any number of keys: chunks of 100 in one stage."""
        unique = list({item_key(k): k for k in keys}.values())
        get = partial(self._until_processed, self._get_keys)
        pages = self.round_trips.run([partial(get, c) for c in chunks(unique, BATCH_GET_MAX)])
        if left := sum(len(unprocessed) for _, unprocessed in pages):
            raise StorageUnavailable(f"BatchGetItem: {left} keys stayed unprocessed")
        return [item for items, _ in pages for item in items]

    def _get_keys(self, keys: list[Item]) -> tuple[list[Item], list[Item]]:
        request: Any = {self.table: {"Keys": keys, "ConsistentRead": True}}
        response: dict[str, Any] = dict(self.client.batch_get_item(RequestItems=request))
        items = [dict(i) for i in response.get("Responses", {}).get(self.table, [])]
        left = response.get("UnprocessedKeys", {}).get(self.table, {}).get("Keys", [])
        return items, [dict(k) for k in left]

    def batch_write[Owner: Hashable](self, requests: Sequence[tuple[Owner, Item]]) -> set[Owner]:
        """BatchWriteItem of (owner, WriteRequest) pairs as one stage (`write_tasks`): the
        owners of the requests that finally failed."""
        return set[Owner]().union(*self.round_trips.run(self.write_tasks(requests)))

    def write_tasks[Owner: Hashable](
        self, requests: Sequence[tuple[Owner, Item]]
    ) -> list[Callable[[], set[Owner]]]:
        """The tasks of a `batch_write` (for a caller's stage): one per chunk of 25, each
        the owners of its requests that failed. Keys must be unique across `requests`."""
        if len({_write_target(request) for _, request in requests}) < len(requests):
            raise ValueError("two writes of one item in a batch")
        return [partial(self._write_chunk, c) for c in chunks(requests, BATCH_WRITE_MAX)]

    def _write_chunk[Owner: Hashable](self, requests: list[tuple[Owner, Item]]) -> set[Owner]:
        owners = {_write_target(request): owner for owner, request in requests}
        failed, left = self._until_processed(self._write_requests, [r for _, r in requests])
        return {owners[_write_target(request)] for request in [*failed, *left]}

    def _write_requests(self, requests: list[Item]) -> tuple[list[Item], list[Item]]:
        """(the requests that failed, the ones left unprocessed)."""
        try:
            request_items: dict[str, Any] = {self.table: requests}
            response = self.client.batch_write_item(RequestItems=request_items)
        except AWS_ERRORS as exc:
            _log.warning("BatchWriteItem failed: %s", exc)
            return requests, []
        return [], [dict(r) for r in response.get("UnprocessedItems", {}).get(self.table, [])]

    # --- queries ------------------------------------------------------------------------

    def query_many(
        self, queries: Sequence[Mapping[str, Any]], limit: int | None = None
    ) -> list[list[Item]]:
        """Independent queries side by side (`query_tasks`), each at most `limit` items."""
        return self.round_trips.run(self.query_tasks(queries, [limit] * len(queries)))

    def query_tasks(
        self, queries: Sequence[Mapping[str, Any]], limits: Sequence[int | None]
    ) -> list[Callable[[], list[Item]]]:
        """The tasks of a `query_many` (for a caller's stage), one per query: its pages,
        continued while one ended before its limit (None: before the query's end)."""
        return [partial(self._query, q, n) for q, n in zip(queries, limits, strict=True)]

    def _query(self, query: Mapping[str, Any], limit: int | None) -> list[Item]:
        """The items of `query`'s pages (botocore's paginator), at most `limit`: then
        `Limit` per page, and no page once `limit` items are read."""
        config: PaginatorConfigTypeDef = (
            {} if limit is None else {"MaxItems": limit, "PageSize": limit}
        )
        pages = self.client.get_paginator("query").paginate(
            TableName=self.table, **query, PaginationConfig=config
        )
        return [dict(item) for page in pages for item in page.get("Items", [])]


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


def _write_target(request: Mapping[str, Any]) -> tuple[str, str]:
    if "PutRequest" in request:
        return item_key(request["PutRequest"]["Item"])
    return item_key(request["DeleteRequest"]["Key"])
