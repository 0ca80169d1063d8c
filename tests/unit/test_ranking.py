"""Unit tests of BM25 ranking over postings (max over a word's alternative stems)."""

from __future__ import annotations

import math

import pytest

from shared.domain import CorpusStats, Posting
from shared.search.analyzer import document_terms, query_terms
from shared.search.ranking import rank, terms_of

K1 = 1.2
B = 0.75


def bm25(tf: int, doc_len: int, df: int, documents: int, avg_len: float) -> float:
    """Reference Okapi BM25 contribution of one term (non-negative IDF)."""
    idf = math.log(1 + (documents - df + 0.5) / (df + 0.5))
    return idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * doc_len / avg_len))


class Index:
    """A tiny in-memory index built the way storage adapters build it (via document_terms)."""

    def __init__(self, docs: dict[int, tuple[str, str]]) -> None:
        self.postings: dict[str, list[Posting]] = {}
        total = 0
        for entry_id, (titel, inhalt) in docs.items():
            terms, length = document_terms(titel, inhalt)
            total += length
            for term, tf in terms.items():
                self.postings.setdefault(term, []).append(Posting(entry_id, tf, length))
        self.stats = CorpusStats(documents=len(docs), total_len=total)

    def search(self, query: str) -> list[tuple[int, float]]:
        groups = query_terms(query)
        fetched = {t: self.postings[t] for t in terms_of(groups) if t in self.postings}
        return rank(groups, fetched, self.stats)

    def ids(self, query: str) -> list[int]:
        return [entry_id for entry_id, _ in self.search(query)]


# --- terms_of ------------------------------------------------------------------------------


def test_terms_of_returns_distinct_sorted_terms() -> None:
    # Given groups with overlapping terms
    groups = [frozenset({"kund", "kunden"}), frozenset({"kund"}), frozenset({"abc"})]
    # When the terms to look up are derived
    # Then each term appears once, sorted
    assert terms_of(groups) == ["abc", "kund", "kunden"]
    assert terms_of([]) == []


# --- empty inputs --------------------------------------------------------------------------


def test_empty_query_or_postings_gives_no_results() -> None:
    # Given some postings and stats
    postings = {"kund": [Posting(1, 1, 5)]}
    stats = CorpusStats(documents=1, total_len=5)
    # When the query or the postings are empty
    # Then nothing is ranked
    assert rank([], postings, stats) == []
    assert rank([frozenset({"kund"})], {}, stats) == []
    assert rank([frozenset({"kund"})], {"kund": []}, stats) == []


def test_postings_of_terms_outside_the_query_are_ignored() -> None:
    # Given postings for a term the query does not contain
    postings = {"other": [Posting(1, 3, 5)], "kund": [Posting(2, 1, 5)]}
    stats = CorpusStats(documents=2, total_len=10)
    # When ranking a query for "kund"
    result = rank([frozenset({"kund"})], postings, stats)
    # Then only the matching document is returned
    assert [entry_id for entry_id, _ in result] == [2]


# --- the BM25 formula ----------------------------------------------------------------------


def test_score_matches_the_okapi_formula() -> None:
    # Given a corpus of 10 documents averaging 8 terms, and two query words
    stats = CorpusStats(documents=10, total_len=80)
    postings = {
        "vertrag": [Posting(1, 2, 6), Posting(2, 1, 12)],
        "kund": [Posting(1, 1, 6), Posting(3, 4, 8), Posting(4, 1, 8), Posting(5, 1, 8)],
    }
    query = [frozenset({"vertrag"}), frozenset({"kund"})]
    # When ranked
    scores = dict(rank(query, postings, stats))
    # Then each score is the sum of the per-word BM25 contributions
    assert scores[1] == pytest.approx(bm25(2, 6, 2, 10, 8.0) + bm25(1, 6, 4, 10, 8.0))
    assert scores[2] == pytest.approx(bm25(1, 12, 2, 10, 8.0))
    assert scores[3] == pytest.approx(bm25(4, 8, 4, 10, 8.0))
    assert set(scores) == {1, 2, 3, 4, 5}
    assert all(score > 0 for score in scores.values())


