"""Call records: what the retry layer (shared/tools/retry.py) keeps per write, on the port.

A record is keyed by a digest of the call's identity (tenant, principal, acting nutzer,
operation, and the arguments or the caller's own idempotency key) and holds, never the
request's text, only:
- `body`: a digest of the canonical arguments (an explicit key with another body is a
  conflict),
- `token`: the send that owns it; the IDs reserved for its entries (`ids`) and what it
  marked (`marks`: what a delete removed, recorded with each removal) belong to that send,
- while it runs: `running_until`, the end of the in-progress mark (after it, a resend
  takes the record over with the same token, IDs and marks: the cut-off send's work is
  recognised, never repeated),
- once answered: the answer (JSON text: IDs and per-entry results) until `expires_at`.

`claim_call` is atomic per key: of concurrent sends exactly one gets NEW (or RESUMED); the
others see RUNNING until the answer is stored. IDs come from the counter of each kind
(adapters may lease them in blocks: gaps are allowed, an ID is never handed out twice).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from shared.domain import CounterName, MemoryId


class CallRecordsUnavailable(RuntimeError):
    """The call records could not be read or written (the adapter's storage failed)."""


class CallState(StrEnum):
    NEW = "new"  # this send created the record: run the call
    RUNNING = "running"  # another send runs it (its mark has not expired): refuse as busy
    DONE = "done"  # answered: the answer is in the record
    RESUMED = "resumed"  # a cut-off send's record, taken over: run again with its IDs and marks


@dataclass(frozen=True)
class CallClaim:
    tenant: str
    key: str
    body: str
    token: str
    now: datetime
    running_until: datetime
    expires_at: datetime
    # Per ID counter: the entry indexes that need an ID (reserved with the record).
    wants: Mapping[CounterName, Sequence[int]] = field(default_factory=dict)


@dataclass(frozen=True)
class CallMarks:
    """What a delete records on its call record (`key`, owned by `token`) in the same
    storage transaction as the memories it removes: per memory ID its mark (the place it
    was), so a resend after a crash answers for exactly what the cut-off send removed."""

    key: str
    token: str
    marks: Mapping[MemoryId, str]


@dataclass(frozen=True)
class CallRecord:
    state: CallState
    token: str
    body: str
    ids: Mapping[CounterName, Mapping[int, int]] = field(default_factory=dict)
    marks: frozenset[str] = frozenset()
    answer: str | None = None

    def id_of(self, counter: CounterName, index: int) -> int:
        return self.ids[counter][index]


def ids_to_json(ids: Mapping[CounterName, Mapping[int, int]]) -> str:
    """The record's IDs as adapters store them: {counter: {index: id}} (JSON text)."""
    return json.dumps(
        {c.value: {str(i): v for i, v in sorted(m.items())} for c, m in ids.items()},
        separators=(",", ":"),
    )


def ids_from_json(text: str) -> dict[CounterName, dict[int, int]]:
    raw: dict[str, dict[str, int]] = json.loads(text)
    return {CounterName(c): {int(i): int(v) for i, v in m.items()} for c, m in raw.items()}


def merge_ids(
    known: Mapping[CounterName, Mapping[int, int]],
    wants: Mapping[CounterName, Sequence[int]],
    fresh: Mapping[CounterName, Sequence[int]],
) -> dict[CounterName, dict[int, int]]:
    """`known` plus, for every wanted index without an ID, the next of `fresh` (one per
    missing index, in order). Adapters share it: a takeover keeps what the first send got."""
    merged = {counter: dict(ids) for counter, ids in known.items()}
    for counter, indexes in wants.items():
        have = merged.setdefault(counter, {})
        numbers = iter(fresh.get(counter, ()))
        for index in indexes:
            if index not in have:
                have[index] = next(numbers)
    return merged


def missing(
    known: Mapping[CounterName, Mapping[int, int]], wants: Mapping[CounterName, Sequence[int]]
) -> dict[CounterName, int]:
    """How many IDs per counter `wants` needs beyond `known`."""
    counts = {
        counter: sum(1 for index in indexes if index not in known.get(counter, {}))
        for counter, indexes in wants.items()
    }
    return {counter: count for counter, count in counts.items() if count}
