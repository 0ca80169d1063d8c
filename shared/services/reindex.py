"""`brain reindex`: rebuild the memory word index (and, through hooks, other indexes) from
the stored memories, page by page, resumable, while the service keeps serving.

Invariants:
- Walks one tenant's memory IDs (long-term, then short-term) up to the highest ID handed
  out when the walk of that type began, in pages read with `get_memories` (DynamoDB: one
  BatchGetItem per page, no scan). Memories written later are indexed by their writer.
- Each memory is rewritten through `replace_memories` with its terms analysed anew and its
  stored content unchanged: the adapter deletes the postings the stored version names
  (DynamoDB: also its `stale` keys) beyond the new ones, writes every posting of the
  memory, fixes the per-area index keys and the corpus stats (the repair path of a lost
  or damaged index). Like any write it is conditioned on the version it read and bumps
  it: a write that lands in between makes it re-read (bounded retries); the other
  writer's optimistic check sees the moved version, as with any concurrent update.
  Expired and deleted memories are skipped.
- The cursor (`Cursor`, text `longterm:101`) names the next ID; a run that stopped resumes
  there. A page is idempotent: running it twice gives the same index.
- `INDEX_HOOKS` lets other indexes (the vector index) rebuild from the same pages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from shared.domain import CounterName, EntryFailureCode, Memory, MemoryId, MemoryReplace, MemoryType
from shared.services.context import ServiceContext
from shared.services.embeddings import embed_missing
from shared.services.memories import memory_terms

PAGE_SIZE: Final = 100
CONFLICT_RETRIES: Final = 3
_ORDER: Final = (MemoryType.LONGTERM, MemoryType.SHORTTERM)
_CURSOR = re.compile(r"^(longterm|shortterm):([1-9][0-9]{0,18})$")

# Called with every page of live memories after their words were reindexed.
IndexHook = Callable[[ServiceContext, str, Sequence[Memory]], object]
# The vector index: memories without a vector get the configured embedder's.
INDEX_HOOKS: list[IndexHook] = [embed_missing]


@dataclass(frozen=True)
class Cursor:
    typ: MemoryType
    number: int

    @classmethod
    def parse(cls, text: str) -> Cursor:
        found = _CURSOR.fullmatch(text.strip())
        if found is None:
            raise ValueError(
                f"Ungültiger Fortsetzungspunkt '{text}': erwartet longterm:<n> oder shortterm:<n>."
            )
        return cls(MemoryType(found.group(1)), int(found.group(2)))

    def __str__(self) -> str:
        return f"{self.typ.value}:{self.number}"


START: Final = Cursor(MemoryType.LONGTERM, 1)


@dataclass
class Progress:
    reindexed: int = 0
    skipped: int = 0
    failed: list[MemoryId] = field(default_factory=list)
    # Where the next page starts; None: done.
    cursor: Cursor | None = START


def memory_pages(
    ctx: ServiceContext, tenant: str, start: Cursor = START, page: int = PAGE_SIZE
) -> Iterator[tuple[list[Memory], Cursor | None]]:
    """The live memories of a tenant by type and ID, a page of IDs at a time, each with the
    cursor after it (None after the last page)."""
    types = list(_ORDER[_ORDER.index(start.typ) :])
    number = start.number
    for position, typ in enumerate(types):
        highest = ctx.storage.highest_id(tenant, CounterName(typ.value))
        while number <= highest:
            ids = [MemoryId(typ, n) for n in range(number, min(number + page, highest + 1))]
            number = ids[-1].number + 1
            found = ctx.storage.get_memories(tenant, ids, ctx.clock())
            if number <= highest:
                following: Cursor | None = Cursor(typ, number)
            elif position + 1 < len(types):
                following = Cursor(types[position + 1], 1)
            else:
                following = None
            yield [found[i] for i in ids if i in found], following
        number = 1


def reindexed(memory: Memory) -> Memory:
    """The memory as it is stored, with its index terms analysed anew."""
    terms, doc_len = memory_terms(memory)
    return replace(memory, terms=terms, doc_len=doc_len)


def reindex_memories(ctx: ServiceContext, tenant: str, memories: Sequence[Memory]) -> Progress:
    """Rewrite the word index of these memories (see the module invariants)."""
    progress = Progress(cursor=None)
    pending = list(memories)
    for _ in range(CONFLICT_RETRIES + 1):
        if not pending:
            break
        outcomes = ctx.storage.replace_memories(
            [MemoryReplace(reindexed(m), m) for m in pending], ctx.clock()
        )
        moved: list[MemoryId] = []
        for memory, outcome in zip(pending, outcomes, strict=True):
            if outcome is None:
                progress.reindexed += 1
            elif outcome.code is EntryFailureCode.NOT_FOUND:
                progress.skipped += 1  # deleted or expired meanwhile
            elif outcome.code is EntryFailureCode.CONFLICT:
                moved.append(memory.id)
            else:
                progress.failed.append(memory.id)
        again = ctx.storage.get_memories(tenant, moved, ctx.clock()) if moved else {}
        progress.skipped += len(moved) - len(again)
        pending = [again[i] for i in moved if i in again]
    progress.failed += [m.id for m in pending]
    return progress


def reindex(
    ctx: ServiceContext,
    tenant: str,
    start: Cursor = START,
    *,
    page: int = PAGE_SIZE,
    on_page: Callable[[Progress], None] | None = None,
    hooks: Sequence[IndexHook] | None = None,
) -> Progress:
    """Reindex every live memory of `tenant` from `start`; `on_page` sees the progress
    (with the cursor to resume from) after every page."""
    total = Progress(cursor=start)
    for memories, following in memory_pages(ctx, tenant, start, page):
        if memories:
            done = reindex_memories(ctx, tenant, memories)
            total.reindexed += done.reindexed
            total.skipped += done.skipped
            total.failed += done.failed
            for hook in INDEX_HOOKS if hooks is None else hooks:
                hook(ctx, tenant, memories)
        total.cursor = following
        if on_page is not None:
            on_page(total)
    total.cursor = None
    return total
