"""Index records: what the memory search index and the memory stats hold of one memory.

    index record   T#<t>#MEM#<typ>_<n>   IDX   area, doc_len, terms (JSON), version,
                                               write_id, expires_at (TTL, as the memory's),
                                               short-term: exp_pk/exp_sk as the memory's,
                                               stale (JSON key list) while a replace runs

Invariants:
- **Counted == recorded.** A memory counts in the memory stats exactly when its index
  record exists and is no tombstone (`gone`: uncounted with its deleted item), and the
  record's `doc_len` is what it adds to `total_len`: a record changes only in a `Count`
  with its stats change (index_writer.py), conditioned absent / on the version read / on
  the write that put it, so a resend that meets the condition counts nothing twice.
- **Record and item together name every posting the memory may have.** The record's
  `terms` (area, doc_len, ID give the keys) are what the index held when the record was
  written; the item names its own version's; `stale` the keys of the version before
  that a replace is still deleting. A replace moves item and record in one transaction
  beside its postings and clears `stale` once they are complete (memory_replace.py); a
  delete makes the record a tombstone with the item's Delete and drops it once the
  postings of both are gone (memory_delete.py). So
  wherever a crash cut a write off, the record still says what is counted and which
  postings may be left, and the resend finishes from there.
- A memory item has its record from its first write on: the insert puts both in one
  transaction with the stats (memories.py).
- Records never take part in searches or listings; the delete's partition Query reads
  them with the item and the ratings. Records of short-term memories carry the memory's
  `by_expiry` keys, so the expiry sweep also finds the tombstone a cut-off sweep left
  behind (its item, and with it the item's GSI entry, already gone) and finishes it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from boto3.dynamodb.conditions import Attr, ConditionBase
from boto3.dynamodb.types import TypeDeserializer

from shared.domain import Memory, MemoryId, MemoryType
from shared.storage.dynamo.index_writer import Count
from shared.storage.dynamo.items import (
    EXP_PK,
    EXP_SK,
    JSON,
    PK,
    TTL_ATTRIBUTE,
    Item,
    Kind,
    action,
    codec,
    get_json,
    js,
    key,
    memory_pk,
    n,
    s,
    to_us,
    ttl_seconds,
)
from shared.storage.dynamo.memory_items import (
    expiry_pk,
    expiry_shard,
    key_id,
    memory_posting_key,
    memory_stats_key,
    memory_stats_shard,
)

SK_INDEX: Final = "IDX"
STALE: Final = "stale"
GONE: Final = "gone"

KeyId = tuple[str, str]
PLAIN: Final = TypeDeserializer()  # attribute values as plain values for conditions


def record_key(tenant: str, memory_id: MemoryId) -> Item:
    return key(memory_pk(tenant, memory_id), SK_INDEX)


@dataclass(frozen=True)
class IndexRecord:
    tenant: str
    memory_id: MemoryId
    area: str
    doc_len: int
    terms: Mapping[str, int]
    version: int
    write_id: str
    expires_us: int | None = None
    # Posting keys of the version before, which a replace deletes beside writing this
    # record (memory_replace.py): until that replace clears them, they may still exist.
    stale: frozenset[KeyId] = frozenset()
    # A tombstone: its memory was deleted and uncounted in one transaction; it names the
    # postings until the delete has removed them (memory_delete.py), then goes (or TTL).
    gone: bool = False

    def posting_keys(self) -> set[KeyId]:
        """The keys of every posting the index may hold of this memory: the recorded
        version's, and the stale ones of the version before."""
        return {
            key_id(memory_posting_key(self.tenant, self.area, t, tf, self.doc_len, self.memory_id))
            for t, tf in self.terms.items()
            if tf > 0
        } | self.stale


def record_of(m: Memory, *, version: int, write_id: str) -> IndexRecord:
    expires = None if m.expires_at is None else to_us(m.expires_at)
    terms = {t: tf for t, tf in m.terms.items() if tf > 0}
    return IndexRecord(m.tenant, m.id, m.area, m.doc_len, terms, version, write_id, expires)


# Terms are stored sorted, so that a record of the same version always has the same bytes
# (counts_snapshot compares them).
_TERMS: Final = Kind(
    lambda terms: JSON.put(dict(sorted(terms.items()))),
    lambda stored: {str(t): int(tf) for t, tf in JSON.get(stored).items()},
)
RECORD: Final = codec(IndexRecord, terms=_TERMS, stale=None, gone=None)


def record_item(r: IndexRecord) -> Item:
    item: Item = {**record_key(r.tenant, r.memory_id), "kind": s("memory_index"), **RECORD.item(r)}
    if r.expires_us is not None:
        item[TTL_ATTRIBUTE] = n(ttl_seconds(r.expires_us))
        if r.memory_id.typ is MemoryType.SHORTTERM:
            item[EXP_PK] = s(expiry_pk(expiry_shard(r.tenant, r.memory_id)))
            item[EXP_SK] = n(r.expires_us)
    if r.stale:
        item[STALE] = js(sorted(r.stale))
    return item


def record_from_item(item: Mapping[str, Any]) -> IndexRecord:
    stale = get_json(item, STALE) if STALE in item else []
    return IndexRecord(
        **RECORD.fields(item),
        stale=frozenset((str(pk), str(sk)) for pk, sk in stale),
        gone=GONE in item,
    )


def counts_snapshot(m: Memory) -> ConditionBase:
    """The condition that a record counts exactly `m` as read (area, doc_len and terms as
    its item has them; nothing stale, no tombstone)."""
    expected = record_item(record_of(m, version=0, write_id=""))
    condition: ConditionBase = Attr(STALE).not_exists() & Attr(GONE).not_exists()
    for name in ("area", "doc_len", "terms"):
        condition &= Attr(name).eq(PLAIN.deserialize(expected[name]))
    return condition


def memory_shard(tenant: str, memory_id: MemoryId) -> Item:
    return memory_stats_key(tenant, memory_stats_shard(memory_id))


def count_put[Owner: Hashable](
    owner: Owner, record: IndexRecord, documents: int, total_len: int, expected: int | None
) -> Count[Owner]:
    """Put `record`, conditioned on no record (`expected` None) or on the version read."""
    condition = Attr(PK).not_exists() if expected is None else Attr("version").eq(expected)
    put = action("Put", condition, all_old=True, Item=record_item(record))
    return Count(owner, memory_shard(record.tenant, record.memory_id), put, documents, total_len)


def count_delete[Owner: Hashable](owner: Owner, record: IndexRecord) -> Count[Owner]:
    """Delete `record` as it was read or written (version and write) and uncount it."""
    condition = Attr("version").eq(record.version) & Attr("write_id").eq(record.write_id)
    at = record_key(record.tenant, record.memory_id)
    delete = action("Delete", condition, all_old=True, Key=at)
    return Count(owner, memory_shard(record.tenant, record.memory_id), delete, -1, -record.doc_len)
