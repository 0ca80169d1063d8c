"""The official conformance suite's authorization-server scenarios (the pinned
`@modelcontextprotocol/conformance`: `authorization-server-metadata-endpoint` and
`authorization-code-grant`) against a real `brain serve`, per protocol revision.

The code-grant scenario prints an authorization URL for a person to open and waits for the
redirect on its own loopback callback; here the person is `browser_authorize` (sign-in with
the server's token, consent), the client a DCR registration of that callback.
"""

from __future__ import annotations

import json
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest

from tests.conformance.test_conformance import NODE, SUITE
from tests.e2e.oauth_helpers import browser_authorize
from tests.e2e.test_local_server import RunningServer, serve

REVISIONS = ("2025-11-25", "2026-07-28")


@pytest.fixture(scope="module")
def brain_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    if not NODE.exists() or not SUITE.exists():
        pytest.fail("Conformance tools missing: run `make tools` (make test does it).")
    with serve(tmp_path_factory.mktemp("conformance-as") / "data") as server:
        yield server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def play_the_user(process: subprocess.Popen[str], base: str, token: str, lines: list[str]) -> None:
    """Read the suite's output; open the authorization URL it prints as the user would."""
    assert process.stdout is not None
    for line in process.stdout:
        lines.append(line)
        if line.startswith(f"{base}/authorize?"):

            async def go(url: str = line.strip()) -> None:
                async with httpx2.AsyncClient(base_url=base, timeout=20) as browser:
                    location = await browser_authorize(browser, url, token=token)
                    await browser.get(location)  # the suite's callback server

            anyio.run(go)


def checks_of(results: Path) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for path in results.glob("*/checks.json"):
        found[path.parent.name] = json.loads(path.read_text(encoding="utf-8"))
    return found


@pytest.mark.timeout(300)
@pytest.mark.parametrize("revision", REVISIONS)
def test_authorization_server_scenarios_pass(
    brain_server: RunningServer, revision: str, tmp_path: Path
) -> None:
    base = brain_server.url.removesuffix("/mcp")
    port = free_port()
    registered = httpx2.post(
        f"{base}/register",
        json={
            "redirect_uris": [f"http://127.0.0.1:{port}/callback"],
            "token_endpoint_auth_method": "none",
            "client_name": "MCP conformance",
        },
    )
    assert registered.status_code == 201, registered.text
    command = [
        str(NODE),
        str(SUITE),
        "authorization",
        "--url",
        base,
        "--client-id",
        registered.json()["client_id"],
        "--resource",
        brain_server.url,
        "--port",
        str(port),
        "--spec-version",
        revision,
        "--output-dir",
        str(tmp_path / "results"),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    user = threading.Thread(
        target=play_the_user, args=(process, base, brain_server.token, lines), daemon=True
    )
    user.start()
    returncode = process.wait(timeout=240)
    user.join(timeout=30)
    report = "".join(lines)[-6000:]
    assert returncode == 0, report
    checks = checks_of(tmp_path / "results")
    statuses = {check["id"]: check["status"] for scenario in checks.values() for check in scenario}
    # Every check of both scenarios passes, the CIMD support included (no warning)
    assert statuses.get("authorization-server-metadata") == "SUCCESS", report
    assert statuses.get("authorization-code-grant") == "SUCCESS", report
    assert statuses.get("authorization-server-metadata-cimd") == "SUCCESS", report
    assert set(statuses.values()) == {"SUCCESS"}, statuses
