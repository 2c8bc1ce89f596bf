"""The frame step with a depth camera: the closest face is the active user and its deprojected
centre is published on look_at. The detector is a test double (the model is not under test here)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from common import topics as t
from common.clock import Clock
from common.config import load_settings
from common.store import DataLayout
from perception.assemble import build
from perception.backends.base import FaceBox
from perception.camera import Frame
from perception.pipeline import Backends
from tests.perception.doubles import RecordingBus


class TwoFaces:
    name = "two-faces"

    def detect(self, rgb: np.ndarray) -> list[FaceBox]:
        return [FaceBox(0, 0, 200, 200), FaceBox(300, 100, 340, 140)]  # big and far, small and near


def test_closest_face_is_tracked_and_looked_at(tmp_path: Path):
    settings = load_settings(environ={}, overrides=["perception.faces.detect_max_side=0"])
    bus = RecordingBus()
    p = build(settings, DataLayout(tmp_path), bus, Clock(None), backends=Backends(detector=TwoFaces()))
    depth = np.full((240, 400), 2.0, dtype=np.float32)
    depth[100:140, 300:340] = 0.5
    frame = Frame(np.zeros((240, 400, 3), np.uint8), 1, depth_m=depth,
                  deproject=lambda x, y, z: ((x - 200) / 500 * z, (y - 120) / 500 * z, z))
    p.step(frame, now=0.0)
    assert p.tracker.track.box.x1 == 300 and p.tracker.track.box.depth_m == 0.5
    (look,) = bus.of(t.LOOK_AT)
    assert (round(look.x, 3), round(look.y, 3), look.z) == (0.12, 0.0, 0.5)
    (seen,) = bus.of(t.USER_DETECTED)
    assert (seen.user_name, seen.user_id) == ("Unknown", None)  # no identity backend: never recognised
