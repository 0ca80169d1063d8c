"""Impact-ordered memory postings: the word index's layout rule, shared by both adapters.

The memory word index is partitioned by area (`users/<n>`, `teams/<t>`, `projects/<p>`)
and, inside an area, by term. Within one (area, term) list the postings are ordered by
their *impact*, highest first: the BM25 term-frequency factor of the posting,
`tf * (k1 + 1) / (tf + k1 * (1 - b + b * doc_len / IMPACT_REFERENCE_LEN))`, quantised to an
integer. The IDF of a term is the same for every posting of that term, so within one list
this is the order BM25 itself would give, except that a fixed reference length stands in
for the corpus' current average length (which moves with every write).

Searches read these lists page by page, highest impact first, only while a memory not yet
seen could still enter the top k (`topk.py`: exact BM25 top k, a read budget as backstop;
docs/search.md). `POSTINGS_PER_AREA_TERM` is only the head a plain `lookup_memory_terms`
(without a word query) reads per list. Invariant: the impact of a posting is a pure function
of (tf, doc_len), so that the key of a stored posting can always be recomputed from the
stored memory (delete, replace, reindex). Changing the formula needs a `brain reindex`.
"""

from __future__ import annotations

from typing import Final

K1: Final = 1.2
B: Final = 0.75
IMPACT_REFERENCE_LEN: Final = 40
IMPACT_SCALE: Final = 10_000
# The largest impact: tf -> infinity gives k1 + 1.
IMPACT_MAX: Final = int((K1 + 1.0) * IMPACT_SCALE)
# A plain lookup (no word query) reads at most this many postings per (area, term).
POSTINGS_PER_AREA_TERM: Final = 200


def posting_impact(tf: int, doc_len: int) -> int:
    """The quantised BM25 tf factor of one posting: 0 .. IMPACT_MAX, higher is better."""
    if tf <= 0:
        return 0
    norm = K1 * (1.0 - B + B * max(doc_len, 0) / IMPACT_REFERENCE_LEN)
    return min(IMPACT_MAX, round(IMPACT_SCALE * tf * (K1 + 1.0) / (tf + norm)))
