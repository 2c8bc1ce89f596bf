"""Issue 16 item 5: a camera that is one still image (a file, or a folder holding one photo) keeps one
face track while the face stays, instead of a new track (and a log line) every frame."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from common.clock import Clock
from common.config import load_settings
from common.config.perception_settings import CameraSettings
from common.store import DataLayout
from perception.assemble import build
from perception.backends.base import FaceBox
from perception.camera import ImageFolder, make_source
from perception.pipeline import Backends
from tests.perception.doubles import RecordingBus


class OneFace:
    name = "one-face"

    def __init__(self) -> None:
        self.calls = 0

    def detect(self, rgb: np.ndarray) -> list[FaceBox]:
        self.calls += 1
        return [FaceBox(20, 20, 80, 80)]


def photo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    assert cv2.imwrite(str(path), np.full((120, 160, 3), 90, np.uint8))
    return path


@pytest.mark.parametrize("as_file", [True, False])
def test_one_photo_keeps_one_track(tmp_path, as_file):
    shot = photo(tmp_path / "cam" / "me.jpg")
    source = make_source(CameraSettings(source=str(shot if as_file else shot.parent)))
    assert isinstance(source, ImageFolder)
    source.open()
    detector = OneFace()
    settings = load_settings(environ={}, overrides=["perception.faces.detect_max_side=0"])
    p = build(settings, DataLayout(tmp_path / "data"), RecordingBus(), Clock(None), backends=Backends(detector=detector))
    tracks = set()
    for i in range(20):
        p.step(source.read(), now=i * 0.1)
        tracks.add(p.tracker.track.track_id)
    assert len(tracks) == 1
    assert detector.calls == 1  # the same pixels are not detected again


def test_a_folder_of_several_photos_still_cuts_between_them(tmp_path):
    photo(tmp_path / "cam" / "a.jpg")
    photo(tmp_path / "cam" / "b.jpg")
    source = ImageFolder(tmp_path / "cam", loop=True)
    source.open()
    frames = [source.read() for _ in range(4)]
    assert [f.cut for f in frames] == [True, True, True, True]  # each new photo is a new still
    missing = ImageFolder(tmp_path / "nope.jpg", loop=True)
    with pytest.raises(Exception, match="does not exist"):
        missing.open()


def test_a_folder_of_one_persons_photos_logs_who_it_is_once(tmp_path, shared_data, caplog):
    """Each photo is a new still (a new track), but the log names the person once, not per photo."""
    import logging
    import shutil

    cam = tmp_path / "cam"
    cam.mkdir()
    for name in ("df_a_01.jpg", "df_a_03.jpg"):
        shutil.copy(shared_data / "faces" / name, cam / name)
    source = ImageFolder(cam, loop=True)
    source.open()
    settings = load_settings(environ={}, overrides=["common.enable_visual_memory=false"])
    p = build(settings, DataLayout(tmp_path / "data"), RecordingBus(), Clock(None))
    with caplog.at_level(logging.INFO, logger="nadine.perception"):
        for i in range(8):
            p.step(source.read(), now=i * 0.1)
    named = [r for r in caplog.records if "identified as" in r.getMessage()]
    assert len(named) == 1 and "identified as unknown" in named[0].getMessage()
