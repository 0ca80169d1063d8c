"""`benchmarks/scrub_calls.py` measures what a client meets: the three ways in (the tool
dispatcher, MCP over HTTP through the real app, `POST /api/memory`) store the same rows for
the same texts, the client's read-back is the stored row, and its data-directory scan finds a
labelled value that reaches a file. No scrubber rule is asserted here: only that the paths
agree and that the instrument can see a leak (texts written for this test, no corpus)."""

from __future__ import annotations

from typing import Any

from tests.lambda_functions.test_benchmarks import benchmark

TOKEN = "ghp_" + "Q7wX2kLm9PzR4tYv8NbC3dFh6JsA1eUo5GiK"
PASSWORD = "Vt8#qLw2-Zr9!mKe"


def entry(text: str, secrets: tuple[str, ...] = (), keep: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "text": text,
        "secrets": [{"kind": "probe", "value": v} for v in secrets],
        "keep": list(keep),
        "group": "probe",
        "lang": "en",
    }


ENTRIES = [
    entry(f"Deploy token for the runner: {TOKEN} (job 4711)", (TOKEN,), ("4711",)),
    entry(f"Das Passwort für den NAS-Admin lautet {PASSWORD}, Raum 2.04", (PASSWORD,), ("2.04",)),
    entry(f"postgres://app:{PASSWORD}@db-1.internal:5432/shop", (PASSWORD,), ("db-1.internal",)),
    entry("Meeting moved to Thursday, room 4.12; bring the printed agenda.", keep=("4.12",)),
    entry("Rückruf bei Jana Brandt, +49 151 2345678, wegen Rechnung RE26104455."),
    entry("Commit 51105708750dbf048e97537cf3638e821f0b2950 fixed the export.", keep=("5110570",)),
]


def test_every_way_in_stores_the_same_rows_and_shows_them_as_stored() -> None:
    calls: Any = benchmark("scrub_calls")
    outcomes = {}
    for via in calls.VIAS:
        scan: dict[str, Any] = {}
        result, refused = calls.measure(ENTRIES, via, scan)
        assert refused == 0 and all(row is not None for row in scan["rows"])
        assert scan["client_differs"] == 0
        outcomes[via] = (scan["rows"], result["caught"], result["false_positives"], result["lost"])
    assert outcomes["mcp"] == outcomes["dispatcher"]
    assert outcomes["rest"] == outcomes["dispatcher"]


def test_the_data_directory_scan_finds_a_value_that_was_stored() -> None:
    calls: Any = benchmark("scrub_calls")
    # A plain phrase labelled as a secret: no scrubber takes it, so it reaches the SQLite file
    stored_as_is = "Thursday-agenda-room-four"
    for via in calls.VIAS:
        scan: dict[str, Any] = {}
        result, _ = calls.measure([entry(f"Note: {stored_as_is}", (stored_as_is,))], via, scan)
        assert result["caught"] == 0
        assert scan["in_data_dir"] == 1, via
