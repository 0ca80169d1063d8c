"""`supersede_memories` on DynamoDB (issue 25): one conditional UpdateItem per mark, all
marks of a call in one stage (one round trip).

Invariants:
- A mark sets only `gueltig_us`, `ersetzt_durch` and `version` (+1, so that a concurrent
  replace that read the memory before gets CONFLICT and reads again); text, postings,
  vector, ratings and `updated_us` stay. Postings need no change: searches load
  every hit's item and leave superseded ones out unless the history is asked for.
- Condition: the item exists, is not expired and has no `ersetzt_durch` (a mark), or has
  this successor's (taking it back). A refused condition returns the item (ALL_OLD): a
  mark by this successor already is success (a resend), another's is CONFLICT, a missing
  or expired item NOT_FOUND — decided without a second read.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from functools import partial

from boto3.dynamodb.conditions import Attr

from shared.domain import EntryFailure, EntryFailureCode, Supersession
from shared.storage.dynamo.calls import AWS_ERRORS, CONDITION_FAILED_ERROR, TableCalls, error_code
from shared.storage.dynamo.items import PK, expression, is_live, memory_key, opt_s, unexpired
from shared.storage.values import to_us

_log = logging.getLogger(__name__)


class MemorySuperseder:
    def __init__(self, calls: TableCalls) -> None:
        self._calls = calls

    def supersede(
        self, tenant: str, marks: Sequence[Supersession], now: datetime
    ) -> list[EntryFailure | None]:
        now_us = to_us(now)
        return self._calls.round_trips.run(
            [partial(self._one, tenant, mark, now_us) for mark in marks]
        )

    def _one(self, tenant: str, mark: Supersession, now_us: int) -> EntryFailure | None:
        successor = str(mark.successor)
        live = Attr(PK).exists() & unexpired(now_us)
        if mark.at is None:  # taken back: only this successor's mark
            condition = live & Attr("ersetzt_durch").eq(successor)
            removes = ("ersetzt_durch", "gueltig_us")
            update = expression(condition, add={"version": 1}, remove=removes)
        else:
            marked = {"ersetzt_durch": successor, "gueltig_us": to_us(mark.at)}
            condition = live & Attr("ersetzt_durch").not_exists()
            update = expression(condition, add={"version": 1}, put=marked)
        try:
            self._calls.client.update_item(
                TableName=self._calls.table,
                Key=memory_key(tenant, mark.memory_id),
                **update,
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AWS_ERRORS as exc:
            if error_code(exc) != CONDITION_FAILED_ERROR:
                _log.warning("supersede_memories: %s: %s", mark.memory_id, error_code(exc))
                return EntryFailure(EntryFailureCode.STORAGE, error_code(exc))
            current = getattr(exc, "response", {}).get("Item")
            if mark.at is None:
                return None  # nothing of this successor's to take back
            if current is None or not is_live(current, now_us):
                return EntryFailure(EntryFailureCode.NOT_FOUND, f"memory {mark.memory_id}")
            if opt_s(current, "ersetzt_durch") != successor:  # else a resend, marked before
                return EntryFailure(EntryFailureCode.CONFLICT, f"memory {mark.memory_id} replaced")
        return None
