"""The dependencies layer keeps only the botocore service models the functions use
(layers/dependencies/prune_botocore.py with botocore-services.txt, run by its Makefile)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import botocore

from tests.infra.cfn import ROOT, recipe_lines

LAYER_DIR = ROOT / "layers" / "dependencies"
CLIENT_CALL = re.compile(r"""\.client\(\s*["']([a-z0-9-]+)["']""")


def prune_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("prune_botocore", LAYER_DIR / "prune_botocore.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_client_the_code_builds_keeps_its_model() -> None:
    # Given the services the layer keeps and every boto3 client the functions' code builds
    kept = prune_module().listed(LAYER_DIR / "botocore-services.txt")
    built = {
        name
        for path in (ROOT / "shared").rglob("*.py")
        for name in CLIENT_CALL.findall(path.read_text(encoding="utf-8"))
    }
    # Then each is kept, and botocore has a model of every kept service
    assert built and built <= kept, sorted(built - kept)
    models = Path(botocore.__file__).parent / "data"
    assert all((models / name).is_dir() for name in kept)
    # And nothing else is kept but sts (the credential providers' AssumeRole)
    assert kept - built == {"sts"}, sorted(kept - built)


def test_pruning_keeps_listed_models_and_shared_data(tmp_path: Path) -> None:
    # Given a layer with three service models and botocore's shared data files
    data = tmp_path / "botocore" / "data"
    for name in ("dynamodb", "ec2", "s3vectors"):
        (data / name / "2012-08-10").mkdir(parents=True)
    (data / "endpoints.json").write_text("{}")
    # When it is pruned to dynamodb and s3vectors
    removed = prune_module().prune(tmp_path, {"dynamodb", "s3vectors"})
    # Then only the other model is gone
    assert removed == ["ec2"]
    assert sorted(p.name for p in data.iterdir()) == ["dynamodb", "endpoints.json", "s3vectors"]


def test_the_layer_build_prunes_after_installing() -> None:
    commands = recipe_lines(LAYER_DIR / "Makefile")
    install = next(i for i, c in enumerate(commands) if "-m pip install" in c)
    prune = next(i for i, c in enumerate(commands) if "prune_botocore.py" in c)
    compile_ = next(i for i, c in enumerate(commands) if "-m compileall" in c)
    assert install < prune < compile_
    assert commands[prune].endswith('prune_botocore.py "$(LAYER)" botocore-services.txt')