def test_idf_is_never_negative_for_very_common_terms() -> None:
    # Given a term contained in every document
    stats = CorpusStats(documents=3, total_len=15)
    postings = {"kund": [Posting(i, 1, 5) for i in (1, 2, 3)]}
    # When ranked
    result = rank([frozenset({"kund"})], postings, stats)
    # Then every document still gets a positive score
    assert len(result) == 3
    assert all(score > 0 for _, score in result)


def test_higher_term_frequency_scores_higher_but_saturates() -> None:
    # Given documents of equal length differing only in term frequency
    stats = CorpusStats(documents=10, total_len=100)
    postings = {"kund": [Posting(1, 1, 10), Posting(2, 2, 10), Posting(3, 20, 10)]}
    # When ranked
    scores = dict(rank([frozenset({"kund"})], postings, stats))
    # Then more occurrences score higher, but never more than idf * (k1 + 1)
    assert scores[3] > scores[2] > scores[1]
    idf = math.log(1 + (10 - 3 + 0.5) / (3 + 0.5))
    assert scores[3] < idf * (K1 + 1)


def test_zero_average_length_is_guarded() -> None:
    # Given stats that report no documents (e.g. lagging behind the postings)
    stats = CorpusStats(documents=0, total_len=0)
    postings = {"kund": [Posting(1, 1, 4), Posting(2, 1, 8)]}
    # When ranked
    result = rank([frozenset({"kund"})], postings, stats)
    # Then it does not fail, scores are finite and positive, and the shorter one wins
    assert [entry_id for entry_id, _ in result] == [1, 2]
    assert all(math.isfinite(score) and score > 0 for _, score in result)


def test_invalid_parameters_are_rejected() -> None:
    # Given a valid query
    stats = CorpusStats(documents=1, total_len=5)
    postings = {"kund": [Posting(1, 1, 5)]}
    # Then out-of-range k1 or b are refused
    with pytest.raises(ValueError, match="k1"):
        rank([frozenset({"kund"})], postings, stats, k1=-0.1)
    with pytest.raises(ValueError, match="b must"):
        rank([frozenset({"kund"})], postings, stats, b=1.5)


# --- ranking properties --------------------------------------------------------------------


def test_document_matching_more_query_words_ranks_higher() -> None:
    # Given documents matching one, two and three of the query words
    index = Index(
        {
            1: ("Notiz", "Kunde Müller"),
            2: ("Notiz", "Kunde Müller Vertrag"),
            3: ("Notiz", "Kunde Müller Vertrag Rechnung"),
            4: ("Notiz", "nichts Passendes hier"),
        }
    )
    # When searching for all three words
    ids = index.ids("Müller Vertrag Rechnung")
    # Then more matched words rank higher, and the non-matching document is absent
    assert ids == [3, 2, 1]


def test_rarer_terms_weigh_more() -> None:
    # Given a common term in 9 of 10 documents and a rare term in 1, same tf and length
    stats = CorpusStats(documents=10, total_len=100)
    postings = {
        "common": [Posting(i, 1, 10) for i in range(1, 10)],
        "rare": [Posting(10, 1, 10)],
    }
    # When searching for both words
    result = rank([frozenset({"common"}), frozenset({"rare"})], postings, stats)
    # Then the document with the rare word ranks first
    assert result[0][0] == 10
    assert result[0][1] > result[1][1]


def test_shorter_documents_rank_higher_at_equal_term_frequency() -> None:
    # Given the same word once in a short and once in a long document
    index = Index(
        {
            1: ("Notiz", "Vertrag " + "Füllwort " * 30),
            2: ("Notiz", "Vertrag kurz"),
        }
    )
    # When searching for it
    result = index.search("Vertrag")
    # Then the short document wins
    assert [entry_id for entry_id, _ in result] == [2, 1]
    assert result[0][1] > result[1][1]


def test_title_hits_beat_body_hits() -> None:
    # Given one entry with the word in its title and one with it in its text, otherwise alike
    index = Index(
        {
            1: ("Allgemeine Notiz", "Rahmenvertrag Lieferant Müller"),
            2: ("Lieferant Müller", "Allgemeine Notiz Rahmenvertrag"),
        }
    )
    # When searching for the word
    result = index.search("Müller")
    # Then the title hit ranks first
    assert [entry_id for entry_id, _ in result] == [2, 1]
    assert result[0][1] > result[1][1]


