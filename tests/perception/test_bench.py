"""The perception benchmark runs end to end on the shared photos (numbers are judged from its output,
not here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.bench.perception import main, run

pytestmark = pytest.mark.shared_data


def test_perception_benchmark_smoke(shared_data: Path, capsys):
    r = run(frames=8, stores=2, faces_dir=shared_data / "faces")
    assert r["recognised_share"] == 1.0 and r["fps"] > 0 and r["store_ms"] > 0
    assert r["scenes_written"] >= 1 + 2  # first_meeting and two moments (vision stores depend on the photo)
    assert main(["--frames", "6", "--stores", "1", "--faces", str(shared_data / "faces")]) == 0
    assert "store incl. caption" in capsys.readouterr().out
