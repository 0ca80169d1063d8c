"""The memory index reads: postings per area and term, the sharded memory stats, recent
memories, listings by area and by scope (the writers: memory_records.py); and the newest-
first GSI reads brain entries share (`newest_pages`).

Pages of the (area, term) posting lists for the safe top-k word ranking (`topk.py`): a
page is one consistent Query of a list partition (`MPOST#<area>#<term>`, ascending sort
key = descending impact) with `Limit` = the page size, continued from the previous page's
`LastEvaluatedKey`: never more than one call per list and step, so a step's pages of all
lists run side by side as one round trip (the first step inside the lookup's stage, with the
stats, memberships and vectors). A list's length (its document frequency) is known when a
page reaches its end; otherwise a Select=COUNT Query of what follows the cursor runs beside
that list's next page (a list beyond ~1 MB of postings counts in further calls; at most
`COUNT_CALLS` per list and step, then the count waits for the next step).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from functools import partial, reduce
from itertools import chain, islice
from typing import Any, Final

from boto3.dynamodb.conditions import Attr, ConditionBase, Key

from shared.domain import (
    CorpusStats,
    Memory,
    MemoryPosition,
    MemoryPosting,
    MemoryType,
    searched_areas,
)
from shared.search.lookup import MemoryTermLookup
from shared.search.postings import POSTINGS_PER_AREA_TERM
from shared.search.topk import Page, PageRequest, WordQuery, run
from shared.search.vectors import VectorHit, VectorQuery, VectorRanking
from shared.storage.dynamo.calls import TableCalls, run_groups
from shared.storage.dynamo.items import (
    AREA_INDEX,
    AREA_PK,
    AREA_SK,
    MEMORY_STATS,
    REF_INDEX,
    REF_PK,
    TYP_INDEX,
    TYP_PK,
    Item,
    query,
    scope_ref_pk,
    stats_from_items,
    stats_query,
    to_us,
    unexpired,
)
from shared.storage.dynamo.membership_hints import MembershipHints
from shared.storage.dynamo.memory_items import (
    area_sk,
    memory_area_pk,
    memory_from_item,
    memory_posting_from_item,
    memory_posting_pk,
    memory_typ_pk,
)
from shared.storage.dynamo.projects import membership_query, projects_from_items

ListKey = tuple[str, str]  # (area, term)
COUNT_CALLS: Final = 4

RawPage = tuple[list[Item], Mapping[str, Any] | None]


def newest_pages(
    calls: TableCalls,
    index: str,
    attribute: str,
    pks: Sequence[str],
    limit: int,
    sort: ConditionBase | None = None,
    filter: ConditionBase | None = None,
) -> list[list[Item]]:
    """Per partition `pk` of GSI `index` (memories and brain entries alike) its items
    newest first, sort keys meeting `sort`, items `filter`ed server-side, at most `limit`
    each; all side by side in one stage, a page that ended early (1 MB, or filtered)
    continues in its task, only for that partition."""
    queries = [
        query(
            pk, attribute=attribute, index=index, sort=sort, filter=filter, ScanIndexForward=False
        )
        for pk in pks
    ]
    return calls.query_many(queries, limit) if limit > 0 else [[] for _ in pks]


def _recent_query(tenant: str, area: str, now_us: int) -> Item:
    """One area's short-term memories in by_vk_typ, newest number first, live only."""
    pk = memory_typ_pk(tenant, MemoryType.SHORTTERM, area)
    live = unexpired(now_us)
    return query(pk, attribute=TYP_PK, index=TYP_INDEX, filter=live, ScanIndexForward=False)


def _newest(
    tenant: str, typ: MemoryType, pages: Sequence[Sequence[Item]], limit: int
) -> list[Memory]:
    memories = [memory_from_item(item) for items in pages for item in items]
    live = [m for m in memories if m.tenant == tenant and m.id.typ is typ]
    live.sort(key=lambda m: m.id.number, reverse=True)
    return live[:limit]


