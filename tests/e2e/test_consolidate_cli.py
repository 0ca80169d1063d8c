"""`brain consolidate [--dry-run] [--bereich …]` on the local store (issue 25): the dry run
lists the clusters and changes nothing; the run merges them (services/consolidate.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from shared.auth.principal import ALL_SCOPES, Principal
from shared.cli import main
from shared.config import Settings
from shared.domain import MemoryId, MemoryType
from shared.services.context import ServiceContext
from shared.storage.sqlite import SqliteStorage
from shared.tools.dispatch import call_tool

PRINCIPAL = Principal(
    tenant="local",
    subject="local:anna",
    nutzer=frozenset({"anna"}),
    agents=frozenset({"bot"}),
    scopes=ALL_SCOPES,
)
TEXTS = (
    "Produktions-Deployments laufen nur dienstags zwischen 10 und 12 Uhr.",
    "Produktions-Deployments laufen nur dienstags, zwischen 10 und 12 Uhr!",
    "Das Lager schließt freitags.",
)


def seed(data_dir: Path) -> None:
    """Three memories of anna, the first two near-duplicates, stored as copies."""
    entries = [
        {"kurzbeschreibung": "Notiz", "memory": text, "tags": [f"t{n}"], "scope": "",
         "scope_vk": "", "nutzer": "anna", "agent": "bot"}
        for n, text in enumerate(TEXTS)
    ]  # fmt: skip
    arguments = {
        "inhalt": {"memories": entries, "nutzer": "anna", "agent": "bot"},
        "referenzfelder": {"duplikat_erlaubt": True},
    }
    storage = SqliteStorage.in_data_dir(data_dir)
    try:
        ctx = ServiceContext(storage, Settings())
        answer = call_tool(ctx, PRINCIPAL, "insert_brain_longterm_memory", arguments)
        assert answer["erfolg"] is True, answer
    finally:
        storage.close()


def live(data_dir: Path) -> list[str]:
    storage = SqliteStorage.in_data_dir(data_dir)
    try:
        ids = [MemoryId(MemoryType.LONGTERM, n) for n in range(1, 10)]
        return sorted(str(i) for i in storage.get_memories("local", ids, datetime.now(UTC)))
    finally:
        storage.close()


def test_consolidate_dry_run_lists_and_the_run_merges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "data"
    seed(data_dir)
    where = ["--data-dir", str(data_dir)]
    # When the dry run lists what it would merge
    assert main(["consolidate", "--dry-run", *where]) == 0
    out = capsys.readouterr().out
    # Then it names the cluster and changes nothing
    assert "users/anna: longterm_1 behalten, würde zusammenführen: longterm_2" in out
    assert "Trockenlauf: 1 Cluster, nichts geändert" in out
    assert live(data_dir) == ["longterm_1", "longterm_2", "longterm_3"]
    # When another area is named, nothing is found there
    assert main(["consolidate", "--bereich", "users/ben", *where]) == 0
    assert "Konsolidiert: 0 Cluster" in capsys.readouterr().out
    # When it runs for anna's area
    assert main(["consolidate", "--bereich", "users/anna", *where]) == 0
    out = capsys.readouterr().out
    # Then the younger twin is gone, the others stay
    assert "Konsolidiert: 1 Cluster, 1 Erinnerungen entfernt, 0 Bewertungen übernommen" in out
    assert live(data_dir) == ["longterm_1", "longterm_3"]


def test_consolidate_with_its_budget_spent_names_the_areas_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "data"
    seed(data_dir)
    where = ["--data-dir", str(data_dir)]
    # When the budget is spent before the first area
    assert main(["consolidate", "--max-seconds", "1e-9", *where]) == 0
    out = capsys.readouterr().out
    # Then nothing is merged and the area left for the next run is named
    assert "Konsolidiert: 0 Cluster" in out
    assert "Zeitbudget erreicht: 1 Bereiche nicht bearbeitet (longterm:users/anna)" in out
    assert live(data_dir) == ["longterm_1", "longterm_2", "longterm_3"]
    # And a budget that is no positive number is refused by name, in German
    with pytest.raises(SystemExit):
        main(["consolidate", "--max-seconds", "0", *where])
    assert "--max-seconds: muss eine positive Zahl von Sekunden sein" in capsys.readouterr().err
