"""What the repository tracks: no symbolic links and nothing under node_modules.

A worktree's `node_modules` symlink (to a shared install) once got committed: on a clean clone it
pointed outside the checkout, and `make` saw a dangling engine directory.
"""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tracked() -> list[tuple[str, str]]:
    listing = subprocess.run(
        ["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    entries = []
    for line in listing.splitlines():
        meta, path = line.split("\t", 1)
        entries.append((meta.split()[0], path))
    return entries


def test_no_tracked_symlinks_and_no_node_modules() -> None:
    # Given every file git tracks
    entries = _tracked()
    # Then none is a symbolic link (mode 120000) and none lies under node_modules
    assert entries
    assert [path for mode, path in entries if mode == "120000"] == []
    assert [path for _, path in entries if "node_modules" in Path(path).parts] == []
