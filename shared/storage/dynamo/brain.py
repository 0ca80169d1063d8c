"""Brain entries and their search index: postings per term, sharded corpus stats
(docs/dynamodb.md, "Brain entries and the search index"; the memories' mechanism,
`write_index`).

Invariants:
- An entry and its stats shard change together (per shard one TransactWriteItems): a
  create conditioned absent, a replace on the stored version being `previous`, sent again
  against what is stored (the last writer wins, the delta is exact). Writes of one ID in
  one batch apply in order, one per round.
- **The entry names every posting it may have**: a replace keeps each term of `previous`
  it drops with tf 0 (a mark), so its postings diff runs beside the transaction; the
  marks are cleared (deferred) once the diff is complete, and kept when postings still
  fail (STORAGE): the resend or any next upsert deletes them. A write that does not apply
  has its postings made the stored entry's again (best effort; a posting whose entry
  lacks the term is no hit).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from functools import partial

from boto3.dynamodb.conditions import Attr, ConditionBase

from shared.domain import (
    BrainEntry,
    BrainWrite,
    CorpusStats,
    EntryFailure,
    EntryFailureCode,
    TermLookup,
    VkTyp,
)
from shared.storage.dynamo.calls import AWS_ERRORS, TableCalls, error_code, item_key
from shared.storage.dynamo.index_writer import Count, Outcome, postings_diff, write_index
from shared.storage.dynamo.items import (
    BRAIN,
    BRAIN_STATS,
    JSON,
    PK,
    POSTING,
    Item,
    action,
    brain_item,
    brain_key,
    brain_ref_pk,
    brain_typ_pk,
    expression,
    posting_item,
    posting_key,
    query,
    stats_from_items,
    stats_key,
    stats_query,
    term_pk,
)
from shared.storage.dynamo.memory_index import REF, TYP, merged, newest
from shared.storage.values import to_us

_log = logging.getLogger(__name__)

_UNINDEXED = "search index not updated; send the entry again"


class BrainIndex:
    def __init__(self, calls: TableCalls, max_retries: int) -> None:
        self._calls = calls
        self._max_retries = max_retries

    # --- writes -------------------------------------------------------------------------

    def put(self, writes: Sequence[BrainWrite]) -> list[EntryFailure | None]:
        """The first write of each entry ID as one round, the later ones (a replace from
        what the round wrote) as the next `put`, in order."""
        for w in writes:  # programming errors surface before anything is written
            _count(0, _version(w.entry, w.previous), w.previous)
        first = {_key(w.entry): i for i, w in reversed(list(enumerate(writes)))}  # ID's first
        results, applied = self._round({i: writes[i] for i in sorted(first.values())})
        stored = {_key(entry): entry for entry in applied.values()}
        later = [i for i in range(len(writes)) if i not in results]
        again = [  # a create stays one; a replace is from what the round stored
            BrainWrite(w.entry, w.previous and stored.get(_key(w.entry), w.previous))
            for w in (writes[i] for i in later)
        ]
        results.update(zip(later, self.put(again) if again else [], strict=True))
        return [results[i] for i in range(len(writes))]

    def _round(
        self, writes: dict[int, BrainWrite]
    ) -> tuple[dict[int, EntryFailure | None], dict[int, BrainEntry]]:
        """One write per ID (`write_index`), a refused replace sent again against the
        version it met with the diff from it (its puts went with the first attempt); then
        the postings of writes that did not apply restored, the marks of complete entries
        cleared (deferred). (result per write, the version stored per write that applied)."""
        results: dict[int, EntryFailure | None] = dict.fromkeys(writes)
        stored: dict[int, BrainEntry] = {}
        failed: list[BrainEntry] = []  # not applied: its postings restored
        pending = {i: w.previous for i, w in writes.items()}
        for attempt in range(self._max_retries + 1):
            if not pending:
                break
            if attempt:
                self._calls.wait(attempt)
            sent = {i: _version(writes[i].entry, p) for i, p in pending.items()}
            counts = [_count(i, sent[i], p) for i, p in pending.items()]
            requests = [
                (i, r)
                for i, p in pending.items()
                for r in _diff(p or sent[i], sent[i], puts=attempt == 0)
            ]
            outcomes, unindexed, _ = write_index(self._calls, counts, requests)
            retry: dict[int, BrainEntry | None] = {}
            for i, p in pending.items():
                outcome, detail = outcomes[i], f"brain entry {writes[i].entry.id}"
                if outcome.outcome is Outcome.DONE:
                    stored[i] = sent[i]
                    if i in unindexed:
                        results[i] = EntryFailure(EntryFailureCode.STORAGE, _UNINDEXED)
                    continue
                if outcome.outcome is Outcome.FAILED:
                    results[i] = EntryFailure(EntryFailureCode.STORAGE, f"{detail}: not stored")
                elif p is None:
                    results[i] = EntryFailure(EntryFailureCode.STORAGE, f"{detail} exists")
                elif outcome.item is None:
                    results[i] = EntryFailure(EntryFailureCode.NOT_FOUND, detail)
                else:
                    retry[i] = BRAIN.read(outcome.item)
                    continue
                failed.append(sent[i])
            pending = retry
        for i in pending:
            detail = f"brain entry {writes[i].entry.id}: transaction conflicts"
            results[i] = EntryFailure(EntryFailureCode.CONFLICT, detail)
            failed.append(writes[i].entry)
        self._restore(failed)
        clears = [
            partial(self._clear, entry)
            for i, entry in stored.items()
            if results[i] is None and min(entry.terms.values(), default=1) <= 0
        ]
        self._calls.defer(clears)
        return results, stored

    def _restore(self, entries: list[BrainEntry]) -> None:
        """Writes that did not apply: their postings made those of the entry stored now
        (ours it lacks deleted, its own put back; best effort, as the module says)."""
        if not entries:
            return
        found = self._calls.batch_get([brain_key(*_key(e)) for e in entries])
        stored = {_key(e): e for e in map(BRAIN.read, found)}
        requests: list[tuple[int, Item]] = []
        for number, entry in enumerate(entries):
            now = stored.get(_key(entry))
            requests += [(number, r) for r in _diff(entry, now)]
        for number in sorted(self._calls.batch_write(requests)):
            _log.error("brain entry %s: postings of a failed write left", entries[number].id)

    def _clear(self, stored: BrainEntry) -> None:
        """Deferred: the marks (tf 0) of an entry whose postings are complete removed, if
        it is still the version this call wrote."""
        terms = {t: tf for t, tf in stored.terms.items() if tf > 0}
        condition: ConditionBase = Attr("updated_us").eq(to_us(stored.updated_at))
        condition &= Attr("terms").eq(JSON.put(stored.terms))
        try:
            self._calls.client.update_item(
                TableName=self._calls.table,
                Key=brain_key(stored.tenant, stored.id),
                **expression(condition, put={"terms": JSON.put(terms)}),
            )
        except AWS_ERRORS as exc:  # the next upsert deletes them again
            _log.info("brain entry %s: marks kept: %s", stored.id, error_code(exc))

    # --- reads --------------------------------------------------------------------------

    def get(self, tenant: str, ids: Sequence[int]) -> dict[int, BrainEntry]:
        keys = [brain_key(tenant, int(i)) for i in dict.fromkeys(ids)]
        entries = (BRAIN.read(item) for item in self._calls.batch_get(keys))
        return {e.id: e for e in entries if e.tenant == tenant}

    def find_by_reference(
        self, tenant: str, vk_typ: str, vk_referenz_id: str | None, limit: int
    ) -> list[BrainEntry]:
        """Partition `BREF#<vk_typ>#<ref>`, or without a reference `BTYP#<vk_typ>`."""
        if vk_referenz_id is None:
            pk, gsi = brain_typ_pk(tenant, str(vk_typ)), TYP
        else:
            pk, gsi = brain_ref_pk(tenant, str(vk_typ), vk_referenz_id), REF
        return newest(self._calls, BRAIN.read, gsi, [pk], limit)[0]

    def find_by_references(
        self, tenant: str, references: Sequence[tuple[str, str]], limit: int
    ) -> dict[tuple[str, str], list[BrainEntry]]:
        """Per distinct (vk_typ, vk_referenz_id) its by_reference partition
        `BREF#<vk_typ>#<ref>` (`newest`)."""
        pairs = list(dict.fromkeys((str(vk_typ), ref) for vk_typ, ref in references))
        pks = [brain_ref_pk(tenant, *pair) for pair in pairs]
        found = zip(pairs, newest(self._calls, BRAIN.read, REF, pks, limit), strict=True)
        return {pair: entries for pair, entries in found if entries}

    def list(self, tenant: str, limit: int) -> list[BrainEntry]:
        pks = [brain_typ_pk(tenant, typ.value) for typ in VkTyp]
        return merged(newest(self._calls, BRAIN.read, TYP, pks, limit), lambda e: e.id, limit)

    def lookup_terms(self, tenant: str, terms: Sequence[str]) -> TermLookup:
        wanted = list(dict.fromkeys(terms))
        queries = [query(term_pk(tenant, t), ConsistentRead=True) for t in wanted]
        pages = self._calls.query_many([*queries, stats_query(tenant, BRAIN_STATS)])
        found = zip(wanted, pages, strict=False)
        postings = {term: list(map(POSTING.read, items)) for term, items in found if items}
        return TermLookup(postings, stats_from_items(pages[-1]))

    def stats(self, tenant: str) -> CorpusStats:
        return self.lookup_terms(tenant, []).stats


def _key(entry: BrainEntry) -> tuple[str, int]:  # (tenant, entry ID)
    return entry.tenant, entry.id


def _version(entry: BrainEntry, previous: BrainEntry | None) -> BrainEntry:
    """The entry as sent: `previous`'s created_at kept, every term of `previous` it drops
    named with tf 0 (a mark: its posting may still exist)."""
    if previous is None:
        return entry
    terms = {t: tf for t, tf in entry.terms.items() if tf > 0}
    marks = {t: 0 for t in previous.terms if t not in terms}
    return dataclasses.replace(entry, created_at=previous.created_at, terms={**terms, **marks})


def _count(index: int, sent: BrainEntry, previous: BrainEntry | None) -> Count[int]:
    """The Put of `sent` conditioned on `previous` (absent for a create), with its stats
    change."""
    shard = stats_key(sent.tenant, BRAIN_STATS, sent.id)
    if previous is None:
        put = action("Put", Attr(PK).not_exists(), all_old=True, Item=brain_item(sent))
        return Count(index, shard, (put,), 1, sent.doc_len)
    condition: ConditionBase = Attr("created_us").eq(to_us(previous.created_at))
    condition &= Attr("updated_us").eq(to_us(previous.updated_at))
    put = action("Put", condition, all_old=True, Item=brain_item(sent))
    return Count(index, shard, (put,), 0, sent.doc_len - previous.doc_len)


def _diff(old: BrainEntry, new: BrainEntry | None, *, puts: bool = True) -> list[Item]:
    """`postings_diff` from every term `old` names (marks too) to the postings of `new`
    (its terms with tf > 0; without `puts` only the deletes)."""
    named = {item_key(posting_key(old.tenant, t, old.id)) for t in old.terms}
    now = [] if new is None else [posting_item(new, t, tf) for t, tf in new.terms.items() if tf]
    return postings_diff(named, now, only=None if puts else set())
