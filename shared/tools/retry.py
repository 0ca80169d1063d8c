"""The retry layer (CONTRACT §3): every write runs at most once per call key and window.

Order (dispatch.py, REST): bounded validation → the token's authorization → `Write` built
(services/writes.py) → here: the call record's claim side by side with the write's
authorization reads → decision → scrubbing and storage → the answer recorded.

Invariants:
- The call key is a digest of (tenant, principal subject, acting nutzer, operation, and the
  canonical arguments — or, when the caller names the write with
  `referenzfelder.idempotenz_schluessel` / REST `Idempotency-Key`, that key). Keys are
  opaque: never scrubbed, and stored only inside the digest. The body digest covers every
  argument (REST-only fields included): the same explicit key with another body is a
  conflict (German error, REST 409), never a replay.
- Within the window (`retry_window_s` without a key, `idempotency_key_window_s` with one) an
  identical call answers with the recorded answer and writes nothing; while the first still
  runs, a duplicate gets "wird bereits ausgeführt". The record holds the answer (IDs,
  per-entry results) without the echoed `referenzfelder` — never the request's text.
- A replay holds only while what it answered with is unchanged (`Stored.refs`: one read):
  an entry whose memory was deleted or changed since runs again, with fresh IDs; the other
  entries keep their recorded results.
- The running mark lasts `idempotency_in_progress_s` (on Lambda: the invocation's remaining
  time) — longer than the call's time budget, which is checked once more before storing,
  so no call still stores after its mark ran out. A resend after the mark (a crash) takes
  the record over with the same IDs: entries the cut-off send stored are recognised.
- An answer that stored nothing (`responses.is_error`) is not recorded: resending runs again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from shared.auth.principal import Principal
from shared.calls import CallClaim, CallRecord, CallRecordsUnavailable, CallState, missing
from shared.services import areas, responses
from shared.services.budget import BudgetExceeded, check_budget
from shared.services.context import ServiceContext
from shared.services.writes import Envelope, Refs, Stored, Write, stamp
from shared.tools.idempotency_fields import IN_PROGRESS_FIELD, KEY_FIELD
from shared.validation.errors import Art, FieldError, RequestRejected

_log = logging.getLogger(__name__)

# A call refused before anything was stored: its claim is dropped, a resend runs at once.
Refused = RequestRejected | BudgetExceeded
REFUSED_BEFORE_STORING = (RequestRejected, BudgetExceeded)


def acting_nutzer(principal: Principal, arguments: Mapping[str, Any]) -> str:
    """The nutzer a call acts as: the envelope's `inhalt.nutzer`, REST's `nutzer`, else the
    token's own."""
    inhalt = arguments.get("inhalt")
    if isinstance(inhalt, Mapping) and isinstance(inhalt.get("nutzer"), str | int):
        return str(inhalt["nutzer"])
    if isinstance(arguments.get("nutzer"), str):
        return str(arguments["nutzer"])
    return areas.acting_nutzer(principal)


def digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    # surrogatepass: a lone surrogate a client sent still hashes (the validators refuse it)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def explicit_key(arguments: Mapping[str, Any]) -> str | None:
    referenzfelder = arguments.get("referenzfelder")
    named = referenzfelder.get(KEY_FIELD) if isinstance(referenzfelder, Mapping) else None
    return str(named) if isinstance(named, str | int) and str(named) else None


@dataclass(frozen=True)
class CallKey:
    key: str
    body: str
    explicit: bool


def call_key(principal: Principal, operation: str, arguments: Mapping[str, Any]) -> CallKey:
    """What identifies a call (see the module docstring); digests only."""
    body = digest(arguments)
    named = explicit_key(arguments)
    identity = {
        "tenant": principal.tenant,
        "subject": principal.subject,
        "nutzer": acting_nutzer(principal, arguments),
        "operation": operation,
        **({"schluessel": named} if named is not None else {"arguments": body}),
    }
    return CallKey(digest(identity), body, named is not None)


