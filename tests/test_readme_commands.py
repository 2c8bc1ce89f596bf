"""Issue 16 item 4: the README's commands work exactly as written after the setup. The block marked
`<!-- readme-test: fast -->` is run line by line; every `.venv/bin/python -m MODULE` the README names
must exist; no command is written with a bare `python` (which has none of the packages)."""

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

README = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
MARKER = "<!-- readme-test: fast -->"
VENV_PYTHON = ".venv/bin/python"


def fast_commands() -> list[str]:
    block = re.search(re.escape(MARKER) + r"\s*```bash\n(.*?)```", README, re.S)
    assert block, f"README.md has no ```bash block after {MARKER}"
    return [line.strip() for line in block.group(1).splitlines() if line.strip() and not line.startswith("#")]


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


def test_every_module_the_readme_names_exists():
    modules = set(re.findall(r"\.venv/bin/python -m ([a-z_][a-z0-9_.]*)", README))
    assert len(modules) >= 10
    missing = sorted(m for m in modules if m != "pytest" and importlib.util.find_spec(m) is None)
    assert missing == []


def test_no_command_uses_a_bare_python_or_pip():
    bare = re.findall(r"(?<![/\w.])(?:python3? -m|pip3? install) [\w.'\[\]-]+", README)
    assert bare == []


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
