"""The `brain` command line: argument parsing and the listening socket."""

from __future__ import annotations

import socket

from shared.cli import _bind, build_parser


def test_serve_socket_is_tcp_so_accepted_connections_get_nodelay() -> None:
    # Given the socket `brain serve` listens on
    sock = _bind("127.0.0.1", 0)
    try:
        # Then its protocol is TCP: asyncio sets TCP_NODELAY only on such accepted sockets,
        # and without it keep-alive responses stall ~40 ms on delayed ACKs (measured).
        assert sock.proto == socket.IPPROTO_TCP
        # And it already listens, so clients may connect before uvicorn has started
        client = socket.create_connection(sock.getsockname()[:2], timeout=2)
        client.close()
    finally:
        sock.close()


def test_serve_defaults_match_the_readme() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.data_dir) == ("127.0.0.1", 8787, None)