def test_search_finds_other_spellings_and_word_forms() -> None:
    # Given entries written with umlauts, ß and German plurals
    index = Index(
        {
            1: ("Müller GmbH", "Kundin seit 2019"),
            2: ("Lieferadresse", "Hauptstraße 5, Größe XL"),
            3: ("Verträge", "Alle Verträge der Kunden"),
        }
    )
    # When searching with transliterations and other word forms
    # Then the right entries are found
    assert index.ids("Mueller") == [1]
    assert index.ids("Hauptstrasse") == [2]
    assert index.ids("Groesse") == [2]
    assert index.ids("Vertrag") == [3]
    assert index.ids("Kunde") == [3]


# --- max over a word's alternatives --------------------------------------------------------


def test_word_whose_two_stems_both_match_does_not_score_twice() -> None:
    # Given a document in which both stems of one query word occur with the same tf
    stats = CorpusStats(documents=10, total_len=100)
    postings = {
        "kund": [Posting(1, 2, 10), Posting(2, 1, 10)],
        "kunden": [Posting(1, 2, 10), Posting(3, 1, 10)],
    }
    both = [frozenset({"kund", "kunden"})]
    # When ranked with the group and with one alternative alone
    grouped = dict(rank(both, postings, stats))
    single = dict(rank([frozenset({"kund"})], postings, stats))
    # Then the document scores exactly as if only one stem had matched, not the sum
    assert grouped[1] == pytest.approx(single[1])
    assert grouped[1] < single[1] * 1.5
    # And documents matching only one alternative are still found
    assert set(grouped) == {1, 2, 3}


def test_group_takes_the_best_alternative() -> None:
    # Given a document matching two alternatives with different strength
    stats = CorpusStats(documents=20, total_len=200)
    postings = {
        "weak": [Posting(1, 1, 10)] + [Posting(i, 1, 10) for i in range(2, 12)],
        "strong": [Posting(1, 3, 10)],
    }
    # When ranked with the group of both
    grouped = dict(rank([frozenset({"weak", "strong"})], postings, stats))
    # Then the document's score is that of the stronger alternative alone
    strong_only = dict(rank([frozenset({"strong"})], postings, stats))
    weak_only = dict(rank([frozenset({"weak"})], postings, stats))
    assert strong_only[1] > weak_only[1]
    assert grouped[1] == pytest.approx(strong_only[1])


def test_separate_query_words_do_add_up() -> None:
    # Given the same terms as two separate query words rather than one group
    stats = CorpusStats(documents=10, total_len=100)
    postings = {"kund": [Posting(1, 2, 10)], "vertrag": [Posting(1, 2, 10)]}
    # When ranked as two groups
    two = dict(rank([frozenset({"kund"}), frozenset({"vertrag"})], postings, stats))
    one = dict(rank([frozenset({"kund"})], postings, stats))
    # Then the contributions are summed
    assert two[1] == pytest.approx(2 * one[1])


# --- ordering ------------------------------------------------------------------------------


def test_ties_are_broken_by_ascending_entry_id() -> None:
    # Given identical postings for several documents, listed in shuffled order
    stats = CorpusStats(documents=10, total_len=100)
    postings = {"kund": [Posting(7, 1, 10), Posting(3, 1, 10), Posting(5, 1, 10)]}
    # When ranked
    result = rank([frozenset({"kund"})], postings, stats)
    # Then equal scores come in ascending ID order
    assert [entry_id for entry_id, _ in result] == [3, 5, 7]
    assert result[0][1] == result[1][1] == result[2][1]


def test_results_are_sorted_by_score_descending() -> None:
    # Given documents of increasing term frequency
    stats = CorpusStats(documents=10, total_len=100)
    postings = {"kund": [Posting(i, i, 10) for i in range(1, 6)]}
    # When ranked
    result = rank([frozenset({"kund"})], postings, stats)
    # Then scores are non-increasing and the highest tf comes first
    scores = [score for _, score in result]
    assert scores == sorted(scores, reverse=True)
    assert [entry_id for entry_id, _ in result] == [5, 4, 3, 2, 1]
