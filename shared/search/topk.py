"""Safe top-k word ranking over impact-ordered postings, read page by page (MaxScore).

Each (area, term) list is ordered by impact, highest first (`postings.py`). A search reads
the first page of every list of the caller's areas side by side (one step), scores what it
has seen exactly (BM25, as `ranking.rank` over every posting would) and bounds what it has
not: a posting not yet read in a list has at most the impact of the last one read, so its
contribution is at most `idf * tf_bound(last impact)`. It reads a further page of a list
(all such lists side by side: one more step) only while that bound could still lift a memory
into the top k — a memory never seen (the sum of its area's list bounds) or one seen but not
yet in every list of its area (its known part plus the bounds of the lists it may still be
in). When no list can, the top k is exact: the same memories in the same order (score, then
ID) as the exhaustive ranking of every posting.

Invariants:
- Exact IDF: a term's document frequency is the sum of its lists' lengths over the areas
  read. A list read to its end knows its length; the reader tells the others' (`remaining`
  in a page: SQLite counts in the same step, DynamoDB counts the rest in the next one).
- Eligibility (type, expiry) is decided per posting before it counts for the threshold;
  ineligible memories still count in the document frequency, as in the exhaustive ranking.
- The backstop: at most `ReadBudget.steps` steps and `ReadBudget.postings` postings per
  search. When it stops the reads early the ranking is by what was seen (`complete` False);
  `benchmarks/scale.py` measures what that costs.
- The bound never under-estimates: impacts are quantised with a fixed reference length
  (`IMPACT_REFERENCE_LEN`) and rounded, so the bound takes the next quantum and, when the
  corpus' average length exceeds the reference, scales by their ratio (never above k1 + 1).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final

from shared.domain import CorpusStats, MemoryId, MemoryPosting, MemoryType
from shared.search.postings import IMPACT_REFERENCE_LEN, IMPACT_SCALE, K1, B, posting_impact
from shared.search.ranking import idf, tf_factor

# Postings per list in the first step: a list this short is read whole in one step.
FIRST_PAGE: Final = 1000
# Postings per list in each further step (a DynamoDB Query page of ~600 KB, under its 1 MB).
NEXT_PAGE: Final = 4000
# The backstop per search: steps (the first included) and postings over all lists and steps.
MAX_STEPS: Final = 4
MAX_POSTINGS: Final = 60_000

ListKey = tuple[str, str]  # (area, term)


@dataclass(frozen=True)
class ReadBudget:
    """How much one search may read: page sizes, steps, postings (see the module doc)."""

    first_page: int = FIRST_PAGE
    next_page: int = NEXT_PAGE
    steps: int = MAX_STEPS
    postings: int = MAX_POSTINGS


# No backstop: read on until the top k is certain (references and benchmarks).
UNBOUNDED: Final = ReadBudget(steps=10**9, postings=10**12)


@dataclass(frozen=True)
class WordQuery:
    """The best `k` memories for the query groups (`analyzer.query_terms`), of type `typ`
    when given, live at `now`."""

    groups: tuple[frozenset[str], ...]
    k: int
    now: datetime
    typ: MemoryType | None = None
    budget: ReadBudget = field(default_factory=ReadBudget)

    @property
    def terms(self) -> list[str]:
        return sorted({term for group in self.groups for term in group})


@dataclass(frozen=True)
class PageRequest:
    """Read up to `size` postings of list `key` after `cursor` (None: from the start); with
    `count`, also tell how many postings follow `cursor` in all."""

    key: ListKey
    cursor: object | None
    size: int
    count: bool


@dataclass(frozen=True)
class Page:
    """What a reader found for one request: postings in list order, where the next page
    starts (None: the list ended) and, when counted, how many postings followed the cursor."""

    postings: Sequence[MemoryPosting]
    cursor: object | None
    remaining: int | None = None


@dataclass(frozen=True)
class WordRanking:
    """The top k (memory ID, BM25 score), best first, and what it took to find them."""

    ranked: list[tuple[MemoryId, float]]
    steps: int = 0
    postings_read: int = 0
    lists: int = 0
    complete: bool = True


@dataclass
class _List:
    seen: int = 0
    cursor: object | None = None
    ended: bool = False
    last_impact: int = 0
    df: int | None = None


@dataclass
class _Doc:
    area: str
    doc_len: int
    eligible: bool
    tf: dict[str, int] = field(default_factory=dict)


def tf_bound(last_impact: int, avg_len: float) -> float:
    """The largest tf factor of a posting whose impact is at most `last_impact`."""
    ratio = max(1.0, avg_len / IMPACT_REFERENCE_LEN)
    return min(K1 + 1.0, (last_impact + 1) / IMPACT_SCALE * ratio)


def run(
    query: WordQuery,
    lists: Sequence[ListKey],
    stats: CorpusStats,
    read: Callable[[Sequence[PageRequest]], Sequence[Page]],
    first: Sequence[Page] | None = None,
) -> WordRanking:
    """The top k of `query` over `lists`: `read` runs one step's requests (side by side)
    and returns their pages in order; `first`, when given, are the pages of the first step
    (read by the caller together with its other calls, `first_requests()` order)."""
    driver = PagedTopK(query, lists, stats)
    requests = driver.first_requests()
    pages = first if first is not None else (read(requests) if requests else [])
    while requests:
        for request, page in zip(requests, pages, strict=True):
            driver.add(request, page)
        requests = driver.next_requests()
        pages = read(requests) if requests else []
    return driver.result()


class PagedTopK:
    """The driver: `first_requests()`, then `add` each page, `next_requests()` until it is
    empty, then `result()`. Readers run one step's requests side by side."""

    def __init__(self, query: WordQuery, lists: Sequence[ListKey], stats: CorpusStats) -> None:
        self._query = query
        self._stats = stats
        self._lists = {key: _List() for key in dict.fromkeys(lists)}
        self._docs: dict[MemoryId, _Doc] = {}
        self._steps = 0
        self._read = 0
        self._complete = True
        self._avg_len: float | None = None
        self._scores: dict[MemoryId, float] | None = None  # of the last evaluation

    def first_requests(self) -> list[PageRequest]:
        self._steps = 1
        size = self._query.budget.first_page
        return [PageRequest(key, None, size, True) for key in self._lists]

    def add(self, request: PageRequest, page: Page) -> None:
        self._scores = None
        state = self._lists[request.key]
        if page.remaining is not None and state.df is None:
            state.df = state.seen + page.remaining
        area, term = request.key
        for posting in page.postings:
            doc = self._docs.get(posting.entry_id)
            if doc is None:
                doc = _Doc(area, posting.doc_len, self._eligible(posting))
                self._docs[posting.entry_id] = doc
            doc.tf[term] = posting.tf
            state.last_impact = posting_impact(posting.tf, posting.doc_len)
        state.seen += len(page.postings)
        self._read += len(page.postings)
        state.cursor = page.cursor
        state.ended = page.cursor is None
        if state.ended:
            state.df = state.seen

    def _eligible(self, posting: MemoryPosting) -> bool:
        if self._query.typ is not None and posting.entry_id.typ is not self._query.typ:
            return False
        return posting.expires_at is None or posting.expires_at > self._query.now

    def next_requests(self) -> list[PageRequest]:
        """The requests of the next step; [] when the top k is certain or the budget ends."""
        wanted = self._wanted()
        if not wanted:
            return []
        budget = self._query.budget
        if self._steps >= budget.steps or self._read >= budget.postings:
            self._complete = False
            return []
        self._steps += 1
        size = max(1, min(budget.next_page, (budget.postings - self._read) // len(wanted)))
        return [
            PageRequest(key, self._lists[key].cursor, size, self._lists[key].df is None)
            for key in wanted
        ]

    # --- scoring ------------------------------------------------------------------------

    def _average(self) -> float:
        if self._avg_len is None:
            if self._stats.avg_len > 0:
                self._avg_len = self._stats.avg_len
            else:
                lengths = [doc.doc_len for doc in self._docs.values()]
                mean = sum(lengths) / len(lengths) if lengths else 0.0
                self._avg_len = mean if mean > 0 else 1.0
        return self._avg_len

    def _idfs(self) -> tuple[dict[str, float], dict[str, float]]:
        """Per term the IDF for scores (df as known, or seen so far) and for bounds (the
        largest the IDF can still be: df at least what was seen)."""
        exact: dict[str, float] = {}
        upper: dict[str, float] = {}
        documents = self._stats.documents
        for term in self._query.terms:
            states = [s for (_, t), s in self._lists.items() if t == term]
            seen = sum(s.df if s.df is not None else s.seen for s in states)
            exact[term] = idf(documents, seen) if seen else 0.0
            upper[term] = exact[term] if seen else idf(documents, 1)
        return exact, upper

    def _bounds(self, upper: dict[str, float]) -> dict[ListKey, float]:
        avg_len = self._average()
        return {
            key: 0.0 if state.ended else upper[key[1]] * tf_bound(state.last_impact, avg_len)
            for key, state in self._lists.items()
        }

    def _known(self, doc: _Doc, group: frozenset[str], weights: dict[str, float]) -> float:
        """A group's score in `doc` from the postings seen: its best alternative."""
        avg_len = self._average()
        best = 0.0
        for term in group:
            tf = doc.tf.get(term, 0)
            if tf > 0:
                best = max(best, weights[term] * tf_factor(tf, doc.doc_len, avg_len, K1, B))
        return best

    def _scored(self, weights: dict[str, float]) -> dict[MemoryId, float]:
        scores: dict[MemoryId, float] = {}
        for memory_id, doc in self._docs.items():
            if doc.eligible:
                total = sum(self._known(doc, group, weights) for group in self._query.groups)
                if total > 0:
                    scores[memory_id] = total
        return scores

    def _top(self, scores: dict[MemoryId, float]) -> list[tuple[MemoryId, float]]:
        return heapq.nsmallest(self._query.k, scores.items(), key=lambda item: (-item[1], item[0]))

    def _wanted(self) -> list[ListKey]:
        """The lists whose next page could still change the top k."""
        open_lists = [key for key, state in self._lists.items() if not state.ended]
        if not open_lists or self._query.k <= 0:
            return []
        exact, upper = self._idfs()
        unknown_df = {key for key in open_lists if self._lists[key].df is None}
        bounds = self._bounds(upper)
        self._scores = self._scored(exact)
        top = self._top(self._scores)
        theta = top[-1][1] if len(top) >= self._query.k else 0.0
        wanted: set[ListKey] = set(unknown_df)
        areas = {area for area, _ in open_lists}
        for area in areas:
            unseen = sum(
                max(bounds.get((area, term), 0.0) for term in group) for group in self._query.groups
            )
            if unseen > theta:
                wanted.update(key for key in open_lists if key[0] == area)
        for doc in self._docs.values():
            if not doc.eligible:
                continue
            upper_total = 0.0
            pending: list[ListKey] = []
            for group in self._query.groups:
                known = self._known(doc, group, upper)
                best = known
                for term in group:
                    key = (doc.area, term)
                    bound = bounds.get(key, 0.0)
                    if term not in doc.tf and bound > known:
                        best = max(best, bound)
                        pending.append(key)
                upper_total += best
            if pending and upper_total > theta:
                wanted.update(pending)
        return sorted(wanted)

    def result(self) -> WordRanking:
        scores = self._scores if self._scores is not None else self._scored(self._idfs()[0])
        return WordRanking(
            self._top(scores),
            steps=self._steps,
            postings_read=self._read,
            lists=len(self._lists),
            complete=self._complete,
        )
