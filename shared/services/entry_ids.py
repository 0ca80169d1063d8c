"""IDs for the entries of a write: keyed per entry when the call is retry-safe.

Inside an idempotent call (`ctx.write_key` set, see shared/tools/idempotency.py) entry
`index` of the write gets the ID it got in an earlier send of the same logical write if
its content (fingerprint) is unchanged — `reused` then says that whatever that send
stored under the ID belongs to this entry, so the service must not store it again.
Outside (no write key) this is a plain `reserve_ids`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from shared.domain import CounterName, ReservedId
from shared.services.context import ServiceContext


def fingerprint(entry: Any) -> str:
    """A stable digest of one parsed entry (a dataclass) or raw value."""
    is_instance = dataclasses.is_dataclass(entry) and not isinstance(entry, type)
    value = dataclasses.asdict(entry) if is_instance else entry
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def reserve_entry_ids(
    ctx: ServiceContext, tenant: str, counter: CounterName, entries: Sequence[tuple[int, Any]]
) -> dict[int, ReservedId]:
    """One ID per (index, entry), in one storage step."""
    if not entries:
        return {}
    if ctx.write_key is None:
        numbers = ctx.storage.reserve_ids(tenant, counter, len(entries))
        return {
            index: ReservedId(number, reused=False)
            for (index, _), number in zip(entries, numbers, strict=True)
        }
    window = timedelta(seconds=ctx.settings.idempotency_window_s)
    return ctx.storage.reserve_entry_ids(
        tenant,
        counter,
        ctx.write_key,
        [(index, fingerprint(entry)) for index, entry in entries],
        datetime.now(UTC) + window,  # real time, as the idempotency records
    )
