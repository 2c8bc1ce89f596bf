"""Script loading (paths, shared:) and the camera feeder, as units."""

from __future__ import annotations

import time

import pytest

from scripts.runner.camera import CameraFeeder
from scripts.runner.script import ScriptError, load_script


def test_camera_paths_resolve_against_the_script_and_shared_data(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    (shared / "faces").mkdir(parents=True)
    (shared / "faces" / "a.jpg").write_bytes(b"x")
    (tmp_path / "local.png").write_bytes(b"x")
    monkeypatch.setenv("NADINE_SHARED_DATA", str(shared))
    script = tmp_path / "s.yaml"
    script.write_text("sessions:\n  - camera: [shared:faces/a.jpg, local.png]\n    turns: [{say: hi}]\n"
                      "  - camera: []\n    gap_hours: 2\n    turns: [{say: again, expect: {scene_of: null}}]\n")
    parsed, cameras = load_script(script)
    assert cameras == [[shared / "faces" / "a.jpg", tmp_path / "local.png"], []]
    assert parsed.sessions[1].turns[0].expect.keys() == ["scene_of"]
    script.write_text("sessions:\n  - gap_hours: -1\n    turns: [{say: hi}]\n")
    with pytest.raises(ScriptError, match="gap_hours"):
        load_script(script)


def test_feeder_cycles_images_and_empties_the_folder(tmp_path):
    a, b = tmp_path / "a.jpg", tmp_path / "b.png"
    a.write_bytes(b"A")
    b.write_bytes(b"B")
    feeder = CameraFeeder(tmp_path / "cam", period_s=0.1)
    feeder.show([a, b])
    seen = set()
    deadline = time.monotonic() + 3
    while len(seen) < 2 and time.monotonic() < deadline:
        newest = max((tmp_path / "cam").glob("frame_*"), key=lambda p: p.name)
        seen.add(newest.read_bytes())
        time.sleep(0.02)
    assert seen == {b"A", b"B"}
    assert len(list((tmp_path / "cam").iterdir())) <= 3
    feeder.show([])
    assert list((tmp_path / "cam").iterdir()) == []
    assert not feeder.showing
