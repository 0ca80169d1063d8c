"""The memory index reads: postings per area and term, the sharded memory stats, recent
memories, listings by area and by scope (the writers: memory_records.py)."""

from __future__ import annotations

import logging
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
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
from shared.search.topk import Page, WordQuery, WordRanking, run
from shared.search.vectors import VectorHit, VectorQuery, VectorRanking
from shared.storage.dynamo.calls import QueryPages, TableCalls, run_groups
from shared.storage.dynamo.items import (
    AREA_INDEX,
    AREA_PK,
    AREA_SK,
    REF_INDEX,
    REF_PK,
    TYP_INDEX,
    TYP_PK,
    Item,
    expression,
    query,
    scope_ref_pk,
    stats_from_items,
    unexpired,
)
from shared.storage.dynamo.membership_hints import MembershipHints
from shared.storage.dynamo.memory_items import (
    area_sk,
    memory_area_pk,
    memory_from_item,
    memory_posting_from_item,
    memory_stats_pk,
    memory_typ_pk,
)
from shared.storage.dynamo.posting_pages import as_page, page_task, posting_query, read_step
from shared.storage.dynamo.projects import membership_query, projects_from_items

_log = logging.getLogger(__name__)


def vector_in(query: VectorQuery, areas: Sequence[str]) -> VectorQuery:
    """`query` over `areas` (the areas a lookup reads)."""
    return replace(query, areas=frozenset(areas))


def _recent_query(tenant: str, typ: MemoryType, area: str, now_us: int) -> Item:
    """One area's memories of one type in by_vk_typ, newest number first, live only."""
    typ_key = Key(TYP_PK).eq(memory_typ_pk(tenant, typ, area))
    found = expression(key=typ_key, filter=unexpired(now_us))
    return {"IndexName": TYP_INDEX, **found, "ScanIndexForward": False}


def _newest(
    tenant: str, typ: MemoryType, pages: Sequence[Sequence[Item]], limit: int
) -> list[Memory]:
    memories = [memory_from_item(item) for items in pages for item in items]
    live = [m for m in memories if m.tenant == tenant and m.id.typ is typ]
    live.sort(key=lambda m: m.id.number, reverse=True)
    return live[:limit]


