"""Brain entries and their search index: postings per term, sharded corpus stats
(stages and healing: docs/dynamodb.md, "Brain entries and the search index").

Invariants:
- An entry and its stats shard change together (one TransactWriteItems per entry: create
  `attribute_not_exists`; replace conditioned on the stored version being `previous`,
  retried against what is stored, so the last writer wins and the delta is exact).
- Postings are written after (one BatchWriteItem stage: old-only terms deleted, every term
  put); an entry only created in the batch puts them beside its transaction, and a failed
  create deletes them again (a posting whose entry is missing is never a hit).
- Postings that still fail report STORAGE, and the old-only terms are marked in the stored
  entry (`terms[t] = 0`) so that the next upsert deletes their postings too.
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
    CONDITION_FAILED,
    TRANSACTION_CONFLICT,
    BatchWrite,
    TableCalls,
    cancel_reasons,
    error_code,
    run_groups,
)
from shared.storage.dynamo.items import (
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
    stats_pk,
    stats_shard_of,
    stats_update,
    term_pk,
    to_us,
)

_log = logging.getLogger(__name__)

_UNINDEXED = "search index not updated; send the entry again"


class _Failed(Exception):
    def __init__(self, code: EntryFailureCode, detail: str) -> None:
        super().__init__(detail)
        self.failure = EntryFailure(code, detail)


@dataclass
class _Chain:
    """The writes of one entry ID in one batch, applied in order."""

    indices: list[int]
    results: list[EntryFailure | None] = field(default_factory=list)
    # The entry this chain left in the table, and the terms the table may hold postings
    # for from before the batch (their postings are deleted unless the entry keeps them).
    stored: BrainEntry | None = None
    old_terms: set[str] = field(default_factory=set)


class BrainIndex:
    def __init__(self, calls: TableCalls, max_retries: int) -> None:
        self._calls = calls
        self._max_retries = max_retries

    # --- writes -------------------------------------------------------------------------

    def put(self, writes: Sequence[BrainWrite]) -> list[EntryFailure | None]:
        for write in writes:  # programming errors surface before anything is written
            previous = write.previous
            if previous is not None:
                if previous.tenant != write.entry.tenant or previous.id != write.entry.id:
                    raise ValueError(
                        f"replace must keep tenant and ID: {previous.tenant}/{previous.id}"
                        f" -> {write.entry.tenant}/{write.entry.id}"
                    )
                to_us(previous.created_at)
                to_us(previous.updated_at)
            brain_item(write.entry)
        chains: dict[tuple[str, int], _Chain] = {}
        for index, write in enumerate(writes):
            chains.setdefault((write.entry.tenant, write.entry.id), _Chain([])).indices.append(
                index
            )
        ordered = list(chains.values())
        # A chain that only creates its entry writes its postings side by side with the
        # create (the entry is new: no posting of another version to keep or delete).
        early = {
            number: writes[chain.indices[0]].entry
            for number, chain in enumerate(ordered)
            if len(chain.indices) == 1 and writes[chain.indices[0]].previous is None
        }
        puts = BatchWrite(
            self._calls, [(number, put) for number, e in early.items() for put in _puts(e)]
        )
        done, put_outcomes = run_groups(
            self._calls.round_trips,
            [
                [partial(self._run_chain, c, [writes[i] for i in c.indices]) for c in ordered],
                puts.tasks(),
            ],
        )
        unindexed = puts.finish(put_outcomes)
        results: list[EntryFailure | None] = [None] * len(writes)
        for chain in done:
            for index, result in zip(chain.indices, chain.results, strict=True):
                results[index] = result
        undo = []
        for number, entry in early.items():
            (index,) = done[number].indices
            if results[index] is not None:
                undo.append(partial(self._undo_postings, entry))
            elif number in unindexed:
                results[index] = EntryFailure(EntryFailureCode.STORAGE, _UNINDEXED)
        self._calls.round_trips.run(undo)
        self._write_postings([c for i, c in enumerate(done) if i not in early], results)
        return results

    def _undo_postings(self, entry: BrainEntry) -> None:
        """A create that failed: its postings go, and the postings of an entry already
        stored under the ID are put back as they were (only a resend racing its own
        first send could meet one). Best effort: a posting whose entry is missing is
        never a hit (select_brain loads the entries)."""
        stored = self.get(entry.tenant, [entry.id]).get(entry.id)
        kept = set(stored.terms) if stored is not None else set()
        requests: list[tuple[str, Item]] = [
            (term, {"DeleteRequest": {"Key": posting_key(entry.tenant, term, entry.id)}})
            for term in sorted(set(entry.terms) - kept)
        ]
        requests += [] if stored is None else [(str(i), r) for i, r in enumerate(_puts(stored))]
        if requests and self._calls.batch_write(requests):
            _log.error("brain entry %s: postings of a failed create left", entry.id)

    def _run_chain(self, chain: _Chain, writes: list[BrainWrite]) -> _Chain:
        for write in writes:
            previous = write.previous
            if previous is not None and chain.stored is not None:
                previous = chain.stored  # replace what this chain wrote before
            try:
                chain.stored = self._write(write.entry, previous, chain.old_terms)
            except _Failed as failed:
                chain.results.append(failed.failure)
            else:
                chain.results.append(None)
        return chain

    def _write(
        self, entry: BrainEntry, previous: BrainEntry | None, old_terms: set[str]
    ) -> BrainEntry:
        """Create `entry` (`previous` None) or replace `previous` by it; the entry as stored
        (a replace keeps created_at). A replace that finds another version stored is retried
        against that one (last writer wins, the stats delta is what was stored); every
        version compared against adds its terms to `old_terms` (postings may exist for
        them; deleting one that does not exist is harmless)."""
        for attempt in range(self._max_retries + 1):
            if attempt:
                self._calls.backoff.wait(attempt)
            written, documents, delta = entry, 1, entry.doc_len
            condition: ConditionBase = Attr(PK).not_exists()
            if previous is not None:
                old_terms.update(previous.terms)
                written = dataclasses.replace(entry, created_at=previous.created_at)
                documents, delta = 0, entry.doc_len - previous.doc_len
                condition = Attr("created_us").eq(to_us(previous.created_at))
                condition &= Attr("updated_us").eq(to_us(previous.updated_at))
            actions = [action("Put", condition, all_old=True, Item=brain_item(written))]
            if documents or delta:
                shard = stats_key(entry.tenant, stats_shard_of(entry.id))
                actions.append(stats_update(shard, documents=documents, total_len=delta))
            try:
                self._calls.transact(actions)
                return written
            except AWS_ERRORS as exc:
                codes = _codes(exc)
                if codes and codes[0] == CONDITION_FAILED:
                    if previous is None:
                        detail = f"brain entry {entry.id} exists"
                        raise _Failed(EntryFailureCode.STORAGE, detail) from exc
                    previous = self._stored(entry, exc)
                elif TRANSACTION_CONFLICT not in codes:
                    _log.warning("brain entry %s: %s", entry.id, exc)
                    raise _Failed(EntryFailureCode.STORAGE, error_code(exc)) from exc
        raise _Failed(EntryFailureCode.CONFLICT, f"brain entry {entry.id}: transaction conflicts")

    def _stored(self, entry: BrainEntry, exc: BaseException) -> BrainEntry:
        """The version a replace's condition met (ALL_OLD, else a consistent read)."""
        item = (cancel_reasons(exc) or [{}])[0].get("Item")
        try:
            if item is None:
                item = self._calls.get_item(brain_key(entry.tenant, entry.id))
        except AWS_ERRORS as read_error:
            raise _Failed(EntryFailureCode.STORAGE, error_code(read_error)) from exc
        if item is None:
            raise _Failed(EntryFailureCode.NOT_FOUND, f"brain entry {entry.id}") from exc
        return brain_from_item(item)

    def _write_postings(self, chains: list[_Chain], results: list[EntryFailure | None]) -> None:
        requests: list[tuple[int, Item]] = []
        for number, chain in enumerate(chains):
            stored = chain.stored
            if stored is None:
                continue
            for term in sorted(chain.old_terms - set(stored.terms)):
                key = posting_key(stored.tenant, term, stored.id)
                requests.append((number, {"DeleteRequest": {"Key": key}}))
            requests += [(number, put) for put in _puts(stored)]
        if not requests:
            return
        failed = self._calls.batch_write(requests)
        marks = []
        for number in sorted(failed):
            chain = chains[number]
            for index, result in zip(chain.indices, chain.results, strict=True):
                if result is None:
                    results[index] = EntryFailure(EntryFailureCode.STORAGE, _UNINDEXED)
            if chain.stored is not None:
                marks.append(partial(self._mark_stale_terms, chain.stored, chain.old_terms))
        self._calls.round_trips.run(marks)

    def _mark_stale_terms(self, stored: BrainEntry, old_terms: set[str]) -> None:
        """Best effort: record the old-only terms (tf 0) in the stored entry, so that the
        next replace deletes their postings even though this batch could not."""
        stale = {term: 0 for term in old_terms if term not in stored.terms}
        if not stale:
            return
        try:
            self._calls.client.update_item(
                TableName=self._calls.table,
                Key=brain_key(stored.tenant, stored.id),
                **expression(
                    Attr("updated_us").eq(to_us(stored.updated_at)),
                    put={"terms": JSON.put({**stored.terms, **stale})},
                ),
            )
        except AWS_ERRORS as exc:
            _log.error(  # the count only: index terms are stems of the stored text
                "brain entry %s: stale postings left for %d terms: %s",
                stored.id,
                len(stale),
                type(exc).__name__,
            )

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
        each (a page that ended early continues in a further stage, only for that pair)."""
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
        queries.append(query(stats_pk(tenant), ConsistentRead=True))
        pages = self._calls.query_many(queries)
        postings: dict[str, list[Posting]] = {}
        for term, items in zip(wanted, pages, strict=False):
            if items:
                postings[term] = [posting_from_item(item) for item in items]
        return TermLookup(postings, stats_from_items(pages[-1]))

    def stats(self, tenant: str) -> CorpusStats:
        (items,) = self._calls.query_many([query(stats_pk(tenant), ConsistentRead=True)])
        return stats_from_items(items)


def _by_typ(typ_pk: str) -> Item:
    """The entries of one vk_typ in by_vk_typ, newest ID first."""
    return query(typ_pk, attribute=TYP_PK, index=TYP_INDEX, ScanIndexForward=False)


def _puts(entry: BrainEntry) -> list[Item]:
    """PutRequests of every posting of `entry` (terms with tf > 0)."""
    return [
        {"PutRequest": {"Item": posting_item(entry, term, tf)}}
        for term, tf in entry.terms.items()
        if tf > 0
    ]


def _codes(exc: BaseException) -> list[str]:
    return [str(reason.get("Code", "None")) for reason in cancel_reasons(exc) or []]
