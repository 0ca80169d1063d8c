"""The expiry sweep: short-term memories past their time are deleted with their ratings,
embeddings and index entries. Reads already treat them as absent; this frees the storage."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime

from shared.domain import ExpiredMemory
from shared.storage.port import StoragePort

logger = logging.getLogger("brain.expiry")

# One storage call deletes at most this many; one run at most RUN_LIMIT in all (bounded per
# run, so a backlog is worked off over several runs instead of one long one).
BATCH = 100
RUN_LIMIT = 1000


def sweep_expired(
    storage: StoragePort, now: datetime, run_limit: int = RUN_LIMIT
) -> list[ExpiredMemory]:
    deleted: list[ExpiredMemory] = []
    while len(deleted) < run_limit:
        batch = storage.delete_expired(now, min(BATCH, run_limit - len(deleted)))
        deleted += batch
        if len(batch) < BATCH:
            break
    logger.info("expiry sweep", extra={"anzahl": len(deleted)})
    return deleted


class PeriodicSweep:
    """Runs the sweep every `interval` seconds on a daemon thread until stopped."""

    def __init__(
        self, storage: StoragePort, clock: Callable[[], datetime], interval: float
    ) -> None:
        self._storage = storage
        self._clock = clock
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="brain-expiry", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            sweep_expired(self._storage, self._clock())