@dataclass
class _Reads:
    """The Queries of one lookup stage, with their limits and what each one is for."""

    queries: list[Item] = field(default_factory=list)
    limits: list[int | None] = field(default_factory=list)
    postings: list[tuple[str, str, int]] = field(default_factory=list)  # (area, term, index)
    recent: list[tuple[str, int]] = field(default_factory=list)  # (area, index)

    def add(self, query: Item, limit: int | None) -> int:
        self.queries.append(query)
        self.limits.append(limit)
        return len(self.queries) - 1

    def areas(
        self,
        tenant: str,
        areas: Sequence[str],
        terms: Sequence[str],
        per_area_term: int,
        recent: int,
        now_us: int,
    ) -> None:
        for area in areas:
            for term in terms:
                index = self.add(posting_query(tenant, area, term), per_area_term)
                self.postings.append((area, term, index))
            if recent > 0:
                index = self.add(_recent_query(tenant, MemoryType.SHORTTERM, area, now_us), recent)
                self.recent.append((area, index))


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
        member: str | None,
        path: str | None,
        per_area_term: int,
        recent: int,
        now_us: int | None,
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
        wanted = [] if words is not None else sorted(set(terms))
        word_terms = [] if words is None else words.terms
        first_page = 0 if words is None else words.budget.first_page
        recent = recent if now_us is not None else 0
        now = now_us or 0
        hinted = None if member is None else self._hints.get(tenant, member)
        first = searched_areas(areas, hinted, path)
        reads = _Reads()
        reads.areas(tenant, first, wanted, per_area_term, recent, now)
        stats_at = reads.add(query(memory_stats_pk(tenant), ConsistentRead=True), None)
        member_at = None if member is None else reads.add(membership_query(tenant, member), None)
        heads = [(area, term) for area in first for term in word_terms]
        pages, vectors, head_pages = self._read(reads, vector, first, tenant, heads, first_page)
        projects = None if member_at is None else projects_from_items(pages[member_at])
        if member is not None and projects is not None:
            self._hints.put(tenant, member, projects)
        final = set(searched_areas(areas, projects, path))
        found: list[tuple[_Reads, list[list[Item]]]] = [(reads, pages)]
        missing = sorted(final - set(first))
        if missing:
            more = _Reads()
            more.areas(tenant, missing, wanted, per_area_term, recent, now)
            more_heads = [(area, term) for area in missing for term in word_terms]
            more_pages, more_vectors, more_head_pages = self._read(
                more, vector, missing, tenant, more_heads, first_page
            )
            found.append((more, more_pages))
            heads, head_pages = heads + more_heads, head_pages + more_head_pages
            if vectors is not None and more_vectors is not None and vector is not None:
                vectors = vectors.merged(more_vectors, vector.limit)
        postings: dict[str, list[MemoryPosting]] = {}
        recent_pages: list[list[Item]] = []
        for stage, stage_pages in found:
            for area, term, index in stage.postings:
                if area in final and stage_pages[index]:
                    postings.setdefault(term, []).extend(
                        memory_posting_from_item(item) for item in stage_pages[index]
                    )
            recent_pages += [stage_pages[i] for area, i in stage.recent if area in final]
        stats = stats_from_items(pages[stats_at])
        latest = _newest(tenant, MemoryType.SHORTTERM, recent_pages, recent) if recent else []
        ranking = None
        if words is not None:
            ranking = self._top_k(
                tenant, words, sorted(final), stats, dict(zip(heads, head_pages, strict=True))
            )
        return MemoryTermLookup(postings, stats, projects, latest, vectors, ranking)

    def _top_k(
        self,
        tenant: str,
        words: WordQuery,
        areas: Sequence[str],
        stats: CorpusStats,
        heads: dict[tuple[str, str], Page],
    ) -> WordRanking:
        """The top k from the first pages (read in the lookup's stages), then further steps
        (`posting_pages.read_step`) while the driver asks for them."""
        lists = [(area, term) for area in areas for term in words.terms]
        return run(
            words,
            lists,
            stats,
            partial(read_step, self._calls, tenant),
            [heads[key] for key in lists],
        )

    def _read(
        self,
        reads: _Reads,
        vector: VectorQuery | None,
        areas: Sequence[str],
        tenant: str = "",
        heads: Sequence[tuple[str, str]] = (),
        first_page: int = 0,
    ) -> tuple[list[list[Item]], VectorRanking | None, list[Page]]:
        """The Queries of `reads`, the first page of each list in `heads` and, with
        `vector`, its QueryVectors over `areas`: one stage (plus continued pages of the
        `reads`)."""
        pages = QueryPages(self._calls, reads.queries, limits=reads.limits)
        searches = []
        if vector is not None:
            searches.append(partial(VectorRanking.of, self._search, vector_in(vector, areas)))
        head_tasks = [page_task(self._calls, tenant, key, None, first_page) for key in heads]
        first, rankings, raw_heads = run_groups(
            self._calls.round_trips, [pages.tasks(), searches, head_tasks]
        )
        heads_read = [as_page(raw) for raw in raw_heads]
        return pages.finish(first), (rankings[0] if rankings else None), heads_read

    def stats(self, tenant: str) -> CorpusStats:
        (items,) = self._calls.query_many([query(memory_stats_pk(tenant), ConsistentRead=True)])
        return stats_from_items(items)

    def recent(
        self, tenant: str, typ: MemoryType, areas: Sequence[str], now_us: int, limit: int
    ) -> list[Memory]:
        """Per area one Query of its by_vk_typ partition `MTYP#<typ>#<area>`, newest number
        first, side by side; expired memories are filtered server-side, and a page that
        filtered some out continues (a further stage) until `limit` live memories are
        found or the partition ends. Merged, the newest `limit`."""
        wanted = list(dict.fromkeys(areas))
        if limit <= 0 or not wanted:
            return []
        queries = [_recent_query(tenant, typ, area, now_us) for area in wanted]
        return _newest(tenant, typ, self._calls.query_many(queries, limit), limit)

    def by_areas(
        self,
        tenant: str,
        areas: Sequence[str],
        before: MemoryPosition | None,
        now_us: int,
        limit: int,
    ) -> list[Memory]:
        """Per distinct area one Query of its by_area partition (newest first, strictly
        before `before`), all side by side in one stage; merged, the newest `limit`.
        Expired memories are filtered server-side; an area whose page filtered some out
        continues (a further stage) until `limit` live memories or the partition end."""
        wanted = list(dict.fromkeys(areas))
        if not wanted or limit <= 0:
            return []
        queries = []
        for area in wanted:
            area_key: ConditionBase = Key(AREA_PK).eq(memory_area_pk(tenant, area))
            if before is not None:
                area_key &= Key(AREA_SK).lt(area_sk(before))
            found = expression(key=area_key, filter=unexpired(now_us))
            queries.append({"IndexName": AREA_INDEX, **found, "ScanIndexForward": False})
        results = self._calls.query_many(queries, limit)
        memories = [memory_from_item(item) for items in results for item in items]
        memories = [m for m in memories if m.tenant == tenant]
        memories.sort(key=lambda m: MemoryPosition(m.created_at, m.id), reverse=True)
        return memories[:limit]

    def by_scopes(
        self,
        tenant: str,
        scopes: Sequence[tuple[str, str]],
        now_us: int,
        limit: int,
        areas: Sequence[str] | None = None,
    ) -> dict[tuple[str, str], list[Memory]]:
        """Per distinct (scope, scope_vk) one Query of its by_reference partition
        `SCOPE#<scope>#<scope_vk>`, all side by side in one stage, newest number first.
        Expired memories (and with `areas` those outside them: items from before areas,
        without the attribute, are checked on their derived area) are filtered server-side;
        only a pair whose page filtered some out continues (a further stage) until `limit`
        live memories or the partition end."""
        pairs = list(dict.fromkeys(scopes))
        if not pairs or limit <= 0 or (areas is not None and not areas):
            return {}
        wanted_filter = unexpired(now_us)
        if areas is not None:
            wanted = sorted(set(areas))
            inside = [  # IN takes at most 100 operands
                Attr("area").is_in(wanted[at : at + 100]) for at in range(0, len(wanted), 100)
            ]
            wanted_filter &= Attr("area").not_exists() | reduce(operator.or_, inside)
        queries = [
            {
                "IndexName": REF_INDEX,
                **expression(
                    key=Key(REF_PK).eq(scope_ref_pk(tenant, scope, scope_vk)),
                    filter=wanted_filter,
                ),
                "ScanIndexForward": False,
            }
            for scope, scope_vk in pairs
        ]
        found: dict[tuple[str, str], list[Memory]] = {}
        for pair, items in zip(pairs, self._calls.query_many(queries, limit), strict=True):
            memories = [memory_from_item(item) for item in items]
            live = [m for m in memories if m.tenant == tenant and m.id.typ is MemoryType.LONGTERM]
            if areas is not None:
                live = [m for m in live if m.area in areas]
            if live:
                found[pair] = live[:limit]
        return found
