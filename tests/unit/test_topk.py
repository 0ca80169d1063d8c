"""The safe top-k word ranking (shared/search/topk.py) against the exhaustive BM25 ranking of
every posting (`ranking.rank`): the same memories in the same order, whatever the page sizes,
and fewer postings read when the answer is clear; the budget only as a backstop."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.domain import CorpusStats, MemoryId, MemoryPosting, MemoryType
from shared.search.postings import posting_impact
from shared.search.ranking import rank
from shared.search.topk import (
    UNBOUNDED,
    Page,
    PageRequest,
    ReadBudget,
    WordQuery,
    run,
)

NOW = datetime(2026, 1, 5, tzinfo=UTC)
AREAS = ("users/anna", "teams/ops")
TERMS = ("plan", "kund", "vertrag", "fehlt")


def ordered(postings: Sequence[MemoryPosting]) -> list[MemoryPosting]:
    """The list order of the index: impact descending, then type and number."""
    return sorted(
        postings,
        key=lambda p: (-posting_impact(p.tf, p.doc_len), p.entry_id.typ.value, p.entry_id.number),
    )


class Lists:
    """An in-memory index: (area, term) -> ordered postings; counts what was read."""

    def __init__(self, lists: dict[tuple[str, str], list[MemoryPosting]]) -> None:
        self.lists = {key: ordered(found) for key, found in lists.items()}
        self.steps: list[int] = []

    def read(self, requests: Sequence[PageRequest]) -> list[Page]:
        self.steps.append(len(requests))
        pages = []
        for request in requests:
            found = self.lists.get(request.key, [])
            start = 0 if request.cursor is None else int(request.cursor)  # type: ignore[call-overload]
            end = start + request.size
            cursor = end if end < len(found) else None
            remaining = len(found) - start if request.count else None
            pages.append(Page(found[start:end], cursor, remaining))
        return pages

    def exhaustive(self, query: WordQuery, stats: CorpusStats) -> list[tuple[MemoryId, float]]:
        by_term: dict[str, list[MemoryPosting]] = {}
        for (_, term), found in self.lists.items():
            by_term.setdefault(term, []).extend(found)
        ranked = rank(list(query.groups), by_term, stats)
        eligible = {
            p.entry_id
            for found in self.lists.values()
            for p in found
            if (query.typ is None or p.entry_id.typ is query.typ)
            and (p.expires_at is None or p.expires_at > query.now)
        }
        return [(mid, score) for mid, score in ranked if mid in eligible][: query.k]


def index_of(draw: st.DrawFn) -> tuple[Lists, CorpusStats]:
    memories = draw(st.integers(min_value=1, max_value=60))
    lists: dict[tuple[str, str], list[MemoryPosting]] = {}
    total = 0
    for number in range(1, memories + 1):
        area = AREAS[draw(st.integers(0, len(AREAS) - 1))]
        typ = draw(st.sampled_from(list(MemoryType)))
        doc_len = draw(st.integers(1, 120))
        total += doc_len
        expired = draw(st.integers(0, 9)) == 0
        expires = NOW - timedelta(days=1) if expired else None
        for term in draw(st.sets(st.sampled_from(TERMS), max_size=len(TERMS))):
            tf = draw(st.integers(1, 6))
            posting = MemoryPosting(MemoryId(typ, number), tf, doc_len, "anna", expires, area)
            lists.setdefault((area, term), []).append(posting)
    return Lists(lists), CorpusStats(documents=memories + draw(st.integers(0, 50)), total_len=total)


@st.composite
def cases(draw: st.DrawFn) -> tuple[Lists, CorpusStats, WordQuery]:
    index, stats = index_of(draw)
    groups = draw(
        st.lists(
            st.frozensets(st.sampled_from(TERMS), min_size=1, max_size=2), min_size=1, max_size=3
        )
    )
    budget = ReadBudget(
        first_page=draw(st.integers(1, 8)),
        next_page=draw(st.integers(1, 8)),
        steps=UNBOUNDED.steps,
        postings=UNBOUNDED.postings,
    )
    typ = draw(st.sampled_from([None, MemoryType.LONGTERM]))
    query = WordQuery(tuple(groups), draw(st.integers(1, 12)), NOW, typ, budget)
    return index, stats, query


def lists_of(query: WordQuery) -> list[tuple[str, str]]:
    return [(area, term) for area in AREAS for term in query.terms]


@settings(max_examples=300, deadline=None)
@given(cases())
def test_the_paged_top_k_is_the_exhaustive_top_k(case: tuple[Lists, CorpusStats, WordQuery]):
    # Given any index, any page sizes, a query with alternatives, a type filter and expiry
    index, stats, query = case
    # When the top k is read page by page
    found = run(query, lists_of(query), stats, index.read)
    # Then it is exactly the exhaustive ranking's top k: same memories, order and scores
    expected = index.exhaustive(query, stats)
    assert [mid for mid, _ in found.ranked] == [mid for mid, _ in expected]
    for (_, got), (_, want) in zip(found.ranked, expected, strict=True):
        assert abs(got - want) < 1e-9
    assert found.complete


def test_a_clear_answer_reads_only_the_head_of_a_long_list() -> None:
    # Given 2,000 memories with a common word, 5 of which hold it and a rare one often
    def posting(number: int, tf: int) -> MemoryPosting:
        return MemoryPosting(
            MemoryId(MemoryType.LONGTERM, number), tf, 60, "anna", None, "users/anna"
        )

    common = [posting(n, 3 if n > 1995 else 1) for n in range(1, 2001)]
    rare = [posting(n, 5) for n in range(1996, 2001)]
    index = Lists({("users/anna", "plan"): common, ("users/anna", "selten"): rare})
    stats = CorpusStats(documents=2000, total_len=2000 * 60)
    query = WordQuery((frozenset({"selten"}), frozenset({"plan"})), 5, NOW)
    budget = ReadBudget(first_page=100, next_page=100)
    query = WordQuery(query.groups, 5, NOW, None, budget)
    # When the top 5 is read
    found = run(query, [("users/anna", "plan"), ("users/anna", "selten")], stats, index.read)
    # Then they are the five rare-word memories, exact, and most of the long list was not read
    assert [mid.number for mid, _ in found.ranked] == [1996, 1997, 1998, 1999, 2000]
    assert found.ranked == index.exhaustive(query, stats)
    assert found.postings_read == 105
    assert found.steps == 1
    assert found.complete


def test_the_budget_stops_the_reads_and_says_so() -> None:
    # Given one long list of equal postings: no page can rule the rest out
    postings = [
        MemoryPosting(MemoryId(MemoryType.LONGTERM, n), 1, 40, "anna", None, "users/anna")
        for n in range(1, 501)
    ]
    index = Lists({("users/anna", "plan"): postings})
    stats = CorpusStats(documents=1000, total_len=40_000)
    budget = ReadBudget(first_page=50, next_page=50, steps=3, postings=10_000)
    query = WordQuery((frozenset({"plan"}), frozenset({"fehlt"})), 600, NOW, None, budget)
    # When more hits are wanted than the budget's three steps can read
    found = run(query, [("users/anna", "plan")], stats, index.read)
    # Then it stops after three steps with what it read, marked incomplete
    assert found.steps == 3
    assert found.postings_read == 150
    assert len(found.ranked) == 150
    assert not found.complete
