"""The memory index reads: postings per area and term, the sharded memory stats, recent
memories, listings by area and by scope (the writers: memory_records.py)."""

from __future__ import annotations

import logging
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial, reduce

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
from shared.search.topk import Page, WordQuery, run
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
    memory_typ_pk,
)
from shared.storage.dynamo.posting_pages import as_page, page_task, posting_query, read_step
from shared.storage.dynamo.projects import membership_query, projects_from_items

_log = logging.getLogger(__name__)

ListKey = tuple[str, str]  # (area, term)


def _newest_first(
    index: str,
    attribute: str,
    pk: str,
    now_us: int,
    sort: ConditionBase | None = None,
    also: ConditionBase | None = None,
) -> Item:
    """The live memories of one GSI partition (sort keys meeting `sort`, items `also`
    meeting that filter), newest first."""
    live = unexpired(now_us) if also is None else unexpired(now_us) & also
    return query(
        pk, attribute=attribute, index=index, sort=sort, filter=live, ScanIndexForward=False
    )


def _recent_query(tenant: str, typ: MemoryType, area: str, now_us: int) -> Item:
    """One area's memories of one type in by_vk_typ, newest number first, live only."""
    return _newest_first(TYP_INDEX, TYP_PK, memory_typ_pk(tenant, typ, area), now_us)


def _newest(
    tenant: str, typ: MemoryType, pages: Sequence[Sequence[Item]], limit: int
) -> list[Memory]:
    memories = [memory_from_item(item) for items in pages for item in items]
    live = [m for m in memories if m.tenant == tenant and m.id.typ is typ]
    live.sort(key=lambda m: m.id.number, reverse=True)
    return live[:limit]


@dataclass(frozen=True)
class _Ask:
    """What a lookup reads of each area it reads."""

    terms: list[str]  # lists whose head (`per_area_term`) is read
    per_area_term: int
    words: list[str]  # lists whose first page (`first_page`) is read, for the top k
    first_page: int
    recent: int
    now_us: int
    vector: VectorQuery | None


