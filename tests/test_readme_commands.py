"""The README's and docs/'s commands work exactly as written after the setup. Every block marked
`<!-- readme-test: fast -->` is run line by line; every `.venv/bin/python -m MODULE` they name must
exist; no command is written with a bare `python` (which has none of the packages); every link
between them reaches a file and a heading that exist. The README stays short enough for a newcomer
(at most 200 lines), and no table cell is longer than a line or two: longer text reads better as
prose or a list."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import PROJECT_ROOT

DOCS = [PROJECT_ROOT / "README.md", *sorted((PROJECT_ROOT / "docs").glob("*.md"))]
TEXTS = {path.relative_to(PROJECT_ROOT).as_posix(): path.read_text(encoding="utf-8") for path in DOCS}
README = TEXTS["README.md"]
MARKER = "<!-- readme-test: fast -->"
VENV_PYTHON = ".venv/bin/python"
README_MAX_LINES = 200
TABLE_CELL_MAX_CHARS = 200


def fast_commands() -> list[str]:
    blocks = [block for text in TEXTS.values()
              for block in re.findall(re.escape(MARKER) + r"\s*```bash\n(.*?)```", text, re.S)]
    assert re.search(re.escape(MARKER) + r"\s*```bash\n", README), f"README.md has no ```bash block after {MARKER}"
    return [line.strip() for block in blocks for line in block.splitlines()
            if line.strip() and not line.startswith("#")]


def as_run_here(command: str) -> list[str]:
    """The command as written; `.venv/bin/python` is this interpreter when the checkout's own venv is
    elsewhere (a git worktree shares the main checkout's venv)."""
    argv = shlex.split(command)
    if argv[0] == VENV_PYTHON and not (PROJECT_ROOT / VENV_PYTHON).exists():
        argv[0] = sys.executable
    return argv


@pytest.mark.parametrize("command", fast_commands())
def test_fast_readme_command_works_as_written(command, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NADINE_")}
    env.update(NADINE_DATA_DIR=str(tmp_path / "data"), NADINE_LOG_DIR=str(tmp_path / "logs"),
               NADINE_RUN_DIR=str(tmp_path / "run"), PATH=f"{Path(sys.executable).parent}:{env.get('PATH', '')}")
    out = subprocess.run(as_run_here(command), cwd=PROJECT_ROOT, env=env, capture_output=True, text=True,
                         timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, f"{command}\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}"
    assert "Traceback" not in out.stderr


def test_every_module_the_readme_and_docs_name_exists():
    modules = {m for text in TEXTS.values() for m in re.findall(r"\.venv/bin/python -m ([a-z_][a-z0-9_.]*)", text)}
    assert len(modules) >= 10
    missing = sorted(m for m in modules if m != "pytest" and importlib.util.find_spec(m) is None)
    assert missing == []


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_no_command_uses_a_bare_python_or_pip(name):
    bare = re.findall(r"(?<![/\w.])(?:python3? -m|pip3? install) [\w.'\[\]-]+", TEXTS[name])
    assert bare == []


def _anchor(heading: str) -> str:
    """The id GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(text: str) -> set[str]:
    outside_code = re.sub(r"```.*?```", "", text, flags=re.S)
    return {_anchor(h) for h in re.findall(r"^#+ (.+)$", outside_code, re.M)}


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_every_link_reaches_a_file_and_heading_that_exist(name):
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", TEXTS[name]):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        file = (PROJECT_ROOT / name).parent / path if path else PROJECT_ROOT / name
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file.read_text(encoding="utf-8")):
            broken.append(target)
    assert broken == []


def test_the_readme_is_short_enough_for_a_newcomer():
    assert len(README.splitlines()) <= README_MAX_LINES


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_no_table_cell_is_longer_than_a_line_or_two(name):
    cells = [cell.strip() for line in TEXTS[name].splitlines() if line.startswith("|")
             for cell in line.strip().strip("|").split(" | ")]
    assert [c[:80] for c in cells if len(c) > TABLE_CELL_MAX_CHARS] == []


def test_the_runner_names_its_private_broker_with_a_ready_mosquitto_sub_line():
    import shutil

    from common.supervisor.broker import Broker
    from scripts.run_script import watch_line

    line = watch_line("127.0.0.1", 40123, "nadine/robot7")
    assert line.endswith("mosquitto_sub -h 127.0.0.1 -p 40123 -t 'nadine/robot7/#' -v")
    run_script = (PROJECT_ROOT / "scripts" / "run_script.py").read_text()
    assert "watch_line(suite.host, suite.port, suite.topics.root)" in run_script
    if shutil.which("mosquitto_sub"):  # the printed command really subscribes to such a broker
        broker = Broker().start()
        try:
            argv = shlex.split(watch_line(broker.host, broker.port, "nadine").split("watch it: ")[1])
            done = subprocess.run([*argv, "-C", "1", "-W", "1"], capture_output=True, text=True, timeout=30)
            assert "Connection refused" not in done.stderr and "Error" not in done.stderr
        finally:
            broker.stop()
