"""Memory items, tombstones, memory postings and memory stats: keys and mapping (their
layout: docs/dynamodb.md, "Item types"). A posting's sort key starts with IMPACT_MAX -
impact (ascending = descending impact), so a search reads the head of each (area, term)
list of the caller's areas and nothing else. A posting's key is a pure function of the
stored memory (area, term, tf, doc_len, ID), so writers recompute the keys of a stored
version's postings (`posting_keys`). Every posting also carries its memory's
near-duplicate sign (`dup`) and whether its term is one of the memory text's
(`text_term`), so that a write's duplicate check decides from its postings read which
stored memories it must load (services/duplicates.py).

Invariants:
- **The item names every posting its memory may have** (`named_keys`): its own version's
  and, while a replace's postings diff is not known complete, the old version's keys it
  dropped (`stale`, memory_replace.py). A delete puts a tombstone naming all of them in
  the item's place until they are deleted (memory_delete.py); it keeps the memory's
  `by_expiry` keys, so the sweep finds it too.
- A memory counts in the memory stats exactly while its item exists: the stats shard
  (`memory_shard`) changes only in the transaction that puts, replaces or deletes it.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Set
from typing import Any, Final

from shared.domain import Memory, MemoryId, MemoryPosition, MemoryPosting, MemoryType
from shared.search.duplicates import decode_sign, encode_sign, memory_sign, term_set
from shared.search.postings import IMPACT_MAX, posting_impact
from shared.storage.dynamo.calls import item_key
from shared.storage.dynamo.index_writer import KeyId
from shared.storage.dynamo.items import (
    AREA_PK,
    AREA_SK,
    EXP_PK,
    EXP_SK,
    JSON,
    MEMORY_STATS,
    REF_PK,
    REF_SK,
    SK,
    TTL_ATTRIBUTE,
    TYP_PK,
    TYP_SK,
    Item,
    Kind,
    codec,
    get_s,
    key,
    memory_key,
    memory_pk,
    n,
    opt_s,
    padded,
    s,
    scope_ref_pk,
    stats_key,
    tenant_prefix,
    ttl,
)
from shared.storage.values import opt_us, to_us

# Partitions of the by_expiry GSI. Only ever increase it: the sweep queries 0..N-1, so
# items keyed with a smaller N stay reachable.
EXPIRY_SHARDS: Final = 16
SK_GONE: Final = "GONE"  # a deleted memory's tombstone, in its partition
STALE: Final = "stale"
TOMBSTONE_S: Final = 86_400  # a tombstone outlives a cut-off delete's postings this long (TTL)

# --- keys -------------------------------------------------------------------------------


def memory_typ_pk(tenant: str, typ: MemoryType, area: str) -> str:
    """by_vk_typ partition of one area's memories of one type (the brain's is BTYP)."""
    return tenant_prefix(tenant, "MTYP", MemoryType(typ).value, area)


def memory_area_pk(tenant: str, area: str) -> str:
    """by_area partition of one area's memories (`users/42`, `teams/x`, `projects/y`)."""
    return tenant_prefix(tenant, "AREA", area)


def area_sk(position: MemoryPosition) -> str:
    """Sorts like the position: created_us, then type, then number (fixed widths)."""
    memory_id = position.memory_id
    typ = MemoryType(memory_id.typ).value
    return f"{padded(to_us(position.created_at))}#{typ}#{padded(memory_id.number)}"


def memory_posting_pk(tenant: str, area: str, term: str) -> str:
    """The posting list of one term in one area."""
    return tenant_prefix(tenant, "MPOST", area, term)


def memory_posting_key(
    tenant: str, area: str, term: str, tf: int, doc_len: int, memory_id: MemoryId
) -> Item:
    """Sorted by descending impact, then by ID (typ, number)."""
    rank = IMPACT_MAX - posting_impact(tf, doc_len)
    sk = f"{rank:05d}#{MemoryType(memory_id.typ).value}_{padded(memory_id.number)}"
    return key(memory_posting_pk(tenant, area, term), sk)


def expiry_pk(shard: int) -> str:
    return f"EXP#{shard}"


def expiry(tenant: str, memory_id: MemoryId, expires_us: int | None) -> Item:
    """The expiry attributes of a memory's item and tombstone: the TTL and, short-term
    only, the by_expiry GSI keys."""
    if expires_us is None or memory_id.typ is not MemoryType.SHORTTERM:
        return ttl(expires_us)
    shard = zlib.crc32(f"{tenant}\x00{memory_id}".encode()) % EXPIRY_SHARDS  # all tenants'
    return ttl(expires_us) | {EXP_PK: s(expiry_pk(shard)), EXP_SK: n(expires_us)}


# --- memory items -----------------------------------------------------------------------

