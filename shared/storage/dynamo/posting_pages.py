"""Pages of the (area, term) posting lists for the safe top-k word ranking (`topk.py`).

A page is one consistent Query of a list partition (`MPOST#<area>#<term>`, ascending sort
key = descending impact) with `Limit` = the page size, continued from the previous page's
`LastEvaluatedKey`: never more than one call per list and step, so a step's pages of all
lists run side by side as one round trip (the first step inside the lookup's stage, with the
stats, memberships and vectors). A list's length (its document frequency) is known when a
page reaches its end; otherwise a Select=COUNT Query of what follows the cursor runs beside
that list's next page (a list beyond ~1 MB of postings counts in further calls; at most
`COUNT_CALLS` per list and step, then the count waits for the next step).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Final

from shared.search.topk import Page, PageRequest
from shared.storage.dynamo.calls import TableCalls
from shared.storage.dynamo.items import Item, query
from shared.storage.dynamo.memory_items import memory_posting_from_item, memory_posting_pk

COUNT_CALLS: Final = 4

RawPage = tuple[list[Item], Mapping[str, Any] | None]


def posting_query(tenant: str, area: str, term: str) -> Item:
    """The (area, term) list, highest impact first (ascending sort key), consistent."""
    return query(memory_posting_pk(tenant, area, term), ConsistentRead=True)


def page_task(
    calls: TableCalls, tenant: str, key: tuple[str, str], cursor: object | None, size: int
) -> Callable[[], RawPage]:
    start = None if cursor is None else dict(cursor)  # type: ignore[call-overload]
    return partial(calls._query_page, posting_query(tenant, *key), start, size)


def as_page(raw: RawPage, remaining: int | None = None) -> Page:
    items, last_key = raw
    postings = [memory_posting_from_item(item) for item in items]
    return Page(postings, None if last_key is None else dict(last_key), remaining)


def _count_after(
    calls: TableCalls, tenant: str, key: tuple[str, str], cursor: object | None
) -> int | None:
    """How many postings follow `cursor` in the list; None when that takes more calls."""
    query: dict[str, Any] = {
        "TableName": calls.table,
        **posting_query(tenant, *key),
        "Select": "COUNT",
    }
    start = None if cursor is None else dict(cursor)  # type: ignore[call-overload]
    total = 0
    for _ in range(COUNT_CALLS):
        if start is not None:
            query["ExclusiveStartKey"] = start
        response = calls.client.query(**query)
        total += int(response.get("Count", 0))
        start = response.get("LastEvaluatedKey")
        if start is None:
            return total
    return None


def read_step(calls: TableCalls, tenant: str, requests: Sequence[PageRequest]) -> list[Page]:
    """One step: every request's page (and count, when asked) side by side."""
    tasks: list[Callable[[], Any]] = [
        page_task(calls, tenant, r.key, r.cursor, r.size) for r in requests
    ]
    counted = [i for i, r in enumerate(requests) if r.count]
    tasks += [
        partial(_count_after, calls, tenant, requests[i].key, requests[i].cursor) for i in counted
    ]
    results = calls.round_trips.run(tasks)
    counts = dict(zip(counted, results[len(requests) :], strict=True))
    return [as_page(results[i], counts.get(i)) for i in range(len(requests))]
