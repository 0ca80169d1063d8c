"""The memory index reads: postings per area and term, the sharded memory stats, recent
memories, listings by area and by scope (the writers: memories.py, memory_replace.py,
memory_delete.py); and the newest-first GSI reads brain entries share (`newest`). Every
partition read starts with the escaped tenant (items.py), so what it holds is the
tenant's, of the kind its key names.

The safe top-k word ranking (`topk.py`) reads an (area, term) list (`MPOST#<area>#<term>`,
ascending sort key = descending impact) page by page: one consistent Query per list and
step (`Limit` = the page size, from the previous page's `LastEvaluatedKey`), so a step is
one round trip (the first inside the lookup's stage). A list's length (its document
frequency) is known at its end, else counted beside its next page (Select=COUNT of what
follows the cursor; beyond `COUNT_CALLS` calls per list and step, on in the next step).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
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
from shared.storage.dynamo.calls import TableCalls, chunks, run_groups
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
    unexpired,
)
from shared.storage.dynamo.membership_hints import MembershipHints
from shared.storage.dynamo.memory_items import (
    MEMORY_POSTING,
    area_sk,
    memory_area_pk,
    memory_from_item,
    memory_posting_pk,
    memory_typ_pk,
)
from shared.storage.dynamo.projects import membership_query, projects_from_items
from shared.storage.values import to_us

ListKey = tuple[str, str]  # (area, term)
COUNT_CALLS: Final = 4


def newest[T](
    calls: TableCalls,
    read: Callable[[Item], T],
    gsi: tuple[str, str],
    pks: Sequence[str],
    limit: int,
    sort: ConditionBase | None = None,
    filter: ConditionBase | None = None,
) -> list[list[T]]:
    """Per partition `pk` of the GSI (index, partition key attribute; memories and brain
    entries alike) its items newest first (`read`), sort keys meeting `sort`, items
    `filter`ed server-side, at most `limit` each; all side by side in one stage, a page
    that ended early (1 MB, or filtered) continues in its task, only for that partition."""
    queries = [query(pk, index=gsi, sort=sort, filter=filter, ScanIndexForward=False) for pk in pks]
    pages = calls.query_many(queries, limit) if limit > 0 else [[] for _ in pks]
    return [list(map(read, page)) for page in pages]


def merged[T](pages: Iterable[Iterable[T]], order: Callable[[T], Any], limit: int) -> list[T]:
    """The newest `limit` of several partitions' pages (`order` descending)."""
    return sorted(chain(*pages), key=order, reverse=True)[:limit]


TYP: Final = (TYP_INDEX, TYP_PK)  # (GSI, its partition key attribute)
REF: Final = (REF_INDEX, REF_PK)