class MemoryIndexReads:
    def __init__(
        self,
        calls: TableCalls,
        hints: MembershipHints,
        search: Callable[[VectorQuery], list[VectorHit]],
    ) -> None:
        self._calls = calls
        self._hints = hints
        self._search = search

    def lookup(
        self,
        tenant: str,
        terms: Sequence[str],
        areas: Sequence[str],
        member: str | None = None,
        *,
        path: str | None = None,
        per_area_term: int = POSTINGS_PER_AREA_TERM,
        recent: int = 0,
        now: datetime | None = None,
        vector: VectorQuery | None = None,
        words: WordQuery | None = None,
    ) -> MemoryTermLookup:
        """Stage 1, side by side: per (area, term) one consistent Query of the list's head
        (`Limit` = per_area_term; with `words` the first page of the top-k reads), the
        stats Query, with `member` its membership Query, with `recent` one by_vk_typ Query
        per area, with `vector` one QueryVectors over the areas. The areas are the given
        ones plus the member's hinted project areas (`MembershipHints`); stage 2 only for
        project areas the membership read reveals beyond the hint. Postings of hinted areas
        the read does not confirm are dropped (vector hits carry no area: the caller checks
        every hit on the loaded memory). With `words`, further pages of the lists follow
        (`topk.run`: one stage per step, only while the top k is not certain)."""
        heads = sorted(set(terms)) if words is None else []
        tops = [] if words is None else list(words.terms)
        recent = recent if now is not None else 0
        now_us = 0 if now is None else to_us(now)
        read: dict[tuple[str, str | None], list[Item]] = {}  # (area, term; None: recent)
        pages: dict[ListKey, Page] = {}
        rankings: list[VectorRanking] = []

        def stage(over: Sequence[str], extra: Sequence[Item] = ()) -> list[list[Item]]:
            """One stage over areas `over`, side by side: the Queries of the list heads,
            of the recent memories and `extra` (pages continued in their tasks; their
            items returned), the first page of each word list, the QueryVectors."""
            keys = [(a, t) for a in over for t in heads] + [(a, None) for a in over if recent]
            queries = [
                _recent_query(tenant, a, now_us) if t is None else posting_query(tenant, a, t)
                for a, t in keys
            ]
            limits = [recent if t is None else per_area_term for _, t in keys]
            reads = self._calls.query_tasks([*queries, *extra], [*limits, *[None] * len(extra)])
            searches = []
            if vector is not None:
                over_areas = replace(vector, areas=frozenset(over))
                searches.append(partial(VectorRanking.of, self._search, over_areas))
            lists = [(a, t) for a in over for t in tops]
            size = 0 if words is None else words.budget.first_page
            firsts = [page_task(self._calls, tenant, key, None, size) for key in lists]
            items, ranked, raw_pages = run_groups(
                self._calls.round_trips, [reads, searches, firsts]
            )
            read.update(zip(keys, items, strict=False))
            pages.update(zip(lists, map(as_page, raw_pages), strict=True))
            rankings.extend(ranked)
            return items[len(keys) :]

        hinted = None if member is None else self._hints.get(tenant, member)
        first = searched_areas(areas, hinted, path)
        extra = [stats_query(tenant, MEMORY_STATS)]
        if member is not None:
            extra.append(membership_query(tenant, member))
        stats_items, *memberships = stage(first, extra)
        projects = None
        if member is not None:
            projects = projects_from_items(memberships[0])
            self._hints.put(tenant, member, projects)
        final = searched_areas(areas, projects, path)
        missing = sorted(set(final) - set(first))
        if missing:
            stage(missing)
        postings: dict[str, list[MemoryPosting]] = {}
        for (area, term), items in read.items():
            if area in final and term is not None and items:
                postings.setdefault(term, []).extend(map(memory_posting_from_item, items))
        latest = [items for (area, t), items in read.items() if area in final and t is None]
        merged = partial(VectorRanking.merged, limit=vector.limit) if vector else None
        vectors = reduce(merged, rankings) if merged is not None and rankings else None
        stats = stats_from_items(stats_items)
        ranking = None
        if words is not None:  # the top k from the first pages, then steps while asked
            lists = [(area, term) for area in final for term in words.terms]
            step = partial(read_step, self._calls, tenant)
            ranking = run(words, lists, stats, step, [pages[key] for key in lists])
        newest = _newest(tenant, MemoryType.SHORTTERM, latest, recent)
        return MemoryTermLookup(postings, stats, projects, newest, vectors, ranking)

    def stats(self, tenant: str) -> CorpusStats:
        return stats_from_items(self._calls.query_many([stats_query(tenant, MEMORY_STATS)])[0])

    def recent(
        self, tenant: str, typ: MemoryType, areas: Sequence[str], now: datetime, limit: int
    ) -> list[Memory]:
        """Per area one Query of its by_vk_typ partition `MTYP#<typ>#<area>`, newest number
        first, side by side; expired memories are filtered server-side, and a page that
        filtered some out continues (in its task) until `limit` live memories are
        found or the partition ends. Merged, the newest `limit`."""
        pks = [memory_typ_pk(tenant, typ, area) for area in dict.fromkeys(areas)]
        live = unexpired(to_us(now))
        pages = newest_pages(self._calls, TYP_INDEX, TYP_PK, pks, limit, filter=live)
        return _newest(tenant, typ, pages, limit)

    def by_areas(
        self,
        tenant: str,
        areas: Sequence[str],
        before: MemoryPosition | None,
        now: datetime,
        limit: int,
    ) -> list[Memory]:
        """Per distinct area one Query of its by_area partition (newest first, strictly
        before `before`), all side by side in one stage; merged, the newest `limit`.
        Expired memories are filtered server-side; an area whose page filtered some out
        continues (in its task) until `limit` live memories or the partition end."""
        sort = None if before is None else Key(AREA_SK).lt(area_sk(before))
        pks = [memory_area_pk(tenant, area) for area in dict.fromkeys(areas)]
        live = unexpired(to_us(now))
        pages = newest_pages(self._calls, AREA_INDEX, AREA_PK, pks, limit, sort, live)
        memories = [m for m in map(memory_from_item, chain(*pages)) if m.tenant == tenant]
        memories.sort(key=lambda m: MemoryPosition(m.created_at, m.id), reverse=True)
        return memories[:limit]

    def by_scopes(
        self,
        tenant: str,
        scopes: Sequence[tuple[str, str]],
        now: datetime,
        limit: int,
        areas: Sequence[str] | None = None,
    ) -> dict[tuple[str, str], list[Memory]]:
        """Per distinct (scope, scope_vk) one Query of its by_reference partition
        `SCOPE#<scope>#<scope_vk>`, all side by side in one stage, newest number first.
        Expired memories (and with `areas` those outside them) are filtered server-side;
        only a pair whose page filtered some out continues (in its task) until `limit`
        live memories or the partition end."""
        pairs = list(dict.fromkeys(scopes))
        if areas is not None and not areas:
            return {}
        wanted_items = unexpired(to_us(now))
        if areas is not None:
            wanted = sorted(set(areas))
            wanted_items &= reduce(  # IN takes at most 100 operands
                operator.or_,
                [Attr("area").is_in(wanted[at : at + 100]) for at in range(0, len(wanted), 100)],
            )
        pks = [scope_ref_pk(tenant, *pair) for pair in pairs]
        pages = newest_pages(self._calls, REF_INDEX, REF_PK, pks, limit, filter=wanted_items)
        found: dict[tuple[str, str], list[Memory]] = {}
        for pair, items in zip(pairs, pages, strict=True):
            memories = [memory_from_item(item) for item in items]
            live = [m for m in memories if m.tenant == tenant and m.id.typ is MemoryType.LONGTERM]
            if live:
                found[pair] = live[:limit]
        return found


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
    """How many postings follow `cursor` in the list (Select=COUNT pages of boto3's Query
    paginator); None when that takes more than `COUNT_CALLS` calls."""
    start: dict[str, Any] = {} if cursor is None else {"ExclusiveStartKey": cursor}
    pages = calls.client.get_paginator("query").paginate(
        TableName=calls.table, Select="COUNT", **posting_query(tenant, *key), **start
    )
    total = 0
    for page in islice(pages, COUNT_CALLS):
        total += page["Count"]
        if "LastEvaluatedKey" not in page:
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
