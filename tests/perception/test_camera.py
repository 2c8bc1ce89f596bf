"""Camera sources on real image files: watched folder (newest by mtime), image folder replay,
corrupt files skipped, a missing source logged and retried without ever raising."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

import cv2
import numpy as np

from common.config.perception_settings import CameraSettings
from perception.camera import Camera, ImageFolder, VideoCapture, WatchFolder, make_source


def write_png(path: Path, value: int) -> None:
    cv2.imwrite(str(path), np.full((8, 12, 3), value, dtype=np.uint8))


def touch(path: Path, mtime: float) -> None:
    os.utime(path, (mtime, mtime))


def test_watch_folder_shows_the_newest_image_and_nothing_when_empty(tmp_path: Path):
    src = WatchFolder(tmp_path)
    src.open()
    assert src.read() is None  # empty folder: nobody in view
    write_png(tmp_path / "a.png", 10)
    write_png(tmp_path / "b.png", 200)
    touch(tmp_path / "a.png", time.time() - 10)
    frame = src.read()
    assert frame is not None and frame.rgb[0, 0, 0] == 200 and frame.cut
    again = src.read()
    assert again.rgb[0, 0, 0] == 200 and not again.cut and again.static  # same picture, no new work
    touch(tmp_path / "a.png", time.time() + 5)
    assert src.read().rgb[0, 0, 0] == 10


def test_corrupt_newest_image_is_skipped_with_one_log_line(tmp_path: Path, caplog):
    write_png(tmp_path / "ok.png", 50)
    touch(tmp_path / "ok.png", time.time() - 10)
    (tmp_path / "bad.jpg").write_bytes(b"\xff\xd8 not really")
    src = WatchFolder(tmp_path)
    src.open()
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            assert src.read().rgb[0, 0, 0] == 50
    assert sum("bad.jpg is not a readable image" in r.message for r in caplog.records) == 1


def test_image_folder_once_and_looped(tmp_path: Path):
    for i, v in enumerate((1, 2, 3)):
        write_png(tmp_path / f"{i}.png", v)
    (tmp_path / "3_broken.png").write_bytes(b"nope")
    once = ImageFolder(tmp_path, loop=False)
    once.open()
    assert [once.read().rgb[0, 0, 0] for _ in range(3)] == [1, 2, 3]
    assert once.read() is None
    looped = ImageFolder(tmp_path, loop=True)
    looped.open()
    assert [looped.read().rgb[0, 0, 0] for _ in range(5)] == [1, 2, 3, 1, 2]


def test_make_source_interprets_the_setting(tmp_path: Path):
    assert isinstance(make_source(CameraSettings(source=f"watch:{tmp_path}")), WatchFolder)
    assert isinstance(make_source(CameraSettings(source=str(tmp_path))), ImageFolder)
    assert isinstance(make_source(CameraSettings(source="0")), VideoCapture)
    assert isinstance(make_source(CameraSettings(source=str(tmp_path / "clip.mp4"))), VideoCapture)


def test_missing_camera_is_logged_and_retried_never_raised(tmp_path: Path, caplog):
    folder = tmp_path / "later"
    cam = Camera(WatchFolder(folder), CameraSettings(retry_s=0.2, fps=50))
    with caplog.at_level(logging.INFO):
        assert cam.read() is None
        assert cam.read() is None
        errors = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert len(errors) == 1 and "does not exist" in errors[0].message and "retrying" in errors[0].message
        folder.mkdir()
        write_png(folder / "a.png", 7)
        deadline = time.monotonic() + 3
        frame = None
        while frame is None and time.monotonic() < deadline:
            frame = cam.read()
    assert frame is not None and frame.rgb[0, 0, 0] == 7
    assert any("is back" in r.message for r in caplog.records)


def test_missing_video_file_and_realsense_report_why(tmp_path: Path, caplog):
    for source in (str(tmp_path / "missing.mp4"), "realsense", "7"):
        cam = Camera(make_source(CameraSettings(source=source)), CameraSettings(retry_s=5))
        with caplog.at_level(logging.ERROR):
            assert cam.read() is None
    text = " ".join(r.message for r in caplog.records)
    assert "missing.mp4 does not exist" in text and "pyrealsense2 is not installed" in text
    assert "webcam 7 unavailable" in text
