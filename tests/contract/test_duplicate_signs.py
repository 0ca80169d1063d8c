"""The near-duplicate signs on postings (issue 22), on every adapter: each posting carries its
memory's `DuplicateSign` and whether its term is one of the memory text's, rewritten with the
memory; and a write's check that rules stored memories out by those signs decides exactly as
the check that loads every candidate (postings stripped of their signs: the loading path)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from shared.config import Settings
from shared.domain import Memory, MemoryId, MemoryReplace, MemoryType, NewMemory
from shared.embedding.hashed import HashedEmbedder
from shared.embedding.port import Purpose
from shared.search.duplicates import memory_sign, term_set
from shared.search.lookup import MemoryTermLookup
from shared.search.vectors import encode
from shared.services.context import ServiceContext
from shared.services.duplicates import find_duplicates
from shared.services.memories import memory_terms
from shared.storage.port import StoragePort
from tests.contract.builders import TENANT, lt, make_memory

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
AREA = "users/nutzer-1"
PROFILE = "profil-zeichen"
EMBEDDER = HashedEmbedder(16)
WORDS = [
    "Rückruf",
    "Vormittag",
    "Lager",
    "Freitag",
    "Rechnung",
    "Termin",
    "Projekt",
    "Server",
    "Backup",
    "Deployment",
    "Montag",
    "Urlaub",
    "Team",
    "Budget",
    "Vertrag",
]
MARKERS = ("jetzt", "inzwischen", "nicht mehr", "now", "")
VALUES = ("10 Uhr", "14 Uhr", "3 Tage", "v2.1", "")


def memory(number: int, text: str, vector: bool) -> Memory:
    found = make_memory(lt(number), memory=text, area=AREA, created_at=NOW, updated_at=NOW)
    if vector:
        found.embedding_profil_hash, found.embedding_dim = PROFILE, EMBEDDER.profile.dimension
    found.terms, found.doc_len = memory_terms(found)
    return found


def vector_of(text: str) -> bytes:
    (values,) = EMBEDDER.embed([text], Purpose.DOCUMENT)
    return encode(values)


def sentence(rng: random.Random, base: Sequence[str] | None = None) -> str:
    """A text of 4-9 of the words (or a variation of `base`'s words), maybe with a value
    and a change marker."""
    words = list(base) if base else ["Kunde", *rng.sample(WORDS, rng.randint(3, 8))]
    if base:
        for _ in range(rng.randint(0, 3)):
            if words and rng.random() < 0.5:
                words.pop(rng.randrange(len(words)))
            else:
                words.insert(rng.randrange(len(words) + 1), rng.choice(WORDS))
    extra = [rng.choice(VALUES), rng.choice(MARKERS) if rng.random() < 0.3 else ""]
    return " ".join([*words, *(e for e in extra if e)]) + "."


class Viewed:
    """The adapter, counting the check's loads of candidates; with `signed=False` its
    postings read as if written without signs: nothing is ruled out, every candidate is
    loaded (the check as it was before the signs)."""

    def __init__(self, storage: StoragePort, *, signed: bool = True) -> None:
        self._storage = storage
        self._signed = signed
        self.loads = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._storage, name)

    def get_memories(self, *args: Any, **kwargs: Any) -> Any:
        self.loads += 1
        return self._storage.get_memories(*args, **kwargs)

    def lookup_memory_terms(self, *args: Any, **kwargs: Any) -> MemoryTermLookup:
        found = self._storage.lookup_memory_terms(*args, **kwargs)
        if self._signed:
            return found
        postings = {
            term: [replace(p, sign=None, text_term=None) for p in listed]
            for term, listed in found.postings.items()
        }
        return replace(found, postings=postings)


def test_every_posting_carries_its_memorys_sign_and_text_terms(storage: StoragePort) -> None:
    # Given a memory whose index also holds its kurzbeschreibung and tags
    stored = memory(1, "Der Kunde wünscht Rückruf ab 10 Uhr, jetzt montags.", vector=True)
    assert storage.put_memories([NewMemory(stored, vector_of(stored.memory))]) == [None]
    # When its postings are read
    lookup = storage.lookup_memory_terms(TENANT, sorted(stored.terms), [AREA], now=NOW)
    # Then each carries the memory's sign, and says whether its term is one of the text's
    postings = [p for listed in lookup.postings.values() for p in listed]
    assert len(postings) == len(stored.terms)
    assert {p.sign for p in postings} == {memory_sign(stored)}
    assert memory_sign(stored).values and memory_sign(stored).markers == {"jetzt"}
    text = term_set(stored.memory)
    texts = {term for term, listed in lookup.postings.items() if listed[0].text_term}
    assert texts == text and set(stored.terms) - text  # "kurz", the tags: not the text's
    # And a replace with another text rewrites them
    changed = replace(stored, memory="Der Kunde wünscht Rückruf ab 14 Uhr.", updated_at=NOW)
    changed.terms, changed.doc_len = memory_terms(changed)
    assert storage.replace_memories([MemoryReplace(changed, stored)], NOW) == [None]
    again = storage.lookup_memory_terms(TENANT, sorted(changed.terms), [AREA], now=NOW)
    signs = {p.sign for listed in again.postings.values() for p in listed}
    assert signs == {memory_sign(changed)} and memory_sign(changed) != memory_sign(stored)


def test_the_signs_decide_as_the_loaded_candidates_do(storage: StoragePort) -> None:
    # Given an area of 56 memories of overlapping words (all say "Kunde": a list longer
    # than the check reads per term), half with vectors, and 40 probes: variations of them
    # and new texts
    rng = random.Random(22)
    texts = [sentence(rng) for _ in range(56)]
    stored = [memory(i + 1, text, vector=i % 2 == 0) for i, text in enumerate(texts)]
    news = [NewMemory(m, vector_of(m.memory) if m.embedding_profil_hash else None) for m in stored]
    assert storage.put_memories(news) == [None] * len(news)
    probes = []
    for number in range(100, 140):
        base = rng.choice(texts).rstrip(".").split() if rng.random() < 0.8 else None
        probe = memory(number, sentence(rng, base), vector=rng.random() < 0.5)
        vector = vector_of(probe.memory) if probe.embedding_profil_hash else None
        probes.append(NewMemory(probe, vector))
    signed, unsigned = Viewed(storage), Viewed(storage, signed=False)
    settings = Settings()
    # When each probe is checked with the signs and without them
    decisions = []
    for new in probes:
        found = []
        for adapter in (signed, unsigned):
            ctx = ServiceContext(adapter, settings, clock=lambda: NOW)  # type: ignore[arg-type]
            hit = find_duplicates(ctx, TENANT, [new], NOW).get(0)
            found.append(None if hit is None else (hit.memory.id, hit.similarity))
        decisions.append(found)
    # Then both decide the same for every probe, some of them duplicates
    assert [with_signs for with_signs, _ in decisions] == [without for _, without in decisions]
    duplicates = sum(1 for with_signs, _ in decisions if with_signs is not None)
    assert 0 < duplicates < len(probes)
    # And the signs spared most loads: only where a duplicate was possible
    assert unsigned.loads > 2 * signed.loads >= 2 * duplicates


def test_a_memory_of_another_type_is_no_candidate(storage: StoragePort) -> None:
    # Given a short-term memory saying exactly what a long-term one is about to say
    text = "Backup des Servers läuft freitags um 22 Uhr."
    short = replace(memory(1, text, vector=False), id=MemoryId(MemoryType.SHORTTERM, 1))
    assert storage.put_memories([NewMemory(short)]) == [None]
    # When the long-term one is checked
    counted = Viewed(storage)
    ctx = ServiceContext(counted, Settings(), clock=lambda: NOW)  # type: ignore[arg-type]
    found = find_duplicates(ctx, TENANT, [NewMemory(memory(2, text, vector=False))], NOW)
    # Then nothing is a duplicate and nothing was loaded
    assert found == {} and counted.loads == 0
