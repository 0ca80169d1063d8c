"""Cold start of every Lambda function against a bare boto3 + pydantic handler, same run.

Builds a layer-like directory for THIS machine's platform (the packages of
layers/dependencies/requirements.txt, plus the `shared` package), precompiled to
unchecked-hash .pyc as the layer build does, then for each function of template.yaml starts
fresh interpreters (`-I`, nothing but the function's directory and the layer on sys.path) and
times, as Lambda's init phase would run them:

- import: `import app` (the function's handler module);
- init: what the first request builds (tool functions and expiry: settings, AWS clients,
  storage; the router: the fastmcp app under Mangum and its Lambda client);
- snapshot: SnapStart's before-snapshot hooks (the container, and for a tool function the
  warm-up of its parser, service and scrubbing patterns): paid once per published version,
  before the snapshot, by no cold start; without SnapStart it is paid by the first call;
- restore: SnapStart's after-restore hooks (new AWS clients, storage, random seed), timed
  after the before-snapshot hooks ran: what a restored environment adds before its first call.

The baseline is a bare handler (`import boto3, pydantic`, one request model, one DynamoDB
client at import) timed the same way in the same run; the ratio is (import + init) of a
function over (import + init) of the baseline, of the medians; `best` is the same ratio of
the fastest run of each (on a shared machine the least disturbed one: other processes only
ever add to a probe's time). Goal: <= 1.3x for tool functions.

Run: .venv/bin/python benchmarks/cold_start.py [--runs 7] [--layer /tmp/brain-cold-start-layer]
[--cpu] [--against DIR] (--cpu: the probes' CPU time instead of wall time, for a loaded
machine; --against: a checkout of another revision, e.g. `git archive main | tar -x -C DIR`,
measured in the same run, alternately with this one: rows "<function> @against").
A measurement, not a test (tests/unit/test_benchmarks.py only smoke-runs the measurement).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "layers" / "dependencies" / "requirements.txt"
# The layer build's pruning of botocore's service models (layers/dependencies/Makefile).
PRUNE = ROOT / "layers" / "dependencies" / "prune_botocore.py"
SERVICES = ROOT / "layers" / "dependencies" / "botocore-services.txt"
ENV = {
    "AWS_DEFAULT_REGION": "eu-central-1",
    "AWS_ACCESS_KEY_ID": "cold",
    "AWS_SECRET_ACCESS_KEY": "start",
    "BRAIN_TABLE_NAME": "brain",
    "BRAIN_BUCKET_NAME": "brain-embeddings",
    "BRAIN_TOOL_FUNCTIONS": "{}",
    # As template.yaml sets them: the router and the REST function build the OIDC fallback.
    "BRAIN_OIDC_ISSUER": "https://cognito-idp.eu-central-1.amazonaws.com/eu-central-1_Cold",
    "BRAIN_OIDC_AUDIENCE": "brain-client",
    "FASTMCP_ENABLE_RICH_LOGGING": "false",
    "POWERTOOLS_SERVICE_NAME": "brain",
    "POWERTOOLS_METRICS_NAMESPACE": "Brain",
}
BASELINE = '''"""A bare handler: boto3, one pydantic request model, one DynamoDB client."""
import boto3
from pydantic import BaseModel


class Request(BaseModel):
    ids: list[str]


client = boto3.client("dynamodb")


def handler(event, context):
    request = Request.model_validate(event)
    return {"ids": request.ids}
'''
INIT = {
    "mcp_router": "from shared.lambda_runtime.router import _router; _router()",
    "baseline": "",
}
CONTAINER_INIT = "from shared.lambda_runtime.container import container; container()"
# Untimed: one tools/call through the router (its invoke stubbed), so that a package the
# layer lacks but a request path imports lazily fails here, not in production.
ROUTER_SMOKE = """
import json
from shared.config import Settings
from shared.lambda_runtime.router import InvokeResult, build_router
class Stub:
    def invoke(self, function_name, payload):
        return InvokeResult(b'{"erfolg": true, "daten": {}, "referenzfelder": {}}')
