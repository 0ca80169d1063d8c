"""Cold-start import time of the Lambda handlers, with and without precompiled .pyc.

Builds a layer-like directory (dependencies from layers/dependencies/requirements.txt if
present, else the runtime packages, plus the `shared` package) for THIS machine's platform,
then imports each handler in fresh interpreters: once with `-B` and no __pycache__ (what
Lambda does when the artefact ships no .pyc: it compiles on every cold start and cannot
write the result), once after `compileall --invalidation-mode unchecked-hash` (what the
layer build does). Also times the first-use construction (router app, boto3 clients).

Run: .venv/bin/python benchmarks/cold_start.py [--runs 5] [--layer /tmp/brain-layer]
A measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = [
    "fastmcp==4.2.3",
    "pydantic",
    "pydantic-settings",
    "snowballstemmer",
    "pyjwt[crypto]",
    "mangum==0.22.0",
    "aws-lambda-powertools==3.37.0",
    "boto3",
]
ENV = {
    "AWS_DEFAULT_REGION": "eu-central-1",
    "AWS_ACCESS_KEY_ID": "cold",
    "AWS_SECRET_ACCESS_KEY": "start",
    "BRAIN_TABLE_NAME": "brain",
    "BRAIN_BUCKET_NAME": "brain-embeddings",
    "FASTMCP_ENABLE_RICH_LOGGING": "false",
}
FIRST_USE = {
    "mcp_router": "from shared.lambda_runtime.router import _router; _router()",
    "fetch_brain_memories": "from shared.lambda_runtime.container import container; container()",
    "expiry": "from shared.lambda_runtime.container import container; container()",
}


def build_layer(layer: Path) -> None:
    if layer.exists():
        shutil.rmtree(layer)
    requirements = ROOT / "layers" / "dependencies" / "requirements.txt"
    spec = ["-r", str(requirements)] if requirements.exists() else RUNTIME
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-compile", "-t", str(layer), *spec],
        check=True,
    )
    shutil.copytree(ROOT / "shared", layer / "shared", ignore=shutil.ignore_patterns("__pycache__"))


def drop_pycache(*roots: Path) -> None:
    for root in roots:
        for cache in root.rglob("__pycache__"):
            shutil.rmtree(cache)


def timed_import(function: str, layer: Path, flags: list[str]) -> tuple[float, float]:
    code = (
        "import sys, time\n"
        f"sys.path[:0] = [{str(ROOT / 'functions' / function)!r}, {str(layer)!r}]\n"
        "t0 = time.perf_counter(); import app; t1 = time.perf_counter()\n"
        f"{FIRST_USE[function]}\n"
        "print(t1 - t0, time.perf_counter() - t1)\n"
    )
    env = {"PATH": os.environ["PATH"], **ENV}
    out = subprocess.run(
        [sys.executable, "-I", *flags, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    first, second = out.stdout.split()
    return float(first) * 1000, float(second) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--layer", type=Path, default=Path("/tmp/brain-cold-start-layer"))
    args = parser.parse_args()
    build_layer(args.layer)
    functions = ROOT / "functions"
    for mode in ("without .pyc", "with .pyc"):
        if mode == "without .pyc":
            drop_pycache(args.layer, functions)
            flags = ["-B"]
        else:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "compileall",
                    "-q",
                    "--invalidation-mode",
                    "unchecked-hash",
                    str(args.layer),
                    str(functions),
                ],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            flags = []
        for function in FIRST_USE:
            runs = [timed_import(function, args.layer, flags) for _ in range(args.runs)]
            imports = statistics.median(r[0] for r in runs)
            first_use = statistics.median(r[1] for r in runs)
            print(
                f"{function:<22} {mode:<13} import {imports:6.0f} ms"
                f"   first use {first_use:5.0f} ms"
            )
    drop_pycache(functions)


if __name__ == "__main__":
    main()
