"""The local data directory (SQLite database, token signing key): created private (0700),
checked before use, its files kept private (0600).

A directory that cannot be created or written is refused with `DataDirUnusable`, whose
message is German and names the directory; the CLI prints it instead of a traceback.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


class DataDirUnusable(Exception):
    """The data directory cannot be created or written."""


def prepare_data_dir(path: Path) -> Path:
    """`path`, created with mode 0700 if missing; DataDirUnusable if it is not usable."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not path.is_dir():
            raise NotADirectoryError(str(path))
        # Prove it is writable (access() says yes to root even on read-only mounts).
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise DataDirUnusable(
            f"Datenverzeichnis {path} ist nicht nutzbar ({type(exc).__name__}): es muss "
            "ein beschreibbares Verzeichnis sein oder anlegbar sein (--data-dir / "
            "BRAIN_DATA_DIR)."
        ) from exc
    return path


def make_private(*files: Path) -> None:
    """Mode 0600 for each of `files` that exists (the database, its WAL and shared memory)."""
    for file in files:
        try:
            os.chmod(file, 0o600)
        except FileNotFoundError:
            continue


def create_private(file: Path) -> None:
    """Create `file` empty with mode 0600 unless it exists, then make sure it is 0600."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    make_private(file)