MEMORY: Final = codec(
    Memory,
    id="memory_id",
    created_at="created_us",
    updated_at="updated_us",
    expires_at="expires_us",
    last_call="last_call_us",
    gueltig_bis="gueltig_us",
    embedding_key=None,
)
# A replace rewrites every stored attribute of the memory and its index attributes except
# these: identity, created_us, scores, last_call_us and write_id stay as stored; version
# and embedding_key the replace sets itself.
_KEPT: Final = {"tenant", "memory_id", "created_us", "score_count", "score_sum", "last_call_us"}
_SET_BY_REPLACE: Final = {"version", "embedding_key"}
_INDEX: Final = (TTL_ATTRIBUTE, REF_PK, REF_SK, TYP_PK, TYP_SK, EXP_PK, EXP_SK, AREA_PK, AREA_SK)
REPLACED_ATTRIBUTES: Final[tuple[str, ...]] = (
    *(name for name in MEMORY.attributes if name not in _KEPT | _SET_BY_REPLACE),
    *_INDEX,
)
MEMORY_POSTING: Final = codec(
    MemoryPosting,
    entry_id="memory_id",
    expires_at="expires_us",
    # the near-duplicate check's data (MemoryPosting): the term is one of the text's, the sign
    sign=("dup", Kind(encode_sign, decode_sign)),
)


def memory_item(m: Memory, *, write_id: str, embedding_key: str | None) -> Item:
    """The item of a new memory. `write_id` identifies this write (idempotent retries)."""
    typ = MemoryType(m.id.typ)
    item: Item = {
        **memory_key(m.tenant, m.id),
        **MEMORY.item(m),
        "write_id": s(write_id),
        TYP_PK: s(memory_typ_pk(m.tenant, typ, m.area)),
        TYP_SK: n(m.id.number),
        AREA_PK: s(memory_area_pk(m.tenant, m.area)),
        AREA_SK: s(area_sk(MemoryPosition(m.created_at, m.id))),
    }
    item |= expiry(m.tenant, m.id, opt_us(m.expires_at))
    if embedding_key is not None:
        item["embedding_key"] = s(embedding_key)
    if typ is MemoryType.LONGTERM:
        item[REF_PK] = s(scope_ref_pk(m.tenant, m.scope, m.scope_vk))
        item[REF_SK] = n(m.id.number)
    return item


def memory_from_item(item: Mapping[str, Any]) -> Memory:
    return MEMORY.read(item, embedding_key=opt_s(item, "embedding_key"))


# --- memory postings and stats ----------------------------------------------------------


def postings(m: Memory) -> list[Item]:
    """Every posting of `m` (terms with tf > 0). A posting carries what search filters on
    before loading memories (nutzer, area, expiry; a short-term memory's TTL, so TTL
    removes it too) and the near-duplicate data (module docstring)."""
    sign, text, expiry_ttl = memory_sign(m), term_set(m.memory), ttl(opt_us(m.expires_at))
    found: list[Item] = []
    for term, tf in m.terms.items():
        if tf > 0:
            posting = MemoryPosting(
                m.id, tf, m.doc_len, m.nutzer, m.expires_at, m.area, term in text, sign
            )
            at = memory_posting_key(m.tenant, m.area, term, tf, m.doc_len, m.id)
            found.append(at | MEMORY_POSTING.item(posting) | expiry_ttl)
    return found


def posting_keys(m: Memory) -> set[KeyId]:
    """The keys of `postings(m)`."""
    return {
        item_key(memory_posting_key(m.tenant, m.area, term, tf, m.doc_len, m.id))
        for term, tf in m.terms.items()
        if tf > 0
    }


def memory_shard(tenant: str, memory_id: MemoryId) -> Item:
    return stats_key(tenant, MEMORY_STATS, memory_id)


def stale_attribute(keys: Set[KeyId]) -> Item:
    """Posting keys that may exist beyond what the item's version has (sorted JSON)."""
    return {STALE: s(JSON.put(sorted(keys)))}


def named_keys(item: Mapping[str, Any]) -> set[KeyId]:
    """Every posting key a stored memory item or tombstone names: its `stale` ones and,
    for an item, its version's."""
    stale = JSON.get(get_s(item, STALE)) if STALE in item else []
    named = {(str(pk), str(sk)) for pk, sk in stale}
    if get_s(item, SK) == SK_GONE:
        return named
    return named | posting_keys(memory_from_item(item))


def tombstone_item(m: Memory, names: Set[KeyId], now_us: int) -> Item:
    """What a delete leaves of `m` until the postings `names` are gone (then dropped; TTL
    a day after `now_us` otherwise), with its by_expiry keys for the sweep."""
    item: Item = {**key(memory_pk(m.tenant, m.id), SK_GONE), "tenant": s(m.tenant)}
    item |= {"memory_id": s(str(m.id)), **stale_attribute(names)}
    item |= expiry(m.tenant, m.id, opt_us(m.expires_at))
    return item | ttl(now_us + TOMBSTONE_S * 1_000_000)
