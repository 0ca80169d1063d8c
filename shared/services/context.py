"""What every service call needs: the storage port, the settings and a clock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shared.config import Settings
    from shared.embedding.port import Embedder
    from shared.storage.port import StoragePort


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class ServiceContext:
    storage: StoragePort
    settings: Settings
    clock: Callable[[], datetime] = field(default=utc_now)
    # The send that owns the call's record (shared/tools/retry.py: the record's token,
    # kept by a resend that takes a cut-off send over): ledger entry keys derive from it.
    write_key: str | None = None
    # That record's key (with `write_key`: where a delete records its marks, CallMarks).
    call_key: str | None = None
    # Server-side embeddings (Settings.embedder); None: model-free, callers' vectors only.
    embedder: Embedder | None = None