@dataclass(frozen=True)
class MemoryIndexReads:
    _calls: TableCalls
    _hints: MembershipHints
    _search: Callable[[VectorQuery], list[VectorHit]]

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
        """Stage 1 over the given areas and the member's hinted project areas
        (`MembershipHints`), side by side: the (area, term) lists' heads (`per_area_term`;
        with `words` their first pages), the stats, the membership, the recent memories, the
        QueryVectors (docs/dynamodb.md, `lookup_memory_terms`). Stage 2 only for project
        areas the membership read reveals beyond the hint; what was read of hinted areas it
        does not confirm is dropped (vector hits carry no area: the caller checks each on
        its memory). With `words`, one stage per further step while the top k is uncertain."""
        heads = sorted(set(terms)) if words is None else []
        tops = [] if words is None else list(words.terms)
        recent = recent if now is not None else 0
        live = unexpired(0 if now is None else to_us(now))
        recent_pk = partial(memory_typ_pk, tenant, MemoryType.SHORTTERM)
        read: dict[tuple[str, str | None], list[Item]] = {}  # (area, term; None: recent)
        pages: dict[ListKey, Page] = {}
        rankings: list[VectorRanking] = []

        def stage(over: Sequence[str], extra: Sequence[Item] = ()) -> list[list[Item]]:
            """One stage over areas `over` as said above, with the Queries `extra`: their
            items (pages continued in their tasks)."""
            keys = [(a, t) for a in over for t in heads] + [(a, None) for a in over if recent]
            queries = [
                query(recent_pk(a), index=TYP, filter=live, ScanIndexForward=False)
                if t is None
                else posting_query(tenant, a, t)
                for a, t in keys
            ]
            limits = [recent if t is None else per_area_term for _, t in keys]
            reads = self._calls.query_tasks([*queries, *extra], [*limits, *[None] * len(extra)])
            ask = None if vector is None else replace(vector, areas=frozenset(over))
            searches = [partial(VectorRanking.of, self._search, ask)] if ask is not None else []
            lists = [(a, t) for a in over for t in tops]
            size = 0 if words is None else words.budget.first_page
            firsts = [partial(_page, self._calls, tenant, key, None, size) for key in lists]
            items, ranked, first_pages = run_groups(
                self._calls.round_trips, [reads, searches, firsts]
            )
            read.update(zip(keys, items, strict=False))
            pages.update(zip(lists, first_pages, strict=True))
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
                postings.setdefault(term, []).extend(map(MEMORY_POSTING.read, items))
        latest = [
            map(memory_from_item, i) for (a, t), i in read.items() if a in final and t is None
        ]
        join = partial(VectorRanking.merged, limit=vector.limit) if vector else None
        vectors = reduce(join, rankings) if join is not None and rankings else None
        stats = stats_from_items(stats_items)
        ranking = None
        if words is not None:  # the top k from the first pages, then steps while asked
            lists = [(area, term) for area in final for term in words.terms]
            step = partial(read_step, self._calls, tenant)
            ranking = run(words, lists, stats, step, [pages[key] for key in lists])
        newest_ones = merged(latest, lambda m: m.id.number, recent)
        return MemoryTermLookup(postings, stats, projects, newest_ones, vectors, ranking)

    def stats(self, tenant: str) -> CorpusStats:
        return stats_from_items(self._calls.query_many([stats_query(tenant, MEMORY_STATS)])[0])

    def recent(
        self, tenant: str, typ: MemoryType, areas: Sequence[str], now: datetime, limit: int
    ) -> list[Memory]:
        """Per area its by_vk_typ partition `MTYP#<typ>#<area>`, live only (`newest`);
        merged, the newest `limit`."""
        pks = [memory_typ_pk(tenant, typ, area) for area in dict.fromkeys(areas)]
        live = unexpired(to_us(now))
        pages = newest(self._calls, memory_from_item, TYP, pks, limit, filter=live)
        return merged(pages, lambda m: m.id.number, limit)

    def by_areas(
        self,
        tenant: str,
        areas: Sequence[str],
        before: MemoryPosition | None,
        now: datetime,
        limit: int,
    ) -> list[Memory]:
        """Per distinct area its by_area partition strictly before `before`, live only
        (`newest`); merged, the newest `limit`."""
        sort = None if before is None else Key(AREA_SK).lt(area_sk(before))
        pks = [memory_area_pk(tenant, area) for area in dict.fromkeys(areas)]
        live = unexpired(to_us(now))
        pages = newest(self._calls, memory_from_item, (AREA_INDEX, AREA_PK), pks, limit, sort, live)
        return merged(pages, lambda m: MemoryPosition(m.created_at, m.id), limit)

    def by_scopes(
        self,
        tenant: str,
        scopes: Sequence[tuple[str, str]],
        now: datetime,
        limit: int,
        areas: Sequence[str] | None = None,
    ) -> dict[tuple[str, str], list[Memory]]:
        """Per distinct (scope, scope_vk) its by_reference partition `SCOPE#<scope>#<scope_vk>`
        (long-term memories only), live and with `areas` inside them (`newest`)."""
        pairs = list(dict.fromkeys(scopes))
        if areas is not None and not areas:
            return {}
        wanted_items = unexpired(to_us(now))
        if areas is not None:  # IN takes at most 100 operands
            inside = [Attr("area").is_in(part) for part in chunks(sorted(set(areas)), 100)]
            wanted_items &= reduce(operator.or_, inside)
        pks = [scope_ref_pk(tenant, *pair) for pair in pairs]
        pages = newest(self._calls, memory_from_item, REF, pks, limit, filter=wanted_items)
        return {pair: found for pair, found in zip(pairs, pages, strict=True) if found}


def posting_query(tenant: str, area: str, term: str) -> Item:
    """The (area, term) list, highest impact first (ascending sort key), consistent."""
    return query(memory_posting_pk(tenant, area, term), ConsistentRead=True)


def _page(calls: TableCalls, tenant: str, key: ListKey, cursor: object | None, size: int) -> Page:
    """One consistent Query page of list `key` after `cursor`: at most `size` postings."""
    start: dict[str, Any] = {} if cursor is None else {"ExclusiveStartKey": cursor}
    response = calls.client.query(
        TableName=calls.table, Limit=size, **posting_query(tenant, *key), **start
    )
    items = response.get("Items", [])
    return Page(list(map(MEMORY_POSTING.read, items)), response.get("LastEvaluatedKey"))


def _count_after(calls: TableCalls, tenant: str, key: ListKey, cursor: object | None) -> int | None:
    """How many postings follow `cursor` in the list (Select=COUNT pages of boto3's Query
    paginator); None when that takes more than `COUNT_CALLS` calls."""
    start: dict[str, Any] = {} if cursor is None else {"ExclusiveStartKey": cursor}
    pages = calls.client.get_paginator("query").paginate(
        TableName=calls.table, Select="COUNT", **posting_query(tenant, *key), **start
    )
    read = list(islice(pages, COUNT_CALLS))  # the paginator calls only as they are taken
    return None if "LastEvaluatedKey" in read[-1] else sum(page["Count"] for page in read)


def read_step(calls: TableCalls, tenant: str, requests: Sequence[PageRequest]) -> list[Page]:
    """One step: every request's page (and count, when asked) side by side."""
    reads = [partial(_page, calls, tenant, r.key, r.cursor, r.size) for r in requests]
    counts = [partial(_count_after, calls, tenant, r.key, r.cursor) for r in requests if r.count]
    pages, counted = run_groups(calls.round_trips, [reads, counts])
    remaining = iter(counted)
    return [
        replace(page, remaining=next(remaining)) if r.count else page
        for page, r in zip(pages, requests, strict=True)
    ]
