"""Connection limits of `brain serve` that uvicorn does not have on its own.

uvicorn times out idle keep-alive connections, but not a client that opens a connection and
sends nothing, or sends its request headers slowly (a header line every few seconds), and it
accepts any number of connections. `guarded_protocol` returns uvicorn's h11 protocol with:

* deadlines for a *waiting* connection (one that has not delivered a request's headers yet:
  freshly opened, or idle after its previous response): its first byte within
  `idle_timeout_s`, the complete headers within `header_timeout_s`, else it is closed;
* a per-client limit: a client address's connections beyond `max_per_client` are on
  probation - their first byte within `PROBATION_S`, else closed. A connection that brings a
  request at once is served; a client that only holds sockets holds its limit for long;
* a global cap of `max_connections`: beyond it, the oldest waiting connection of the client
  with the most connections is closed to make room; only when no other connection is
  waiting is the new one refused. A connection serving a request is never closed by these.

So idle and slow sockets count against their own client and make room for a connection that
brings a request: a client holding hundreds of idle sockets cannot keep others from being
served. The client address is the socket's peer (a proxy in front counts as one client).
Slow bodies are cut off by the auth middleware (`/mcp`) and the REST app (`/api`), 408.
Closed connections are logged at most once per reason every 10 s, with their number (a
flood of sockets must not become a flood of log lines).

Invariants: a connection is in `waiting` exactly while it has no request in progress; the
counts per client equal the open connections of that client.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

logger = logging.getLogger("brain.http")
_LOG_EVERY_S = 10.0
PROBATION_S = 1.0
"""First-byte deadline of a connection beyond its client's limit."""


class _ClosedLog:
    """At most one log line per reason every `_LOG_EVERY_S` seconds, with the number of
    connections closed since: a flood of sockets must not become a flood of log lines (a
    full stderr pipe would block the server)."""

    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()
        self._last: dict[str, float] = {}

    def closed(self, loop: asyncio.AbstractEventLoop, reason: str, level: int) -> None:
        self._counts[reason] += 1
        now = loop.time()
        if now - self._last.get(reason, -_LOG_EVERY_S) >= _LOG_EVERY_S:
            count = self._counts.pop(reason)
            self._last[reason] = now
            logger.log(level, "connections closed", extra={"reason": reason, "count": count})


class _GuardedH11Protocol(H11Protocol):
    header_timeout_s: ClassVar[float] = 10.0
    idle_timeout_s: ClassVar[float] = 5.0
    max_connections: ClassVar[int] = 200
    max_per_client: ClassVar[int] = 64
    # Shared by the connections of one server (`guarded_protocol` makes a class per server).
    waiting: ClassVar[dict[_GuardedH11Protocol, None]]
    per_client: ClassVar[Counter[str]]
    closed_log: ClassVar[_ClosedLog]

    _header_timer: asyncio.TimerHandle | None = None
    _idle_timer: asyncio.TimerHandle | None = None
    _peer: str = ""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._peer = self.client[0] if self.client else ""
        self.per_client[self._peer] += 1
        over = self.per_client[self._peer] > self.max_per_client
        self._wait(min(PROBATION_S, self.idle_timeout_s) if over else None)
        if len(self.connections) > self.max_connections:
            self._make_room()

    def data_received(self, data: bytes) -> None:
        self._cancel(idle=True)
        super().data_received(data)
        if self.cycle is not None and not self.cycle.response_complete:
            self._serving()  # the headers of a request are complete

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._wait()

    def connection_lost(self, exc: Exception | None) -> None:
        self._serving()
        if self._peer in self.per_client:
            self.per_client[self._peer] -= 1
            if self.per_client[self._peer] <= 0:
                del self.per_client[self._peer]
        self._peer = "\0closed"
        super().connection_lost(exc)

    # --- waiting and serving ----------------------------------------------------------------

    def _wait(self, first_byte_s: float | None = None) -> None:
        """No request in progress: evictable, and on the first-byte and header deadlines."""
        self._serving()
        self.waiting[self] = None
        reason = "idle" if first_byte_s is None else "idle beyond the client limit"
        first_byte = self.idle_timeout_s if first_byte_s is None else first_byte_s
        self._idle_timer = self.loop.call_later(first_byte, self._timeout, reason)
        self._header_timer = self.loop.call_later(
            self.header_timeout_s, self._timeout, "request headers too slow"
        )

    def _serving(self) -> None:
        self.waiting.pop(self, None)
        self._cancel(idle=True)
        self._cancel(idle=False)

    def _cancel(self, *, idle: bool) -> None:
        timer = self._idle_timer if idle else self._header_timer
        if timer is not None:
            timer.cancel()
        if idle:
            self._idle_timer = None
        else:
            self._header_timer = None

    def _timeout(self, reason: str) -> None:
        if self in self.waiting:
            self.closed_log.closed(self.loop, reason, logging.INFO)
            self._close()

    def _make_room(self) -> None:
        """Close the oldest waiting connection of the client with the most connections (any
        but this one), else refuse this one."""
        others = [c for c in self.waiting if c is not self]
        if others:
            heaviest = max((c._peer for c in others), key=self.per_client.__getitem__)
            victim = next(c for c in others if c._peer == heaviest)
        else:
            victim = self
        self.closed_log.closed(self.loop, "too many connections", logging.WARNING)
        victim._close()

    def _close(self) -> None:
        self._serving()
        if not self.transport.is_closing():
            self.transport.close()


def guarded_protocol(
    header_timeout_s: float,
    max_connections: int,
    *,
    idle_timeout_s: float = 5.0,
    max_per_client: int = 64,
) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with idle and header deadlines, a per-client limit and a
    connection cap (see the module docstring)."""
    attributes: dict[str, Any] = {
        "header_timeout_s": header_timeout_s,
        "idle_timeout_s": idle_timeout_s,
        "max_connections": max_connections,
        "max_per_client": max_per_client,
        "waiting": {},
        "per_client": Counter(),
        "closed_log": _ClosedLog(),
    }
    return type("GuardedH11Protocol", (_GuardedH11Protocol,), attributes)
