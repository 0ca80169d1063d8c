"""`could_duplicate` (services/duplicates.py): what the postings' signs may rule out without
loading a memory. Only "no duplicate possible" may skip the load, so every case where the
loaded memories would decide "duplicate" must stay open — also where a posting list was
cut off at `POSTINGS_PER_TERM` and hides terms the candidate shares."""

from __future__ import annotations

from datetime import UTC, datetime

from shared.config import Settings
from shared.domain import Memory, MemoryId, MemoryPosting, MemoryType, NewMemory
from shared.search.duplicates import memory_sign, term_set
from shared.search.vectors import VectorHit
from shared.services.duplicates import could_duplicate
from shared.services.duplicates_ahead import POSTINGS_PER_TERM
from shared.services.memories import memory_terms
from tests.contract.builders import make_memory

NOW = datetime(2026, 6, 1, tzinfo=UTC)
AREA = "users/nutzer-1"
RULE = Settings().duplicate_rule


def memory(number: int, text: str, profile: str | None = None) -> Memory:
    found = make_memory(
        MemoryId(MemoryType.LONGTERM, number),
        memory=text,
        area=AREA,
        embedding_profil_hash=profile,
        embedding_dim=None if profile is None else 4,
    )
    found.terms, found.doc_len = memory_terms(found)
    return found


def posting(stored: Memory, term: str, signed: bool = True) -> MemoryPosting:
    text = term in term_set(stored.memory)
    return MemoryPosting(
        stored.id,
        1,
        stored.doc_len,
        stored.nutzer,
        None,
        AREA,
        text if signed else None,
        memory_sign(stored) if signed else None,
    )


def lists(*stored: Memory, terms: frozenset[str]) -> dict[str, list[MemoryPosting]]:
    return {term: [posting(m, term) for m in stored if term in m.terms] for term in sorted(terms)}


STORED = memory(1, "Meier zahlt per Lastschrift, Rabatt bleibt.")
PARAPHRASE = NewMemory(memory(2, "Meier zahlt per Lastschrift, Rabatt bleibt!"))


def check(new: NewMemory, postings: dict[str, list[MemoryPosting]]) -> bool:
    """Could `new` duplicate STORED, by these postings (no vector hit)?"""
    terms = term_set(new.memory.memory)
    return could_duplicate(new, terms, [], [STORED.id], postings, RULE)


def test_a_paraphrase_stays_open_and_a_changed_value_is_ruled_out() -> None:
    terms = term_set(PARAPHRASE.memory.memory)
    assert check(PARAPHRASE, lists(STORED, terms=terms))
    changed = NewMemory(memory(3, "Meier zahlt per Lastschrift, Rabatt 5 bleibt."))
    assert not check(changed, lists(STORED, terms=term_set(changed.memory.memory)))
    marked = NewMemory(memory(4, "Meier zahlt jetzt per Lastschrift, Rabatt bleibt."))
    assert not check(marked, lists(STORED, terms=term_set(marked.memory.memory)))


def test_terms_hidden_by_a_cut_off_list_keep_the_candidate_open() -> None:
    # Given the stored twin's postings only in the "rabatt" list: every other list of the
    # paraphrase's terms is full of other memories (cut off at POSTINGS_PER_TERM)
    terms = term_set(PARAPHRASE.memory.memory)
    fillers = [memory(100 + i, f"Meier zahlt per Lastschrift, bleibt {i}.") for i in range(50)]
    postings = lists(STORED, terms=frozenset(t for t in terms if t.startswith("rabatt")))
    for term in terms - postings.keys():
        postings[term] = [posting(f, term) for f in fillers if term in f.terms]
        assert len(postings[term]) >= POSTINGS_PER_TERM
    # When the check asks whether the twin could be a duplicate
    # Then it stays open (the loaded twin is one), though one shared term is all it sees
    assert check(PARAPHRASE, postings)


def test_a_posting_without_sign_keeps_it_open_and_a_vector_twin_is_left_to_vectors() -> None:
    terms = term_set(PARAPHRASE.memory.memory)
    unsigned = {t: [posting(STORED, t, signed=False)] for t in terms if t in STORED.terms}
    assert check(PARAPHRASE, unsigned)
    # Given both with vectors of one profile: words do not decide, the nearest vector does
    twin = memory(1, STORED.memory, profile="p")
    new = NewMemory(memory(2, PARAPHRASE.memory.memory, profile="p"), b"\0" * 16)
    postings = lists(twin, terms=terms)
    assert not could_duplicate(new, terms, [], [twin.id], postings, RULE)
    hit = VectorHit(twin.id, 0.9)
    assert could_duplicate(new, terms, [hit], [twin.id], postings, RULE)
    # And a nearest vector the postings do not list stays open
    other = VectorHit(MemoryId(MemoryType.LONGTERM, 99), 0.9)
    assert could_duplicate(new, terms, [other], [twin.id], postings, RULE)
