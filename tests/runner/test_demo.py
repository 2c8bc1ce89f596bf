"""The README's first command, end to end: the real suite plays the bundled demo script."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import PROJECT_ROOT

pytestmark = pytest.mark.slow

DEMO = PROJECT_ROOT / "scripts" / "demo" / "demo.yaml"


def test_demo_runs_to_completion_and_recalls_the_stored_moment(tmp_path):
    env = dict(os.environ, NADINE_LOG_DIR=str(tmp_path / "logs"))
    began = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "scripts.run_script", str(DEMO), "--demo"], cwd=PROJECT_ROOT,
                         env=env, capture_output=True, text=True, timeout=400)
    took = time.monotonic() - began
    assert out.returncode == 0, out.stdout + out.stderr[-4000:]
    # stdout is the readable transcript only; it ends by naming the file that holds the JSON lines
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith("per-turn JSON lines: ")
    records = Path(last.removeprefix("per-turn JSON lines: "))
    assert records.parent.is_relative_to(tmp_path / "logs")
    assert not [line for line in out.stdout.splitlines() if line.startswith("{")]
    turns = [json.loads(line) for line in records.read_text().splitlines()[:-1]]
    moment = next(t for t in turns if t["session"] == 1 and t["stored"] and t["stored"]["scene_type"] == "moment")
    recall = next(t for t in turns if t["session"] == 2 and t["is_recall"])
    assert recall["retrieved"]["scene_id"] == moment["stored"]["scene_id"]
    assert recall["retrieved"]["injected"] is True
    assert all(t["user_name"] == "Eileen" for t in turns if t["session"] == 2)
    # the same notes as the chat's (common/turn_notes.py)
    assert "=== Session 2, 48 hours later" in out.stdout and "[recalled] moment scene" in out.stdout
    assert "[stored] scene" in out.stdout
    print(f"demo took {took:.1f} s")