@dataclass(frozen=True)
class _Stage:
    """What one stage of a lookup read of its areas."""

    heads: dict[ListKey, list[Item]]
    pages: dict[ListKey, Page]
    recent: dict[str, list[Item]]
    vectors: VectorRanking | None
    extra: list[list[Item]]


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
        ask = _Ask(
            [] if words is not None else sorted(set(terms)),
            per_area_term,
            [] if words is None else list(words.terms),
            0 if words is None else words.budget.first_page,
            recent if now is not None else 0,
            0 if now is None else to_us(now),
            vector,
        )
        hinted = None if member is None else self._hints.get(tenant, member)
        first = searched_areas(areas, hinted, path)
        extra = [stats_query(tenant, MEMORY_STATS)]
        if member is not None:
            extra.append(membership_query(tenant, member))
        stages = [self._stage(tenant, first, ask, extra)]
        projects = None
        if member is not None:
            projects = projects_from_items(stages[0].extra[1])
            self._hints.put(tenant, member, projects)
        final = searched_areas(areas, projects, path)
        missing = sorted(set(final) - set(first))
        if missing:
            stages.append(self._stage(tenant, missing, ask))
        postings: dict[str, list[MemoryPosting]] = {}
        recent_pages: list[list[Item]] = []
        pages: dict[ListKey, Page] = {}
        for stage in stages:
            for (area, term), items in stage.heads.items():
                if area in final and items:
                    found = postings.setdefault(term, [])
                    found.extend(memory_posting_from_item(item) for item in items)
            recent_pages += [items for area, items in stage.recent.items() if area in final]
            pages.update(stage.pages)
        vectors = stages[0].vectors
        for later in stages[1:]:
            if vector is not None and vectors is not None and later.vectors is not None:
                vectors = vectors.merged(later.vectors, vector.limit)
        stats = stats_from_items(stages[0].extra[0])
        latest = _newest(tenant, MemoryType.SHORTTERM, recent_pages, ask.recent)
        ranking = None
        if words is not None:  # the top k from the first pages, then steps while asked
            lists = [(area, term) for area in final for term in words.terms]
            step = partial(read_step, self._calls, tenant)
            ranking = run(words, lists, stats, step, [pages[key] for key in lists])
        return MemoryTermLookup(postings, stats, projects, latest, vectors, ranking)

    def _stage(
        self, tenant: str, areas: Sequence[str], ask: _Ask, extra: Sequence[Item] = ()
    ) -> _Stage:
        """One stage over `areas`: the Queries of the list heads, the recent memories and
        `extra` (pages continued in their tasks), the first page of each word list and
        the QueryVectors over the areas, side by side."""
        heads = [(area, term) for area in areas for term in ask.terms]
        lists = [(area, term) for area in areas for term in ask.words]
        recent = list(areas) if ask.recent > 0 else []
        queries = [posting_query(tenant, *list_key) for list_key in heads]
        queries += [_recent_query(tenant, MemoryType.SHORTTERM, a, ask.now_us) for a in recent]
        queries += extra
        limits = [ask.per_area_term] * len(heads) + [ask.recent] * len(recent)
        reads = self._calls.query_tasks(queries, [*limits, *[None] * len(extra)])
        searches = []
        if ask.vector is not None:
            over = replace(ask.vector, areas=frozenset(areas))
            searches.append(partial(VectorRanking.of, self._search, over))
        firsts = [page_task(self._calls, tenant, key, None, ask.first_page) for key in lists]
        found, rankings, raw_pages = run_groups(self._calls.round_trips, [reads, searches, firsts])
        return _Stage(
            dict(zip(heads, found, strict=False)),
            dict(zip(lists, map(as_page, raw_pages), strict=True)),
            dict(zip(recent, found[len(heads) :], strict=False)),
            rankings[0] if rankings else None,
            found[len(limits) :],
        )

    def stats(self, tenant: str) -> CorpusStats:
        (items,) = self._calls.query_many([stats_query(tenant, MEMORY_STATS)])
        return stats_from_items(items)

    def recent(
        self, tenant: str, typ: MemoryType, areas: Sequence[str], now: datetime, limit: int
    ) -> list[Memory]:
        """Per area one Query of its by_vk_typ partition `MTYP#<typ>#<area>`, newest number
        first, side by side; expired memories are filtered server-side, and a page that
        filtered some out continues (in its task) until `limit` live memories are
        found or the partition ends. Merged, the newest `limit`."""
        wanted = list(dict.fromkeys(areas))
        if limit <= 0 or not wanted:
            return []
        queries = [_recent_query(tenant, typ, area, to_us(now)) for area in wanted]
        return _newest(tenant, typ, self._calls.query_many(queries, limit), limit)

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
        wanted = list(dict.fromkeys(areas))
        if not wanted or limit <= 0:
            return []
        sort = None if before is None else Key(AREA_SK).lt(area_sk(before))
        queries = [
            _newest_first(AREA_INDEX, AREA_PK, memory_area_pk(tenant, area), to_us(now), sort)
            for area in wanted
        ]
        results = self._calls.query_many(queries, limit)
        memories = [memory_from_item(item) for items in results for item in items]
        memories = [m for m in memories if m.tenant == tenant]
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
        if not pairs or limit <= 0 or (areas is not None and not areas):
            return {}
        inside = None
        if areas is not None:
            wanted = sorted(set(areas))
            inside = reduce(  # IN takes at most 100 operands
                operator.or_,
                [Attr("area").is_in(wanted[at : at + 100]) for at in range(0, len(wanted), 100)],
            )
        queries = [
            _newest_first(REF_INDEX, REF_PK, scope_ref_pk(tenant, *pair), to_us(now), also=inside)
            for pair in pairs
        ]
        found: dict[tuple[str, str], list[Memory]] = {}
        for pair, items in zip(pairs, self._calls.query_many(queries, limit), strict=True):
            memories = [memory_from_item(item) for item in items]
            live = [m for m in memories if m.tenant == tenant and m.id.typ is MemoryType.LONGTERM]
            if live:
                found[pair] = live[:limit]
        return found
