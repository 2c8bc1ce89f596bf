"""The packages' import graph, read from the source with ast (every import counts, those under
TYPE_CHECKING and inside functions included): product code lives in the packages and never reaches
into the scripts/ front ends, common/ depends on no process package, and the memory contracts are
not tied to their implementation by a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("common", "interaction", "perception", "control")
PROCESS_PACKAGES = ("interaction", "perception", "control")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> dict[str, set[str]]:
    """module -> the modules of the project it imports (a `from package import module` names the module)."""
    modules = {_module_name(p): p for top in (*PRODUCT, "scripts") for p in (ROOT / top).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    targets.add(full if full in modules else node.module)
            elif isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
        graph[name] = {m for m in targets if m in modules and m != name}
    return graph


GRAPH = _graph()


def _reachable(start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(GRAPH[start])
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(GRAPH[module])
    return seen


def _top(module: str) -> str:
    return module.split(".", 1)[0]


def test_product_code_never_imports_the_scripts_front_ends():
    offenders = {m: sorted(t for t in targets if _top(t) == "scripts")
                 for m, targets in GRAPH.items() if _top(m) in PRODUCT}
    assert not {m: t for m, t in offenders.items() if t}


def test_common_imports_no_process_package():
    offenders = {m: sorted(t for t in targets if _top(t) in PROCESS_PACKAGES)
                 for m, targets in GRAPH.items() if _top(m) == "common"}
    assert not {m: t for m, t in offenders.items() if t}


@pytest.mark.parametrize("contracts", ["interaction.memory.contracts"])
def test_the_memory_contracts_are_in_no_import_cycle(contracts):
    back = sorted(m for m in _reachable(contracts) if contracts in GRAPH[m])
    assert contracts not in _reachable(contracts), f"{contracts} imports modules that import it back: {back}"


@pytest.mark.parametrize("package", ["common", "perception", "control", "interaction.memory"])
def test_no_import_cycle_inside(package):
    inside = [m for m in GRAPH if m == package or m.startswith(f"{package}.")]
    cyclic = sorted(m for m in inside if m in _reachable(m))
    assert not cyclic
