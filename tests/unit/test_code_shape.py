"""The brief's code rules that a reader cannot see in one file, checked over all of them:
no product module over 500 lines, no catch-all `except Exception` / bare `except:`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("shared", "functions", "layers", "scripts", "benchmarks")
MAX_LINES = 500


def product_modules() -> list[Path]:
    found: list[Path] = []
    for top in PRODUCT:
        base = ROOT / top
        if base.is_dir():
            found += [
                path
                for path in sorted(base.rglob("*.py"))
                if not any(
                    part.startswith(".") or part in {"node_modules", "build"} for part in path.parts
                )
            ]
    return found


def test_the_product_code_is_found() -> None:
    modules = product_modules()
    assert len(modules) > 100
    assert ROOT / "shared" / "storage" / "dynamo" / "adapter.py" in modules


@pytest.mark.parametrize("path", product_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_500_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)}: {lines} lines; split it by concern"


def catch_alls(source: str) -> list[int]:
    """Lines of handlers that catch everything and neither re-raise nor pass the exception on
    (returned, raised from or stored: handed to a caller, as a parallel stage does; a handler
    that only logs it swallows it)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ExceptHandler):
            continue
        broad = node.type is None or (
            isinstance(node.type, ast.Name) and node.type.id in {"Exception", "BaseException"}
        )
        inner = list(ast.walk(node))
        reraises = any(isinstance(n, ast.Raise) and n.exc is None for n in inner)
        handed = [n for n in inner if isinstance(n, ast.Return | ast.Raise | ast.Assign)]
        passed_on = node.name is not None and any(
            isinstance(n, ast.Name) and n.id == node.name for h in handed for n in ast.walk(h)
        )
        if broad and not reraises and not passed_on:
            found.append(node.lineno)
    return found


def test_the_catch_all_check_sees_one() -> None:
    swallowed = "try:\n    f()\nexcept Exception:\n    pass\n"
    cleaned_up = "try:\n    f()\nexcept BaseException:\n    close()\n    raise\n"
    assert catch_alls(swallowed) == [3]
    handed_on = "try:\n    f()\nexcept BaseException as exc:\n    return exc\n"
    logged = "try:\n    f()\nexcept Exception as exc:\n    log(exc)\n"
    assert catch_alls(cleaned_up) == [] and catch_alls(handed_on) == []
    assert catch_alls(logged) == [3]


@pytest.mark.parametrize("path", product_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_catch_all_handler(path: Path) -> None:
    lines = catch_alls(path.read_text(encoding="utf-8"))
    assert not lines, f"{path.relative_to(ROOT)}: catch-all handler at lines {lines}"