def in_progress_failure(referenzfelder: dict[str, Any]) -> Envelope:
    return responses.failure(
        [
            FieldError(
                IN_PROGRESS_FIELD,
                "wird bereits ausgeführt: Ein identischer Aufruf (gleicher Nutzer, gleiches "
                "Tool, gleiche Argumente) läuft noch. Nichts wurde doppelt geschrieben; bitte "
                "in einigen Sekunden erneut senden, dann kommt die Antwort des ersten Aufrufs.",
                Art.IN_PROGRESS,
            )
        ],
        referenzfelder,
    )


def key_conflict(referenzfelder: dict[str, Any]) -> Envelope:
    return responses.failure(
        [
            FieldError(
                f"referenzfelder.{KEY_FIELD}",
                "Konflikt: Dieser idempotenz_schluessel benennt schon einen anderen Aufruf "
                "(anderer Inhalt); nichts wurde gespeichert. Für einen neuen Schreibvorgang "
                "einen neuen Schlüssel senden, für eine Wiederholung denselben Inhalt.",
                Art.CONFLICT,
            )
        ],
        referenzfelder,
    )


@dataclass
class _Call:
    ctx: ServiceContext
    principal: Principal
    key: CallKey
    echo: dict[str, Any]
    running_s: float

    @property
    def tenant(self) -> str:
        return self.principal.tenant

    def run(self, write: Write) -> Envelope:
        """Claim (side by side with the write's authorization reads), decide, store."""
        claimed, refused = self.ctx.storage.side_by_side([lambda: self.claim(write), _ahead(write)])
        assert isinstance(claimed, CallRecord)
        record = claimed
        if isinstance(refused, REFUSED_BEFORE_STORING):
            if record.state is CallState.NEW:
                self.ctx.storage.drop_call(self.tenant, self.key.key, record.token)
            raise refused
        if record.body != self.key.body:
            return key_conflict(self.echo)
        if record.state is CallState.RUNNING:
            return in_progress_failure(self.echo)
        if record.state is CallState.DONE:
            return self.replay(write, record)
        return self.store(write, record)

    def claim(self, write: Write) -> CallRecord:
        now = self.ctx.clock()
        window = self.ctx.settings.retry_window(explicit=self.key.explicit)
        return self.ctx.storage.claim_call(
            CallClaim(
                tenant=self.tenant,
                key=self.key.key,
                body=self.key.body,
                token=uuid.uuid4().hex,
                now=now,
                running_until=now + timedelta(seconds=self.running_s),
                expires_at=now + timedelta(seconds=window),
                wants=write.wants(),
            )
        )

    def finish(self, record: CallRecord, stored: Stored) -> Envelope:
        envelope = stored.envelope
        if responses.is_error(envelope):
            self.ctx.storage.drop_call(self.tenant, self.key.key, record.token)
        else:
            answer = {
                "envelope": {k: v for k, v in envelope.items() if k != "referenzfelder"},
                "refs": {str(index): list(ref) for index, ref in stored.refs.items()},
            }
            window = self.ctx.settings.retry_window(explicit=self.key.explicit)
            expires_at = self.ctx.clock() + timedelta(seconds=window)
            text = json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
            if not self.ctx.storage.finish_call(
                self.tenant, self.key.key, record.token, text, expires_at
            ):
                _log.warning("call record taken over before its answer was recorded")
        return {**envelope, "referenzfelder": self.echo}

    def store(self, write: Write, record: CallRecord) -> Envelope:
        return self.finish(record, self._stored(write, record))

    def _stored(self, write: Write, record: CallRecord) -> Stored:
        """Scrub and store under the record's IDs (reserved now for entries without one:
        after the authorization, so a refused call reserves nothing where that is free)."""
        keyed = replace(self.ctx, write_key=record.token, call_key=self.key.key)
        try:
            check_budget()  # the last check before anything is stored (module docstring)
            wants = write.wants()
            if missing(record.ids, wants):
                ids = self.ctx.storage.reserve_call_ids(
                    self.tenant, self.key.key, record.token, wants
                )
                record = replace(record, ids=ids)
            return write.store(keyed, record)
        except REFUSED_BEFORE_STORING:
            # refused before anything was stored: a resend runs again at once
            self.ctx.storage.drop_call(self.tenant, self.key.key, record.token)
            raise

    def replay(self, write: Write, record: CallRecord) -> Envelope:
        assert record.answer is not None
        answer = json.loads(record.answer)
        envelope: Envelope = answer["envelope"]
        refs: Refs = {int(i): (ref[0], ref[1]) for i, ref in answer.get("refs", {}).items()}
        stale = self._stale(refs)
        if not stale:
            return {**envelope, "referenzfelder": self.echo}
        # What it answered with changed: those entries run again as a new send (fresh IDs).
        self.ctx.storage.drop_call(self.tenant, self.key.key, record.token)
        again = write.only(stale)
        record = self.claim(again)
        if record.state is not CallState.NEW:
            return in_progress_failure(self.echo)
        fresh = self._stored(again, record)
        merged = _merge(envelope, refs, fresh, stale)
        return self.finish(record, merged)

    def _stale(self, refs: Refs) -> set[int]:
        if not refs:
            return set()
        from shared.domain import MemoryId

        ids = {index: MemoryId.parse(ref[0]) for index, ref in refs.items()}
        wanted = [memory_id for memory_id in ids.values() if memory_id is not None]
        found = self.ctx.storage.get_memories(self.tenant, wanted, self.ctx.clock())
        stale = set()
        for index, (_, written) in refs.items():
            memory_id = ids[index]
            memory = found.get(memory_id) if memory_id is not None else None
            if memory is None or (written is not None and stamp(memory.updated_at) != written):
                stale.add(index)
        return stale


