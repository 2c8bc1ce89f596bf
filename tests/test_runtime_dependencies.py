"""The processes and the lab's tools import only what the plain install (`scripts/bootstrap.sh run`) puts in
the venv: a package of the test or eval extra imported by product code breaks the demo on a fresh machine
while every test still passes (the test venv has it)."""

from __future__ import annotations

import ast
import tomllib

from common.config.loader import PROJECT_ROOT

# distribution name in pyproject -> the name it is imported by, where the two differ
IMPORT_NAMES = {"scikit-learn": "sklearn", "pytest-timeout": "pytest_timeout"}
PRODUCT = ("common", "interaction", "perception", "control", "scripts")
# scripts/ that only the eval and test venvs run
EXTRA_ONLY = ("scripts/eval", "scripts/bench")


def _extra_only_imports() -> set[str]:
    project = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]
    base = {d.split("[")[0].split("=")[0].split(">")[0].split("<")[0].strip().lower() for d in project["dependencies"]}
    names = set()
    for extra in ("test", "eval"):
        for dep in project["optional-dependencies"][extra]:
            dist = dep.split("[")[0].split("=")[0].split(">")[0].split("<")[0].strip().lower()
            if dist not in base:
                names.add(IMPORT_NAMES.get(dist, dist.replace("-", "_")))
    return names


def _imported(path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_product_code_imports_nothing_only_the_test_or_eval_extra_installs():
    extra_only = _extra_only_imports()
    assert {"sklearn", "scipy", "matplotlib", "pytest", "selenium"} <= extra_only
    offenders = []
    for package in PRODUCT:
        for path in sorted((PROJECT_ROOT / package).rglob("*.py")):
            rel = path.relative_to(PROJECT_ROOT).as_posix()
            if rel.startswith(EXTRA_ONLY):
                continue
            offenders += [f"{rel}: {name}" for name in sorted(_imported(path) & extra_only)]
    assert not offenders, offenders