event = json.loads(open(EVENT_PATH).read())
tools = {"insert_brain_longterm_memory": "f"}  # the sample event's tool
answer = build_router(Settings(tool_functions=tools), Stub())(event, None)
assert '"isError":false' in answer["body"], answer
"""
PROBE = """
import sys, time
sys.path[:0] = [{function!r}, {layer!r}, {runtime!r}]
t0 = time.{clock}()
import app
t1 = time.{clock}()
{init}
t2 = time.{clock}()
{smoke}
restore = snapshot = 0.0
try:
    import snapshot_restore_py as hooks
except ImportError:
    hooks = None
if hooks is not None and {hooks}:
    t_snap = time.{clock}()
    for func, args, kwargs in reversed(hooks.get_before_snapshot()):
        func(*args, **kwargs)
    t3 = time.{clock}()
    snapshot = t3 - t_snap
    for func, args, kwargs in hooks.get_after_restore():
        func(*args, **kwargs)
    restore = time.{clock}() - t3
print(t1 - t0, t2 - t1, restore, snapshot)
"""


# The probe's clock: wall time (what Lambda bills) or the process's CPU time (`--cpu`).
WALL, CPU = "perf_counter", "process_time"


@dataclass(frozen=True)
class Timing:
    imports: float
    init: float
    restore: float
    snapshot: float = 0.0
    # The fastest run's import + init (0: a single measurement).
    best: float = 0.0

    @property
    def total(self) -> float:
        return self.imports + self.init


def layer_is_current(layer: Path, stamp: str) -> bool:
    marker = layer / ".requirements-sha256"
    return marker.exists() and marker.read_text() == stamp


def build_layer(layer: Path, root: Path = ROOT) -> None:
    """Packages (cached while requirements.txt is unchanged), then a fresh copy of shared/,
    all of the checkout `root`."""
    pins = (root / REQUIREMENTS.relative_to(ROOT)).read_bytes()
    pins += (root / SERVICES.relative_to(ROOT)).read_bytes()
    stamp = hashlib.sha256(pins + sys.version.encode()).hexdigest()
    if not layer_is_current(layer, stamp):
        if layer.exists():
            shutil.rmtree(layer)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "-q",
                "--no-compile",
                "--target",
                str(layer),
                "-r",
                str(root / REQUIREMENTS.relative_to(ROOT)),
            ],
            check=True,
        )
        prune, services = root / PRUNE.relative_to(ROOT), root / SERVICES.relative_to(ROOT)
        subprocess.run([sys.executable, str(prune), str(layer), str(services)], check=True)
        (layer / ".requirements-sha256").write_text(stamp)
    shutil.rmtree(layer / "shared", ignore_errors=True)
    shutil.copytree(root / "shared", layer / "shared", ignore=shutil.ignore_patterns("__pycache__"))


def install_hook_library(target: Path) -> None:
    """snapshot-restore-py, as the Lambda runtime provides it (outside the layer)."""
    import snapshot_restore_py

    shutil.copy(snapshot_restore_py.__file__, target / "snapshot_restore_py.py")


def compile_all(*roots: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "compileall",
            "-q",
            "-j",
            "0",
            "--invalidation-mode",
            "unchecked-hash",
            *map(str, roots),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def template_functions(root: Path = ROOT) -> dict[str, str]:
    """Function directory name -> its init snippet, for every function directory."""
    functions = {}
    for directory in sorted((root / "functions").iterdir()):
        if (directory / "app.py").exists():
            functions[directory.name] = INIT.get(directory.name, CONTAINER_INIT)
    return functions


def measure(
    directory: Path, init: str, layer: Path, runtime: Path, hooks: bool, clock: str = WALL
) -> Timing:
    smoke = ""
    if directory.name == "mcp_router":
        smoke = ROUTER_SMOKE.replace("EVENT_PATH", repr(str(ROOT / "events" / "mcp_router.json")))
    code = PROBE.format(
        function=str(directory),
        layer=str(layer),
        runtime=str(runtime),
        init=init,
        hooks=hooks,
        smoke=smoke,
        clock=clock,
    )
    env = {"PATH": os.environ["PATH"], **ENV}
    # -I -S: no site-packages of this venv, only the function, the layer and the runtime's own
    # hook library, as in Lambda.
    out = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    # The last line: the probe's own output (logs of the smoke call come before it).
    imports, init_s, restore, snapshot = (
        float(x) * 1000 for x in out.stdout.splitlines()[-1].split()
    )
    return Timing(imports, init_s, restore, snapshot)


def median(timings: list[Timing]) -> Timing:
    return Timing(
        statistics.median(t.imports for t in timings),
        statistics.median(t.init for t in timings),
        statistics.median(t.restore for t in timings),
        statistics.median(t.snapshot for t in timings),
        min(t.total for t in timings),
    )


def run(
    runs: int,
    layer: Path,
    only: list[str] | None = None,
    clock: str = WALL,
    against: Path | None = None,
) -> dict[str, Timing]:
    # (checkout, its layer, the suffix of its rows)
    checkouts = [(ROOT, layer, "")]
    if against is not None:
        checkouts.append((against, layer.with_name(layer.name + "-against"), " @against"))
    for root, root_layer, _ in checkouts:
        build_layer(root_layer, root)
    with tempfile.TemporaryDirectory(prefix="brain-cold-start-") as scratch:
        runtime = Path(scratch) / "runtime"
        baseline = Path(scratch) / "baseline"
        runtime.mkdir()
        baseline.mkdir()
        install_hook_library(runtime)
        (baseline / "app.py").write_text(BASELINE)
        compile_all(layer, runtime, baseline, *(c[0] / "functions" for c in checkouts))
        for _, root_layer, _ in checkouts[1:]:
            compile_all(root_layer)
        # name -> (function directory, init snippet, layer)
        targets = {"baseline": (baseline, "", layer)}
        for name, init in template_functions().items():
            if only is None or name in only:
                for root, root_layer, suffix in checkouts:
                    if (root / "functions" / name / "app.py").exists():
                        targets[name + suffix] = (root / "functions" / name, init, root_layer)
        results: dict[str, list[Timing]] = {name: [] for name in targets}
        # Interleaved, so that a slower moment of the machine hits every function alike.
        for _ in range(runs):
            for name, (directory, init, target_layer) in targets.items():
                hooks = name != "baseline"
                results[name].append(measure(directory, init, target_layer, runtime, hooks, clock))
    for root, _, _ in checkouts:
        for cache in (root / "functions").rglob("__pycache__"):
            shutil.rmtree(cache)
    return {name: median(timings) for name, timings in results.items()}


def table(results: dict[str, Timing]) -> str:
    base = results["baseline"]
    lines = [
        f"{'function':<30} {'import':>8} {'init':>8} {'total':>8} {'ratio':>6} {'best':>6}"
        f" {'restore':>8} {'snapshot':>9}",
    ]
    for name, timing in results.items():
        ratio = timing.total / base.total
        best = timing.best / base.best if timing.best and base.best else ratio
        lines.append(
            f"{name:<30} {timing.imports:6.0f}ms {timing.init:6.0f}ms {timing.total:6.0f}ms"
            f" {ratio:5.2f}x {best:5.2f}x {timing.restore:6.0f}ms {timing.snapshot:7.0f}ms"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--layer", type=Path, default=Path("/tmp/brain-cold-start-layer"))
    parser.add_argument("--only", nargs="*", help="function directories (default: all)")
    parser.add_argument("--json", action="store_true", help="print the medians as JSON")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="the process's CPU time instead of wall time: on a loaded machine the wall time"
        " mostly measures waiting for a core (imports are CPU work; file reads are cached)",
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="a checkout of another revision, measured in the same run (rows '@against')",
    )
    args = parser.parse_args()
    clock = CPU if args.cpu else WALL
    results = run(args.runs, args.layer, args.only, clock, args.against)
    if args.json:
        print(json.dumps({name: t.__dict__ for name, t in results.items()}, indent=1))
    else:
        kind = "CPU time" if args.cpu else "wall time"
        print(
            f"Python {sys.version.split()[0]}, {args.runs} fresh interpreters each, medians, {kind}"
        )
        print(table(results))


if __name__ == "__main__":
    main()
