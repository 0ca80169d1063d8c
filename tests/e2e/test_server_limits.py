"""`brain serve` under hostile clients (issue 11): slow headers and slow bodies are timed out,
connections beyond the limit are closed, and a heavy request does not stall other clients."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import httpx2
import pytest

from tests.e2e.helpers import insert_args, memory_entry

STARTUP_LINES = 3
ACCEPT = "application/json, text/event-stream"


@dataclass
class Served:
    process: subprocess.Popen[str]
    url: str
    token: str
    host: str
    port: int


@contextmanager
def serve(data_dir: Path, **env: str) -> Iterator[Served]:
    process = subprocess.Popen(
        [sys.executable, "-m", "shared.cli", "serve", "--port", "0", "--data-dir", str(data_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline().strip() for _ in range(STARTUP_LINES)]
        url = next(line.split(": ", 1)[1] for line in lines if line.startswith("MCP endpoint: "))
        token = next(line.split(": ", 1)[1] for line in lines if line.startswith("Token: "))
        parsed = urlparse(url)
        assert parsed.hostname is not None and parsed.port is not None
        yield Served(process, url, token, parsed.hostname, parsed.port)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """True if the server closes `sock` within `seconds` (recv returns b"" or resets)."""
    sock.settimeout(seconds)
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def ping(server: Served) -> httpx2.Response:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    headers = {"Authorization": f"Bearer {server.token}", "Accept": ACCEPT}
    return httpx2.post(server.url, json=body, headers=headers, timeout=30)


def test_slow_headers_are_cut_off_while_others_are_served(tmp_path: Path) -> None:
    with serve(tmp_path / "data", BRAIN_HTTP_HEADER_TIMEOUT_S="1") as server:
        # Given a client that sends one header line every 0.3 s and never finishes
        slow = socket.create_connection((server.host, server.port))
        slow.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        stop = threading.Event()

        def dribble() -> None:
            while not stop.wait(0.3):
                try:
                    slow.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    return

        thread = threading.Thread(target=dribble, daemon=True)
        thread.start()
        try:
            # When another client calls meanwhile, it is served
            assert ping(server).status_code == 200
            # Then the slow client is disconnected after the header timeout
            started = time.monotonic()
            assert closed_within(slow, 5)
            assert time.monotonic() - started < 4
        finally:
            stop.set()
            slow.close()


def test_a_slow_body_gets_408(tmp_path: Path) -> None:
    with serve(tmp_path / "data", BRAIN_HTTP_BODY_TIMEOUT_S="1") as server:
        # Given a client that declares 100 bytes of body and sends one byte per 0.3 s
        sock = socket.create_connection((server.host, server.port))
        head = (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {server.token}\r\n"
            f"Accept: {ACCEPT}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
        )
        sock.sendall(head.encode())
        sock.settimeout(5)
        answer = b""
        try:
            for _ in range(15):
                sock.sendall(b" ")
                time.sleep(0.3)
                sock.setblocking(False)
                try:
                    answer += sock.recv(4096)
                except BlockingIOError:
                    pass
                finally:
                    sock.setblocking(True)
                if answer:
                    break
        except OSError:
            pass
        finally:
            sock.close()
        # Then the server answers 408 with a JSON-RPC error instead of waiting for ever
        assert answer.startswith(b"HTTP/1.1 408")
        assert b'"jsonrpc":"2.0"' in answer.replace(b" ", b"")


def test_a_heavy_insert_does_not_stall_other_clients(tmp_path: Path) -> None:
    with serve(tmp_path / "data") as server:
        # Given a client inserting 60 memories of 50,000 characters that all need scrubbing
        text = ("Passwort: Qx7!vLm2#Rt9 und token=abc " + "x" * 60) * 500
        entries = [memory_entry(memory=text[:50_000]) for _ in range(60)]
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "insert_brain_longterm_memory", "arguments": insert_args(*entries)},
        }
        headers = {
            "Authorization": f"Bearer {server.token}",
            "Accept": ACCEPT,
            "Content-Type": "application/json",
        }
        heavy: list[float] = []

        def insert() -> None:
            started = time.monotonic()
            response = httpx2.post(
                server.url, content=json.dumps(body), headers=headers, timeout=60
            )
            assert response.status_code == 200
            heavy.append(time.monotonic() - started)

        thread = threading.Thread(target=insert)
        thread.start()
        time.sleep(0.3)
        # When another client lists the tools meanwhile
        started = time.monotonic()
        assert ping(server).status_code == 200
        waited = time.monotonic() - started
        thread.join(timeout=60)
        # Then it is answered without waiting for the insert to finish
        assert heavy, "the insert did not finish"
        assert waited < max(1.0, heavy[0] / 2), (waited, heavy[0])


@pytest.mark.parametrize("case", ["file in the way", "under /proc", "read-only"])
def test_unusable_data_dir_is_a_clear_refusal(tmp_path: Path, case: str) -> None:
    # Given a data dir that cannot be created (a file is in the way, a pseudo file system)
    # or written (mode 0500; root ignores that)
    target = tmp_path / "data"
    if case == "file in the way":
        target.write_text("not a directory")
    elif case == "under /proc":
        target = Path("/proc/brain-data")
    else:
        if os.geteuid() == 0:
            pytest.skip("root ignores directory permissions")
        target.mkdir()
        target.chmod(0o500)
    result = subprocess.run(
        [sys.executable, "-m", "shared.cli", "serve", "--port", "0", "--data-dir", str(target)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    # Then brain serve exits with a German message, not a traceback
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "Datenverzeichnis" in result.stderr


def test_database_files_are_private(tmp_path: Path) -> None:
    # Given a server that has written (WAL mode)
    data_dir = tmp_path / "data"
    with serve(data_dir) as server:
        headers = {"Authorization": f"Bearer {server.token}", "Accept": ACCEPT}
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {
                "name": "insert_brain_longterm_memory",
                "arguments": insert_args(memory_entry()),
            },
        }
        assert httpx2.post(server.url, json=body, headers=headers, timeout=30).status_code == 200
        # Then the database, its WAL and shared memory are 0600 like the signing key
        files = sorted(p.name for p in data_dir.iterdir())
        assert "brain.sqlite3-wal" in files
        for name in files:
            assert (data_dir / name).stat().st_mode & 0o777 == 0o600, name
        assert data_dir.stat().st_mode & 0o077 == 0
