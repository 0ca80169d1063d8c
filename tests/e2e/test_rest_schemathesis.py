"""Schemathesis (the CLI, an outside tool) against `brain serve`'s REST API, property-based
from the published OpenAPI 3.1 document: no 5xx, every response as documented (status,
content type, headers, body schema), and nothing stored by a refused request."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from shared.domain import CounterName, MemoryId, MemoryType
from shared.storage.sqlite import SqliteStorage
from tests.e2e.test_local_server import serve

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("BRAIN_TEST_ARTIFACTS", ROOT / "test-artifacts"))
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
)
MAX_EXAMPLES = 25
MAX_EXAMPLES_SMALL = 10  # ledger and projects: fewer operations' worth of time
SEED = 20261130
TIMEOUT_S = 240


def schemathesis(
    url: str, token: str, har: Path, report: Path, max_examples: int = MAX_EXAMPLES
) -> subprocess.CompletedProcess[str]:
    command = [
        str(Path(sys.executable).parent / "st"),
        "run",
        url,
        "--header",
        f"Authorization: Bearer {token}",
        "--checks",
        ",".join(CHECKS),
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--max-examples",
        str(max_examples),
        "--seed",
        str(SEED),
        "--workers",
        "1",
        "--request-timeout",
        "30",
        "--report",
        "har,json",
        "--report-har-path",
        str(har),
        "--report-json-path",
        str(report),
    ]
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
        cwd=har.parent,  # its hypothesis database and cache stay out of the repository
        env={**os.environ, "NO_COLOR": "1", "SCHEMATHESIS_TELEMETRY": "false"},
    )


def exchanges(har: Path) -> list[tuple[str, str, int, Any]]:
    """(method, path, status, JSON body or None) of every request schemathesis sent."""
    result = []
    for entry in json.loads(har.read_text())["log"]["entries"]:
        request, response = entry["request"], entry["response"]
        path = re.sub(r"^https?://[^/]+", "", request["url"]).split("?")[0]
        text = response.get("content", {}).get("text") or ""
        try:
            body = json.loads(text) if text else None
        except ValueError:
            body = None
        result.append((request["method"], path, int(response["status"]), body))
    return result


def test_schemathesis_finds_no_5xx_no_schema_violation_and_no_stray_write(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    har, report = tmp_path / "run.har", tmp_path / "run.json"
    # Given a running server and its published OpenAPI document
    with serve(data_dir) as server:
        spec = server.url.replace("/mcp", "/api/memory/openapi.json")
        # When schemathesis runs every phase against it
        run = schemathesis(spec, server.token, har, report)
    summary = run.stdout[-3000:]
    # Then it found nothing: no failed check, no error, every phase complete
    assert run.returncode == 0, summary + run.stderr[-2000:]
    result = json.loads(report.read_text())
    assert (result["failures"], result["errors"]) == ([], []), summary
    assert result["test_cases"]["with_failures"] == 0, summary
    assert {phase["status"] for phase in result["phases"].values()} == {"success"}, summary
    generated = re.search(r"(\d+) generated, (\d+) passed", run.stdout)
    assert generated is not None and generated.group(1) == generated.group(2), summary
    calls = exchanges(har)
    statuses: dict[int, int] = {}
    for _, _, status, _ in calls:
        statuses[status] = statuses.get(status, 0) + 1
    # And no answer was a server error
    assert not [s for s in statuses if s >= 500], statuses
    # And every operation was exercised, with successes and refusals
    assert {s for s in statuses if 200 <= s < 300} >= {200, 201}, statuses
    assert {s for s in statuses if 400 <= s < 500} >= {401, 404, 422}, statuses
    # And storage holds exactly the memories created (201) and not deleted (200, or listed
    # as geloescht by a bulk delete): a refused
    # request stored nothing and reserved no ID, a near-duplicate stored nothing
    created = {
        body["ID"]
        for method, _, status, body in calls
        if method == "POST" and status == 201 and isinstance(body, dict)
    }
    deleted = {
        path.rsplit("/", 1)[1]
        for method, path, status, _ in calls
        if method == "DELETE" and status == 200
    } | {
        memory_id
        for method, path, status, body in calls
        if method == "POST" and path.endswith("/loeschungen") and status == 200
        for memory_id in body["geloescht"]
    }
    storage = SqliteStorage.in_data_dir(data_dir)
    try:
        now = datetime.now(UTC)
        reserved = {
            typ: storage.reserve_ids("local", CounterName(typ.value), 1)[0] - 1
            for typ in MemoryType
        }
        every_id = [MemoryId(typ, n) for typ in MemoryType for n in range(1, reserved[typ] + 1)]
        stored = {str(mid) for mid in storage.get_memories("local", every_id, now)}
    finally:
        storage.close()
    issued = {f"{typ.value}_{n}" for typ in MemoryType for n in range(1, reserved[typ] + 1)}
    # A near-duplicate answer (201 with the area's memory and `duplikat_von`, docs/truth.md)
    # consumed the ID reserved with its call record and stored nothing under it: at most
    # one unused ID per such answer (a replay of one reserves none), none stored.
    duplicates = sum(
        1
        for method, _, status, body in calls
        if method == "POST"
        and status == 201
        and isinstance(body, dict)
        and body.get("duplikat_von")
    )
    assert created <= issued, sorted(created - issued)
    assert len(issued - created) <= duplicates, (sorted(issued - created), duplicates)
    assert stored == created - deleted
    # The counts, for the record
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    record = {
        "schemathesis": generated.group(0),
        "requests": len(calls),
        "statuses": dict(sorted(statuses.items())),
        "created": len(created),
        "deleted": len(deleted & created),
    }
    (ARTIFACTS / "schemathesis-summary.json").write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(record))


def ledger_ids(har_calls: list[tuple[str, str, int, Any]]) -> set[int]:
    """IDs of every ledger entry a successful (200/201) write answered with."""
    return {
        result["ID"]
        for method, path, status, body in har_calls
        if method == "POST" and path.startswith("/api/ledger/") and status in (200, 201)
        for result in body["ergebnisse"]
        if result["erfolg"]
    }


def test_schemathesis_on_the_ledger_and_project_documents(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    # Given a running server
    with serve(data_dir) as server:
        runs = {}
        for resource in ("ledger", "projects"):
            # When schemathesis runs every phase against the resource's own document
            spec = server.url.replace("/mcp", f"/api/{resource}/openapi.json")
            har, report = tmp_path / f"{resource}.har", tmp_path / f"{resource}.json"
            run = schemathesis(spec, server.token, har, report, MAX_EXAMPLES_SMALL)
            runs[resource] = (run, har, report)
    calls: list[tuple[str, str, int, Any]] = []
    for resource, (run, har, report) in runs.items():
        summary = run.stdout[-3000:]
        # Then it found nothing: no failed check, no error, every phase complete
        assert run.returncode == 0, resource + summary + run.stderr[-2000:]
        result = json.loads(report.read_text())
        assert (result["failures"], result["errors"]) == ([], []), summary
        phases = {name: phase["status"] for name, phase in result["phases"].items()}
        # (no links between these operations: the stateful phase does not apply)
        assert set(phases.values()) <= {"success", "skip"}, summary
        assert [phases[name] for name in ("examples", "coverage", "fuzzing")] == ["success"] * 3
        counted = re.search(r"(\d+) generated, (\d+) passed", run.stdout)
        assert counted is not None and counted.group(1) == counted.group(2), summary
        print(f"\n{resource}: {counted.group(0)}, {len(exchanges(har))} requests")
        calls += exchanges(har)
    statuses = {status for _, _, status, _ in calls}
    # And no answer was a server error; bookings succeeded and were refused
    assert not [s for s in statuses if s >= 500], statuses
    assert {201, 401, 422} <= statuses, statuses
    # And the ledger holds exactly the entries successful writes answered with: a refused
    # request booked nothing (IDs of entries refused after their reservation stay unused)
    created = ledger_ids(calls)
    assert created
    storage = SqliteStorage.in_data_dir(data_dir)
    try:
        reserved = storage.reserve_ids("local", CounterName.LEDGER, 1)[0] - 1
        stored = set(storage.get_ledger("local", list(range(1, reserved + 1))))
    finally:
        storage.close()
    assert stored == created, (sorted(stored - created), sorted(created - stored))
