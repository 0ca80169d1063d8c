"""Every write in two phases, so that the retry layer runs between them (CONTRACT §3).

A writing service builds a `Write` after bounded validation and the token's authorization
(scope, acting nutzer and agent: no storage read). The retry layer (shared/tools/retry.py)
then claims the call's record *side by side* with `Write.ahead()` — the reads of the
data-dependent authorization (areas, membership, visibility) and, for inserts, the tag
records — and decides only after both: a replay never reaches a caller the authorization
refuses. Only then `Write.store()` scrubs the texts and stores them.

Invariants:
- `ahead()` stores no memory text: at most tag records (names already scrubbed) and
  nothing else; it raises `RequestRejected` for a call refused as a whole.
- `store()` uses only the IDs of the call record (`CallRecord.ids`, reserved with the
  claim), never the counter: a resend that takes over a cut-off send's record gets the same
  IDs for the same entries, so what the first send stored is recognised, not repeated.
- `Stored.refs` names, per entry, the memory the answer reports as stored or changed, with
  the `updated_at` it wrote: a replay whose memory was deleted or changed since no longer
  holds (the retry layer runs that entry again).
- Outside the retry layer (direct service calls) `run_plain` reserves the IDs from the
  counters and runs both phases in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, Self

from shared.calls import CallRecord, CallState
from shared.domain import CounterName
from shared.services.context import ServiceContext

Envelope = dict[str, Any]
# Per entry index: the memory the answer names as stored/changed, and its `updated_at` in
# microseconds (None: its existence is what counts, e.g. a rating's memory).
Refs = dict[int, tuple[str, int | None]]


@dataclass(frozen=True)
class Stored:
    envelope: Envelope
    refs: Refs = field(default_factory=dict)


class Write(Protocol):
    """One write call between the retry layer's claim and its answer."""

    def wants(self) -> Mapping[CounterName, Sequence[int]]:
        """Per counter, the entry indexes that need an ID (known before any read)."""
        ...

    def ahead(self) -> None:
        """Authorization reads (and tag records) that may run side by side with the claim;
        raises RequestRejected when they refuse the call."""
        ...

    def only(self, indexes: set[int]) -> Self:
        """The same call restricted to these entries (a replay's entries that no longer
        hold run again; the others are answered from the record)."""
        ...

    def store(self, ctx: ServiceContext, call: CallRecord) -> Stored:
        """Scrub and store; the answer with its refs."""
        ...


def stamp(moment: datetime) -> int:
    """A memory's `updated_at` as the refs hold it (microseconds since the epoch)."""
    return int(moment.timestamp() * 1_000_000)


def plain_record(ctx: ServiceContext, tenant: str, write: Write) -> CallRecord:
    """A record for a call outside the retry layer: fresh IDs from the counters."""
    ids: dict[CounterName, dict[int, int]] = {}
    for counter, indexes in write.wants().items():
        if indexes:
            numbers = ctx.storage.reserve_ids(tenant, counter, len(indexes))
            ids[counter] = dict(zip(indexes, numbers, strict=True))
    return CallRecord(CallState.NEW, "", "", ids)


def run_plain(ctx: ServiceContext, tenant: str, write: Write) -> Envelope:
    """Both phases in order, without a call record (direct service calls, tools' tests)."""
    write.ahead()
    return write.store(ctx, plain_record(ctx, tenant, write)).envelope
