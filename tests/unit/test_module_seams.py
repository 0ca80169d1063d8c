"""The seams between modules: no import cycle in shared/, one name per module role, and the
REST ledger on the ledger service (not on the MCP tool's dispatcher).

The import graph is read from the source (ast), every import counted: module level,
`TYPE_CHECKING` blocks and imports inside functions alike — a cycle hidden behind a lazy or
a typing-only import is still one (issue 26: `domain` ↔ `search/vectors`, `storage/aws` ↔
`dynamo/adapter`, `sqlite/memories` ↔ `sqlite/memory_index`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT / "shared"


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(SHARED.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(tree: ast.AST, known: Mapping[str, Path]) -> Iterator[str]:
    """The shared modules an import names (`from pkg import sub` names the submodule)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = [f"{node.module}.{alias.name}" for alias in node.names]
            named = [sub for sub in subs if sub in known]
            if named:
                yield from named
            if len(named) < len(subs) and node.module in known:
                yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in known)


def import_graph() -> dict[str, set[str]]:
    known = _modules()
    graph = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = set(_imports(tree, known)) - {name}
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycles_in_shared() -> None:
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_cycles() -> None:
    """The test can fail: the three cycles of issue 26, as they were, are found."""
    graph = {
        "shared.domain": {"shared.search.vectors"},
        "shared.search.vectors": {"shared.domain"},
        "shared.storage.aws": {"shared.storage.dynamo.adapter"},
        "shared.storage.dynamo.adapter": {"shared.storage.dynamo.schema"},
        "shared.storage.dynamo.schema": {"shared.storage.aws"},
        "shared.storage.sqlite.memories": {"shared.storage.sqlite.memory_index"},
        "shared.storage.sqlite.memory_index": {"shared.storage.sqlite.memories"},
        "shared.config": set(),
    }
    assert sorted(cycles(graph)) == [
        ["shared.domain", "shared.search.vectors"],
        [
            "shared.storage.aws",
            "shared.storage.dynamo.adapter",
            "shared.storage.dynamo.schema",
        ],
        ["shared.storage.sqlite.memories", "shared.storage.sqlite.memory_index"],
    ]
    lazy = ast.parse("def f():\n    from shared.config import Settings\n")
    assert list(_imports(lazy, {"shared.config": SHARED / "config.py"})) == ["shared.config"]


def test_one_name_per_module_role() -> None:
    """The tools' dispatcher is `tools/dispatch.py` (`call_tool`); the way the MCP server
    reaches it (in process, or a Lambda per tool) is `server/tool_bridge.py`."""
    names = {path.stem for path in (SHARED / "tools").glob("*.py")}
    assert "dispatch" in names
    assert not {name for name in names if name.startswith("dispatch") and name != "dispatch"}


def test_rest_ledger_runs_the_service_not_the_tool() -> None:
    graph = import_graph()
    assert not graph["shared.services.ledger_api"] & {
        "shared.tools.dispatch",
        "shared.tools.catalog",
    }
