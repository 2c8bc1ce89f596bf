"""One short benchmark script through the real runner and suite (slow: starts Mosquitto and the three
processes). The full 30+ script benchmark is never part of the test suite."""

import json
import subprocess
import sys

import pytest

from tests.support import PROJECT_ROOT

pytestmark = [pytest.mark.slow, pytest.mark.shared_data]


def test_one_script_scores(shared_data, tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "scripts.eval.memory", "--only", "01_medical_exam", "--jobs", "1",
         "--log-dir", str(tmp_path / "logs")],
        cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=400,
    )
    assert out.returncode == 0, out.stdout + out.stderr[-3000:]
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    metrics = summary["metrics"]
    assert summary["scripts"] == 1 and summary["suite_failures"] == 0
    assert metrics["recall_hit_rate"]["n"] == 2  # the exam and the first meeting
    assert metrics["recognition_accuracy"]["value"] == 1.0
    assert metrics["storage_recall"]["n"] == 2
