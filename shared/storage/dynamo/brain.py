"""Brain entries and their search index: postings per term, sharded corpus stats
(docs/dynamodb.md, "Brain entries and the search index").

Invariants (the same as a memory's, memory_records.py: one mechanism):
- An entry and its stats shard change together: per stats shard one TransactWriteItems
  (`write_index`), a create conditioned `attribute_not_exists`, a replace on the stored
  version being `previous` (sent again against what is stored, so the last writer wins
  and the delta is exact).
- **The entry names every posting it may have.** A replace's entry keeps every term of
  `previous` it drops with tf 0 (a mark), so its postings diff (deletes of the dropped
  terms, puts of all its terms) runs beside the transaction; the marks are removed,
  deferred beside the call's answer, once the diff is complete. Postings that still fail
  report STORAGE and keep the marks: the resend (or any next upsert, `previous` = the
  stored entry) deletes them. A write that does not apply has its postings made the
  stored entry's again (best effort; a posting whose entry lacks the term is no hit).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from boto3.dynamodb.conditions import Attr, ConditionBase

from shared.domain import (
    BrainEntry,
    BrainWrite,
    CorpusStats,
    EntryFailure,
    EntryFailureCode,
    Posting,
    TermLookup,
    VkTyp,
)
from shared.storage.dynamo.calls import (
    AWS_ERRORS,
    TableCalls,
    defer,
    error_code,
)
from shared.storage.dynamo.index_writer import Count, Outcome, write_index
from shared.storage.dynamo.items import (
    BRAIN_STATS,
    JSON,
    PK,
    REF_INDEX,
    REF_PK,
    TYP_INDEX,
    TYP_PK,
    Item,
    action,
    brain_from_item,
    brain_item,
    brain_key,
    brain_ref_pk,
    brain_typ_pk,
    expression,
    posting_from_item,
    posting_item,
    posting_key,
    query,
    stats_from_items,
    stats_key,
    stats_query,
    term_pk,
    to_us,
)

_log = logging.getLogger(__name__)

_UNINDEXED = "search index not updated; send the entry again"


@dataclass
class _Chain:
    """The writes of one entry ID in one batch, applied in order (one per round)."""

    tenant: str
    entry_id: int
    writes: list[tuple[int, BrainWrite]] = field(default_factory=list)
    stored: BrainEntry | None = None  # the version this chain wrote last
    touched: set[str] = field(default_factory=set)  # terms whose postings it wrote
    deleted: set[str] = field(default_factory=set)  # terms whose postings it deleted last
    failed: bool = False  # a write did not apply after its postings went beside it
    unindexed: bool = False  # postings that still failed after the retries


@dataclass
class _Step:
    """One write of a chain, conditioned on `previous` (None: a create); a replace whose
    condition met another version is sent again against that one (last writer wins)."""

    chain: _Chain
    index: int
    entry: BrainEntry
    previous: BrainEntry | None
    written: BrainEntry | None = None  # as sent: created_at kept, old-only terms marked
    put: bool = False  # its postings were sent


class BrainIndex:
    def __init__(self, calls: TableCalls, max_retries: int) -> None:
        self._calls = calls
        self._max_retries = max_retries

    # --- writes -------------------------------------------------------------------------

    def put(self, writes: Sequence[BrainWrite]) -> list[EntryFailure | None]:
        for write in writes:  # programming errors surface before anything is written
            if write.previous is not None:
                to_us(write.previous.created_at)
                to_us(write.previous.updated_at)
            brain_item(write.entry)
        chains: dict[tuple[str, int], _Chain] = {}
        for index, write in enumerate(writes):
            e = write.entry
            chain = chains.setdefault((e.tenant, e.id), _Chain(e.tenant, e.id))
            chain.writes.append((index, write))
        results: list[EntryFailure | None] = [None] * len(writes)
        for r in range(max((len(c.writes) for c in chains.values()), default=0)):
            steps = []
            for chain in chains.values():
                if r < len(chain.writes):
                    index, write = chain.writes[r]
                    previous = write.previous
                    if previous is not None and chain.stored is not None:
                        previous = chain.stored  # replace what this chain wrote before
                    steps.append(_Step(chain, index, write.entry, previous))
            self._round(steps, results)
        self._restore([c for c in chains.values() if c.failed])
        clears = [
            partial(self._clear, c.stored)
            for c in chains.values()
            if c.stored is not None and not (c.failed or c.unindexed) and _marked(c.stored)
        ]
        defer(self._calls.round_trips, clears)
        return results

    def _round(self, steps: list[_Step], results: list[EntryFailure | None]) -> None:
        """One write per chain: per stats shard one transaction (the entries' conditioned
        Puts with the shard's ADD, `write_index`) beside the postings diff; a refused replace
        is sent again against the version its condition met, with the diff from it."""
        pending = steps
        for attempt in range(self._max_retries + 1):
            if not pending:
                return
            if attempt:
                self._calls.backoff.wait(attempt)
            requests = [(step.index, r) for step in pending for r in _diff(step)]
            counts = [_count(step) for step in pending]
            outcomes, unindexed, _ = write_index(self._calls, counts, requests)
            retry = []
            for step in pending:
                chain, outcome = step.chain, outcomes[step.index]
                chain.unindexed |= step.index in unindexed
                detail = f"brain entry {step.entry.id}"
                failure: EntryFailure | None = None
                if outcome.outcome is Outcome.DONE:
                    chain.stored = step.written
                    if chain.unindexed:
                        failure = EntryFailure(EntryFailureCode.STORAGE, _UNINDEXED)
                elif outcome.outcome is Outcome.FAILED:
                    failure = EntryFailure(EntryFailureCode.STORAGE, f"{detail}: not stored")
                elif step.previous is None:
                    failure = EntryFailure(EntryFailureCode.STORAGE, f"{detail} exists")
                elif outcome.item is None:
                    failure = EntryFailure(EntryFailureCode.NOT_FOUND, detail)
                else:
                    step.previous = brain_from_item(outcome.item)
                    retry.append(step)
                if failure is not None:
                    results[step.index] = failure
                    chain.failed |= outcome.outcome is not Outcome.DONE
            pending = retry
        for step in pending:
            detail = f"brain entry {step.entry.id}: transaction conflicts"
            results[step.index] = EntryFailure(EntryFailureCode.CONFLICT, detail)
            step.chain.failed = True

    def _restore(self, chains: list[_Chain]) -> None:
        """Chains with a write that did not apply: their postings are made those of the
        entry stored now (ours-only deleted, its own put back). Best effort: a posting
        whose entry lacks the term is no hit (select_brain loads the entries)."""
        if not chains:
            return
        found = self._calls.batch_get([brain_key(c.tenant, c.entry_id) for c in chains])
        stored = {(e.tenant, e.id): e for e in map(brain_from_item, found)}
        requests: list[tuple[int, Item]] = []
        for number, chain in enumerate(chains):
            now = stored.get((chain.tenant, chain.entry_id))
            puts = [] if now is None else _puts(now)
            kept = {t for t, tf in now.terms.items() if tf > 0} if now is not None else set()
            requests += [(number, r) for r in _deletes(chain, chain.touched - kept) + puts]
        for number in sorted(self._calls.batch_write(requests)):
            _log.error("brain entry %s: postings of a failed write left", chains[number].entry_id)

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
        if not ids:
            return {}
        keys = [brain_key(tenant, int(i)) for i in dict.fromkeys(ids)]
        entries = (brain_from_item(item) for item in self._calls.batch_get(keys))
        return {e.id: e for e in entries if e.tenant == tenant}

    def find_by_reference(
        self, tenant: str, vk_typ: str, vk_referenz_id: str | None, limit: int
    ) -> list[BrainEntry]:
        if limit <= 0:
            return []
        typ = str(vk_typ)
        if vk_referenz_id is None:
            typ_query = _by_typ(brain_typ_pk(tenant, typ))
            (items,) = self._calls.query_many([typ_query], limit)
            return [brain_from_item(item) for item in items]
        found = self.find_by_references(tenant, [(typ, vk_referenz_id)], limit)
        return found.get((typ, vk_referenz_id), [])

    def find_by_references(
        self, tenant: str, references: Sequence[tuple[str, str]], limit: int
    ) -> dict[tuple[str, str], list[BrainEntry]]:
        """Per distinct (vk_typ, vk_referenz_id) one Query of its by_reference partition
        `BREF#<vk_typ>#<ref>`, all side by side in one stage, newest ID first, `Limit`
        each (a page that ended early continues in its task, only for that pair)."""
        pairs = list(dict.fromkeys((str(vk_typ), ref) for vk_typ, ref in references))
        if not pairs or limit <= 0:
            return {}
        queries = [
            query(
                brain_ref_pk(tenant, typ, ref),
                attribute=REF_PK,
                index=REF_INDEX,
                ScanIndexForward=False,
            )
            for typ, ref in pairs
        ]
        found: dict[tuple[str, str], list[BrainEntry]] = {}
        for pair, items in zip(pairs, self._calls.query_many(queries, limit), strict=True):
            entries = [brain_from_item(item) for item in items]
            own = [e for e in entries if e.tenant == tenant]
            if own:
                found[pair] = own[:limit]
        return found

    def list(self, tenant: str, limit: int) -> list[BrainEntry]:
        if limit <= 0:
            return []
        queries = [_by_typ(brain_typ_pk(tenant, typ.value)) for typ in VkTyp]
        pages = self._calls.query_many(queries, limit)
        entries = [brain_from_item(item) for page in pages for item in page]
        entries.sort(key=lambda e: e.id, reverse=True)
        return entries[:limit]

    def lookup_terms(self, tenant: str, terms: Sequence[str]) -> TermLookup:
        wanted = list(dict.fromkeys(terms))
        queries = [query(term_pk(tenant, t), ConsistentRead=True) for t in wanted]
        queries.append(stats_query(tenant, BRAIN_STATS))
        pages = self._calls.query_many(queries)
        postings: dict[str, list[Posting]] = {}
        for term, items in zip(wanted, pages, strict=False):
            if items:
                postings[term] = [posting_from_item(item) for item in items]
        return TermLookup(postings, stats_from_items(pages[-1]))

    def stats(self, tenant: str) -> CorpusStats:
        (items,) = self._calls.query_many([stats_query(tenant, BRAIN_STATS)])
        return stats_from_items(items)


def _by_typ(typ_pk: str) -> Item:
    """The entries of one vk_typ in by_vk_typ, newest ID first."""
    return query(typ_pk, attribute=TYP_PK, index=TYP_INDEX, ScanIndexForward=False)


def _count(step: _Step) -> Count[int]:
    """The entry's Put conditioned on `previous` (absent for a create) with its stats
    change; the entry as sent keeps `previous`'s created_at and names every term of
    `previous` it drops with tf 0 (a mark: its posting may still exist)."""
    entry, previous = step.entry, step.previous
    shard = stats_key(entry.tenant, BRAIN_STATS, entry.id)
    if previous is None:
        step.written = entry
        put = action("Put", Attr(PK).not_exists(), all_old=True, Item=brain_item(entry))
        return Count(step.index, shard, put, 1, entry.doc_len)
    terms = {t: tf for t, tf in entry.terms.items() if tf > 0}
    marks = {t: 0 for t in previous.terms if t not in terms}
    step.written = dataclasses.replace(
        entry, created_at=previous.created_at, terms={**terms, **marks}
    )
    condition: ConditionBase = Attr("created_us").eq(to_us(previous.created_at))
    condition &= Attr("updated_us").eq(to_us(previous.updated_at))
    put = action("Put", condition, all_old=True, Item=brain_item(step.written))
    return Count(step.index, shard, put, 0, entry.doc_len - previous.doc_len)


def _diff(step: _Step) -> list[Item]:
    """The postings requests that turn what `previous` names into the entry's: deletes of
    the terms it drops (once per chain), puts of all its terms (once per step)."""
    chain, entry = step.chain, step.entry
    terms = {t for t, tf in entry.terms.items() if tf > 0}
    old = set() if step.previous is None else set(step.previous.terms)
    gone = old - terms - chain.deleted
    chain.deleted = (chain.deleted | gone) - terms
    chain.touched |= gone | terms
    puts = [] if step.put else _puts(entry)
    step.put = True
    return _deletes(chain, gone) + puts


def _deletes(chain: _Chain, terms: set[str]) -> list[Item]:
    return [
        {"DeleteRequest": {"Key": posting_key(chain.tenant, t, chain.entry_id)}}
        for t in sorted(terms)
    ]


def _marked(entry: BrainEntry) -> bool:
    return any(tf <= 0 for tf in entry.terms.values())


def _puts(entry: BrainEntry) -> list[Item]:
    """PutRequests of every posting of `entry` (terms with tf > 0)."""
    return [
        {"PutRequest": {"Item": posting_item(entry, term, tf)}}
        for term, tf in entry.terms.items()
        if tf > 0
    ]
