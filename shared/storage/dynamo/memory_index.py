"""The memory search index (postings per term, sharded memory stats) and the index reads.

Writers (memories.py, memory_delete.py) put their postings and stats changes into the same
stage as their other calls: postings through `calls.BatchWrite`, stats through
`StatsDelta.tasks()` — one plain `UpdateItem ADD` per touched stats shard, never inside a
transaction, so that parallel writers of one tenant never cancel each other.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from shared.domain import (
    CorpusStats,
    Memory,
    MemoryId,
    MemoryPosition,
    MemoryPosting,
    MemoryTermLookup,
    MemoryType,
)
from shared.storage.dynamo.calls import AWS_ERRORS, TableCalls
from shared.storage.dynamo.items import (
    AREA_INDEX,
    AREA_PK,
    AREA_SK,
    PK,
    REF_INDEX,
    REF_PK,
    TYP_INDEX,
    TYP_PK,
    Item,
    n,
    s,
    scope_ref_pk,
    stats_from_items,
)
from shared.storage.dynamo.memory_items import (
    area_sk,
    memory_area_pk,
    memory_from_item,
    memory_posting_from_item,
    memory_stats_key,
    memory_stats_pk,
    memory_stats_shard,
    memory_term_pk,
    memory_typ_pk,
)
from shared.storage.dynamo.projects import membership_query, projects_from_items

_log = logging.getLogger(__name__)

ShardKey = tuple[str, int]  # (tenant, stats shard)


@dataclass
class StatsDelta:
    """Changes of the memory stats, summed per (tenant, shard)."""

    changes: dict[ShardKey, list[int]] = field(default_factory=dict)

    @staticmethod
    def shard_of(tenant: str, memory_id: MemoryId) -> ShardKey:
        return tenant, memory_stats_shard(memory_id)

    def add(self, tenant: str, memory_id: MemoryId, documents: int, total_len: int) -> None:
        change = self.changes.setdefault(self.shard_of(tenant, memory_id), [0, 0])
        change[0] += documents
        change[1] += total_len

    def tasks(self, calls: TableCalls) -> tuple[list[ShardKey], list[Callable[[], bool]]]:
        """One UpdateItem per shard that changes; each task returns whether it succeeded."""
        shards = [shard for shard, (docs, total) in self.changes.items() if docs or total]
        tasks: list[Callable[[], bool]] = [
            partial(_update_stats, calls, shard, *self.changes[shard]) for shard in shards
        ]
        return shards, tasks


def _update_stats(calls: TableCalls, shard: ShardKey, documents: int, total_len: int) -> bool:
    try:
        calls.client.update_item(
            TableName=calls.table,
            Key=memory_stats_key(*shard),
            UpdateExpression="ADD #documents :documents, #total :total",
            ExpressionAttributeNames={"#documents": "documents", "#total": "total_len"},
            ExpressionAttributeValues={":documents": n(documents), ":total": n(total_len)},
        )
    except AWS_ERRORS as exc:
        _log.warning("memory stats %s (%+d, %+d): %s", shard, documents, total_len, exc)
        return False
    return True


def failed_shards(shards: Sequence[ShardKey], outcomes: Sequence[bool]) -> set[ShardKey]:
    return {shard for shard, ok in zip(shards, outcomes, strict=True) if not ok}


def _query(pk: str, **extra: Any) -> Item:
    return {
        "KeyConditionExpression": "#pk = :pk",
        "ExpressionAttributeNames": {"#pk": PK},
        "ExpressionAttributeValues": {":pk": s(pk)},
        **extra,
    }


class MemoryIndexReads:
    def __init__(self, calls: TableCalls) -> None:
        self._calls = calls

    def lookup(self, tenant: str, terms: Sequence[str], member: str | None) -> MemoryTermLookup:
        """One consistent Query per term, the stats Query and (with `member`) the Query of
        the member's projects, all in one stage."""
        wanted = list(dict.fromkeys(terms))
        queries = [_query(memory_term_pk(tenant, t), ConsistentRead=True) for t in wanted]
        queries.append(_query(memory_stats_pk(tenant), ConsistentRead=True))
        if member is not None:
            queries.append(membership_query(tenant, member))
        pages = self._calls.query_many(queries)
        postings: dict[str, list[MemoryPosting]] = {}
        for term, items in zip(wanted, pages, strict=False):
            if items:
                postings[term] = [memory_posting_from_item(item) for item in items]
        stats = stats_from_items(pages[len(wanted)])
        projects = None if member is None else projects_from_items(pages[-1])
        return MemoryTermLookup(postings, stats, projects)

    def stats(self, tenant: str) -> CorpusStats:
        (items,) = self._calls.query_many([_query(memory_stats_pk(tenant), ConsistentRead=True)])
        return stats_from_items(items)

    def recent(self, tenant: str, typ: MemoryType, now_us: int, limit: int) -> list[Memory]:
        """The by_vk_typ partition `MTYP#<typ>`, newest number first; expired memories are
        filtered server-side, and a page that filtered some out continues (a further
        stage) until `limit` live memories are found or the partition ends."""
        if limit <= 0:
            return []
        query: Item = {
            "IndexName": TYP_INDEX,
            "KeyConditionExpression": "#pk = :pk",
            "FilterExpression": "attribute_not_exists(#expires) OR #expires > :now",
            "ExpressionAttributeNames": {"#pk": TYP_PK, "#expires": "expires_us"},
            "ExpressionAttributeValues": {
                ":pk": s(memory_typ_pk(tenant, typ)),
                ":now": n(now_us),
            },
            "ScanIndexForward": False,
        }
        (items,) = self._calls.query_many([query], limit)
        memories = [memory_from_item(item) for item in items]
        return [m for m in memories if m.tenant == tenant and m.id.typ is typ][:limit]

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
        names = {"#pk": AREA_PK, "#expires": "expires_us"}
        condition = "#pk = :pk"
        bound: Item = {}
        if before is not None:
            names["#sk"] = AREA_SK
            condition += " AND #sk < :before"
            bound = {":before": s(area_sk(before))}
        queries = [
            {
                "IndexName": AREA_INDEX,
                "KeyConditionExpression": condition,
                "FilterExpression": "attribute_not_exists(#expires) OR #expires > :now",
                "ExpressionAttributeNames": names,
                "ExpressionAttributeValues": {
                    ":pk": s(memory_area_pk(tenant, area)),
                    ":now": n(now_us),
                    **bound,
                },
                "ScanIndexForward": False,
            }
            for area in wanted
        ]
        results = self._calls.query_many(queries, limit)
        memories = [memory_from_item(item) for items in results for item in items]
        memories = [m for m in memories if m.tenant == tenant]
        memories.sort(key=lambda m: MemoryPosition(m.created_at, m.id), reverse=True)
        return memories[:limit]

    def by_scopes(
        self, tenant: str, scopes: Sequence[tuple[str, str]], now_us: int, limit: int
    ) -> dict[tuple[str, str], list[Memory]]:
        """Per distinct (scope, scope_vk) one Query of its by_reference partition
        `SCOPE#<scope>#<scope_vk>`, all side by side in one stage, newest number first.
        Expired memories are filtered server-side; only a pair whose page filtered some
        out continues (a further stage) until `limit` live memories or the partition end."""
        pairs = list(dict.fromkeys(scopes))
        if not pairs or limit <= 0:
            return {}
        queries: list[Item] = [
            {
                "IndexName": REF_INDEX,
                "KeyConditionExpression": "#pk = :pk",
                "FilterExpression": "attribute_not_exists(#expires) OR #expires > :now",
                "ExpressionAttributeNames": {"#pk": REF_PK, "#expires": "expires_us"},
                "ExpressionAttributeValues": {
                    ":pk": s(scope_ref_pk(tenant, scope, scope_vk)),
                    ":now": n(now_us),
                },
                "ScanIndexForward": False,
            }
            for scope, scope_vk in pairs
        ]
        found: dict[tuple[str, str], list[Memory]] = {}
        for pair, items in zip(pairs, self._calls.query_many(queries, limit), strict=True):
            memories = [memory_from_item(item) for item in items]
            live = [m for m in memories if m.tenant == tenant and m.id.typ is MemoryType.LONGTERM]
            if live:
                found[pair] = live[:limit]
        return found
