"""Remove the botocore service models no function uses from a built layer.

Usage: python prune_botocore.py <layer dir> <services file>. Keeps the models of the services
listed in the file (one per line, `#` comments) and botocore's shared data files (endpoints,
partitions, retry and default configuration); a listed service botocore lacks is an error.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def listed(services_file: Path) -> set[str]:
    lines = services_file.read_text(encoding="utf-8").splitlines()
    return {line.split("#")[0].strip() for line in lines} - {""}


def prune(layer: Path, keep: set[str]) -> list[str]:
    """Delete every service directory of `layer`/botocore/data not in `keep`; the removed."""
    data = layer / "botocore" / "data"
    services = {path.name for path in data.iterdir() if path.is_dir()}
    missing = keep - services
    if missing:
        raise SystemExit(f"botocore has no model of {sorted(missing)}")
    removed = sorted(services - keep)
    for name in removed:
        shutil.rmtree(data / name)
    return removed


if __name__ == "__main__":
    layer_dir, services_file = map(Path, sys.argv[1:3])
    gone = prune(layer_dir, listed(services_file))
    print(f"botocore: kept {len(listed(services_file))} service models, removed {len(gone)}")
