"""Forwarded headers (`X-Forwarded-Host`, `-Proto`, `-For`, RFC 7239 `Forwarded`) are believed
only from the reverse proxies the operator names (`Settings.trusted_proxies`, default none).

`TrustedForwarding` runs first on every request of the app (MCP, metadata, REST): from any
other peer it drops those headers, so nothing downstream (the protected-resource metadata,
`WWW-Authenticate` challenges, `Location` headers) can be steered by a client. From a trusted
proxy they stay, and the client address becomes the last `X-Forwarded-For` entry that is not
itself a trusted proxy.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

FORWARDED_HEADERS: Final = frozenset(
    {b"x-forwarded-host", b"x-forwarded-proto", b"x-forwarded-for", b"forwarded"}
)

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(entries: Sequence[str]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def _within(address: str, trusted: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return False
    return any(ip in network for network in trusted)


class TrustedForwarding:
    def __init__(self, app: ASGIApp, trusted_proxies: Sequence[str] = ()) -> None:
        self.app = app
        self.trusted = networks(trusted_proxies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            peer = str(client[0]) if client else ""
            headers = scope.get("headers", [])
            if not (self.trusted and _within(peer, self.trusted)):
                headers = [(k, v) for k, v in headers if k.lower() not in FORWARDED_HEADERS]
                scope = {**scope, "headers": headers}
            else:
                scope = {**scope, "client": self._client(headers, client)}
        await self.app(scope, receive, send)

    def _client(
        self, headers: Sequence[tuple[bytes, bytes]], client: tuple[str, int] | None
    ) -> tuple[str, int] | None:
        hops = [
            hop.strip()
            for name, value in headers
            if name.lower() == b"x-forwarded-for"
            for hop in value.decode("latin-1").split(",")
        ]
        for hop in reversed(hops):
            if hop and not _within(hop, self.trusted):
                return (hop, 0)
        return client
