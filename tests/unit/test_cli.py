"""The `brain` command line: argument parsing and the listening socket."""

from __future__ import annotations

import socket

import pytest

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


def test_json_log_lines_keep_known_keys_and_drop_the_rest() -> None:
    import json
    import logging

    from shared.logs import JsonFormatter

    # Given a record with an allowed key, an unknown key carrying text, and an exception
    try:
        raise ValueError("Passwort: geheim")
    except ValueError:
        import sys

        exc_info = sys.exc_info()
    record = logging.LogRecord(
        "brain.tools", logging.ERROR, __file__, 1, "tool call", None, exc_info
    )
    record.__dict__.update(tool="fetch_brain_memories", memory="Passwort: geheim")
    # When it is formatted
    line = json.loads(JsonFormatter().format(record))
    # Then only known keys and the exception type appear, never the text
    assert line["tool"] == "fetch_brain_memories"
    assert line["exception"] == "ValueError"
    assert "geheim" not in json.dumps(line)


def test_import_reads_team_members_in_normal_form_and_refuses_bad_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given `brain import --team` options (the operator's team configuration)
    args = build_parser().parse_args(
        ["import", "x.jsonl", "--team", "Support=anna, bob", "--team", "ops=9"]
    )
    # Then each team is in normal form with its members
    assert dict(args.team) == {"support": ["anna", "bob"], "ops": ["9"]}
    # And a bad team name or a team without members is a German usage error
    for bad in ("teams/x=anna", "../x=anna", "ops=", "ops"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["import", "x.jsonl", "--team", bad])
        assert "--team erwartet <team>=<nutzer>" in capsys.readouterr().err
