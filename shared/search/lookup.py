"""What a term lookup of the storage port answers (`StoragePort.lookup_memory_terms`).

Invariant: it lives beside the rankings it carries (`topk.py`, `vectors.py`), not in
shared/domain.py — domain objects import nothing of search, so search and domain form no
import cycle (`tests/unit/test_module_seams.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.domain import CorpusStats, Memory, MemoryPosting
from shared.search.topk import WordRanking
from shared.search.vectors import VectorRanking


@dataclass(frozen=True)
class MemoryTermLookup:
    postings: dict[str, list[MemoryPosting]]
    stats: CorpusStats
    # The projects of the nutzer named by `lookup_memory_terms(member=...)`; None: not asked.
    projects: frozenset[str] | None = None
    # `lookup_memory_terms(recent=n)`: the newest n short-term memories of the areas read.
    recent: list[Memory] = field(default_factory=list)
    # `lookup_memory_terms(vector=q)`: `search_vectors` over the areas read; None: not asked.
    vectors: VectorRanking | None = None
    # `lookup_memory_terms(words=q)`: the safe top k of q over the areas read (`topk.py`);
    # `postings` then stays empty.
    words: WordRanking | None = None
