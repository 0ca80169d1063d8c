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
    # The logical write a retry-safe call belongs to (shared/tools/idempotency.py): IDs
    # are reserved per entry under it, so a resend gets the same IDs for the same entries.
    write_key: str | None = None
    # Server-side embeddings (Settings.embedder); None: model-free, callers' vectors only.
    embedder: Embedder | None = None
