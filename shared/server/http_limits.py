"""Connection limits of `brain serve` that uvicorn does not have on its own.

uvicorn times out idle keep-alive connections, but not a client that sends its request
headers slowly (a header line every few seconds), and it accepts any number of connections.
`guarded_protocol` returns uvicorn's h11 protocol with two additions:

* a header deadline: from the moment a connection opens (or its previous response is done),
  the next request's headers must be complete within `header_timeout_s`, else the connection
  is closed;
* a connection cap: a connection beyond `max_connections` is closed as soon as it opens.

Slow bodies are cut off by the auth middleware (`http_body_timeout_s`), which answers 408.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

logger = logging.getLogger("brain.http")


class _GuardedH11Protocol(H11Protocol):
    header_timeout_s: float = 10.0
    max_connections: int = 200
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            logger.warning("connection refused", extra={"reason": "too many connections"})
            transport.close()
            return
        self._arm_header_timer()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not None and not self.cycle.response_complete:
            self._cancel_header_timer()  # the headers of a request are complete

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._header_timeout)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_timeout(self) -> None:
        self._header_timer = None
        if self.cycle is None or self.cycle.response_complete:
            logger.info("connection closed", extra={"reason": "request headers too slow"})
            self.transport.close()


def guarded_protocol(header_timeout_s: float, max_connections: int) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with a header deadline and a connection cap."""
    attributes: dict[str, Any] = {
        "header_timeout_s": header_timeout_s,
        "max_connections": max_connections,
    }
    return type("GuardedH11Protocol", (_GuardedH11Protocol,), attributes)