def _merge(old: Envelope, old_refs: Refs, fresh: Stored, stale: set[int]) -> Stored:
    """The recorded answer with the entries in `stale` replaced by the fresh run's."""
    new = fresh.envelope
    if not isinstance(old.get("daten"), list) or not isinstance(new.get("daten"), list):
        return fresh  # one entry: the fresh run is the answer
    kept = [entry for entry in old["daten"] if entry["index"] not in stale]
    redone = [entry for entry in new["daten"] if entry["index"] in stale]
    merged = responses.batch([*kept, *redone], {})
    refs = {i: ref for i, ref in old_refs.items() if i not in stale}
    refs.update({i: ref for i, ref in fresh.refs.items() if i in stale})
    return Stored(merged, refs)


def running_seconds(ctx: ServiceContext, lambda_context: LambdaContext | None) -> float:
    """How long a send's running mark lasts (module docstring)."""
    if lambda_context is not None:
        # Lambda ends the invocation at its deadline: nothing of it runs after the mark.
        return lambda_context.get_remaining_time_in_millis() / 1000
    return float(ctx.settings.idempotency_in_progress_s)


def run(
    ctx: ServiceContext,
    principal: Principal,
    operation: str,
    arguments: Mapping[str, Any],
    write: Write,
    echo: dict[str, Any],
    lambda_context: LambdaContext | None = None,
) -> Envelope:
    """Run `write` at most once per call key and window (module docstring). `arguments`
    are the call's raw arguments (unscrubbed: the key's digests are taken from them)."""
    key = call_key(principal, operation, arguments)
    call = _Call(ctx, principal, key, echo, running_seconds(ctx, lambda_context))
    try:
        # a write's cleanup that no answer waits for runs beside the answer's record
        with ctx.storage.deferring():
            return call.run(write)
    except CallRecordsUnavailable:
        _log.error("call records unavailable")
        return responses.failure(
            [
                FieldError(
                    "speicher",
                    "Speicherfehler: Der Aufruf konnte nicht als einmalig vermerkt werden. "
                    "Erneut senden ist sicher: bereits Gespeichertes wird erkannt.",
                    Art.STORAGE,
                )
            ],
            echo,
        )


def _ahead(write: Write) -> Callable[[], Refused | None]:
    """`write.ahead` as a side-by-side task: its refusal (or a budget it ran past) comes
    back as the task's result, so the claim beside it is dropped before it is raised."""

    def ahead() -> Refused | None:
        try:
            write.ahead()
        except REFUSED_BEFORE_STORING as refused:
            return refused
        return None

    return ahead
