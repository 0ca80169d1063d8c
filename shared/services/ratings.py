"""rate_brain_memories: each rating atomically with the memory's aggregate (contract §5).

A rating call is a `Write` (services/writes.py): the token's checks build it, the rated
memories are read (visibility) side by side with the retry layer's claim, and the ratings
are stored after it under the insert_IDs reserved with the call record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from shared.auth.principal import Principal
from shared.calls import CallRecord, CallState
from shared.domain import CounterName, EntryFailure, EntryFailureCode, Memory, MemoryId, Rating
from shared.services import responses
from shared.services.authorization import identity_errors, require_caller
from shared.services.context import ServiceContext
from shared.services.memories import (
    not_found,
    storage_failure,
    stored_referenzfelder,
    visible_memories,
)
from shared.services.writes import Refs, Stored, run_plain
from shared.validation.errors import FieldError
from shared.validation.parsed import Batch, RatingInput

# A rating may be dated a little ahead of the server clock (clock skew), not more.
MAX_FUTURE_SKEW = timedelta(minutes=5)


@dataclass
class RateWrite:
    """rate_brain_memories between the retry layer's phases: the rated memories are read
    (visibility) side by side with the claim; the ratings are stored after it."""

    ctx: ServiceContext
    principal: Principal
    batch: Batch[RatingInput]
    now: datetime
    results: list[dict[str, Any]]
    candidates: list[tuple[int, RatingInput]]
    memories: dict[MemoryId, Memory] = field(default_factory=dict)
    read: bool = False

    def wants(self) -> dict[CounterName, list[int]]:
        """Every candidate before the read; after it, the visible ones only."""
        return {
            CounterName.RATING: [
                index
                for index, entry in self.candidates
                if not self.read or entry.memory_id in self.memories
            ]
        }

    def ahead(self) -> None:
        ids = list(dict.fromkeys(entry.memory_id for _, entry in self.candidates))
        if ids:
            self.memories = visible_memories(
                self.ctx, self.principal, self.batch.caller.nutzer, ids, self.now
            )
        self.read = True

    def only(self, indexes: set[int]) -> RateWrite:
        return replace(
            self,
            results=[r for r in self.results if r["index"] in indexes],
            candidates=[(i, e) for i, e in self.candidates if i in indexes],
        )

    def store(self, ctx: ServiceContext, call: CallRecord) -> Stored:
        results = list(self.results)
        refs: Refs = {}
        accepted: list[tuple[int, RatingInput]] = []
        for index, entry in self.candidates:
            if entry.memory_id not in self.memories:
                results.append(_rating_failure(index, entry, [_not_found(index, entry)]))
            else:
                accepted.append((index, entry))
        ids = {index: call.id_of(CounterName.RATING, index) for index, _ in accepted}
        tenant, now = self.principal.tenant, self.now
        if call.state is CallState.RESUMED:
            # A resend of a write a crash cut off: ratings it already recorded count once.
            for index, entry in _rated_before(ctx, tenant, accepted, ids):
                memory = self.memories[entry.memory_id]
                results.append(_rating_success(ctx, index, entry, ids[index], memory))
                refs[index] = (str(entry.memory_id), None)
            done = {result["index"] for result in results}
            accepted = [(index, entry) for index, entry in accepted if index not in done]
        ratings = [
            Rating(
                tenant=tenant,
                insert_id=ids[index],
                memory_id=entry.memory_id,
                agent=entry.agent,
                nutzer=self.batch.caller.nutzer,
                score=entry.score,
                datum=entry.datum or now,
                referenzfelder=stored_referenzfelder(self.batch.referenzfelder),
            )
            for index, entry in accepted
        ]
        outcomes = ctx.storage.record_ratings(ratings, now, known=self.memories) if ratings else []
        for (index, entry), outcome in zip(accepted, outcomes, strict=True):
            if isinstance(outcome, EntryFailure):
                if outcome.code is EntryFailureCode.NOT_FOUND:
                    error = _not_found(index, entry)
                else:
                    error = storage_failure(f"inhalt.memories[{index}]", outcome)
                results.append(_rating_failure(index, entry, [error]))
                continue
            refs[index] = (str(entry.memory_id), None)
            results.append(
                {
                    "index": index,
                    "typ": entry.typ.value,
                    "memory_ID": str(entry.memory_id),
                    "erfolg": True,
                    "insert_ID": outcome.insert_id,
                    "score_avg": responses.number(outcome.score_avg),
                    "score_count": outcome.score_count,
                    "last_call": responses.format_local(outcome.last_call, ctx.settings.zone),
                }
            )
        return Stored(responses.batch(results, self.batch.referenzfelder), refs)


def prepare_rate(ctx: ServiceContext, principal: Principal, batch: Batch[RatingInput]) -> RateWrite:
    """The token's checks of a rating call (no storage read)."""
    require_caller(principal, batch.caller)
    now = ctx.clock()
    results: list[dict[str, Any]] = []
    candidates: list[tuple[int, RatingInput]] = []
    for index, entry in enumerate(batch.entries):
        if isinstance(entry, list):
            results.append(responses.entry_failure(index, entry))
            continue
        path = f"inhalt.memories[{index}].parameter"
        errors = identity_errors(principal, nutzer=[], agents=[(f"{path}.agent", entry.agent)])
        if entry.datum is not None and entry.datum > now + MAX_FUTURE_SKEW:
            errors.append(FieldError(f"{path}.datum", "datum darf nicht in der Zukunft liegen."))
        if errors:
            results.append(_rating_failure(index, entry, errors))
        else:
            candidates.append((index, entry))
    return RateWrite(ctx, principal, batch, now, results, candidates)


def rate_memories(
    ctx: ServiceContext, principal: Principal, batch: Batch[RatingInput]
) -> dict[str, Any]:
    """Rate outside the retry layer (services/writes.py `run_plain`)."""
    return run_plain(ctx, principal.tenant, prepare_rate(ctx, principal, batch))


def _rated_before(
    ctx: ServiceContext,
    tenant: str,
    accepted: list[tuple[int, RatingInput]],
    ids: Mapping[int, int],
) -> list[tuple[int, RatingInput]]:
    """The entries whose rating an earlier send of this write recorded already."""
    recorded: dict[MemoryId, set[int]] = {}
    for memory_id in dict.fromkeys(entry.memory_id for _, entry in accepted):
        recorded[memory_id] = {r.insert_id for r in ctx.storage.get_ratings(tenant, memory_id)}
    return [(index, entry) for index, entry in accepted if ids[index] in recorded[entry.memory_id]]


def _rating_success(
    ctx: ServiceContext, index: int, entry: RatingInput, insert_id: int, memory: Memory
) -> dict[str, Any]:
    return {
        "index": index,
        "typ": entry.typ.value,
        "memory_ID": str(entry.memory_id),
        "erfolg": True,
        "insert_ID": insert_id,
        "score_avg": responses.number(memory.score_avg),
        "score_count": memory.score_count,
        "last_call": responses.format_local(memory.last_call, ctx.settings.zone),
    }


def _not_found(index: int, entry: RatingInput) -> FieldError:
    return not_found(f"inhalt.memories[{index}].parameter.memory_ID", entry.memory_id)


def _rating_failure(index: int, entry: RatingInput, errors: list[FieldError]) -> dict[str, Any]:
    return responses.entry_failure(
        index, errors, typ=entry.typ.value, memory_ID=str(entry.memory_id)
    )
