"""Camera sources: webcam index, video file, image folder (replayed at fps), watch:<folder> (the newest
image by mtime), realsense (RGB + aligned depth when pyrealsense2 is importable).

`Camera.read()` never raises and never blocks longer than about one frame period: a missing or
failing source is logged once per outage and reopened every retry_s, and `None` (no frame = nobody
in view) is returned meanwhile, so the frame loop keeps serving its queues.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from common.config.perception_settings import CameraSettings
from common.vision.image import read_rgb

log = logging.getLogger("nadine.perception.camera")
# our own one-line error per outage replaces OpenCV's warning on every reopen attempt
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
WATCH_PREFIX = "watch:"


class CameraError(RuntimeError):
    """The source cannot be opened or stopped delivering; the message says which and why."""


@dataclass
class Frame:
    rgb: np.ndarray  # (H, W, 3) uint8, RGB
    seq: int
    cut: bool = False  # a new still image: what was tracked before is not continuous with this frame
    static: bool = False  # the very same pixels as this source's previous frame (an unchanged still)
    depth_m: np.ndarray | None = None  # (H, W) metres, aligned to rgb (RealSense)
    deproject: Callable[[float, float, float], tuple[float, float, float]] | None = None

    def depth_at(self, x: int, y: int) -> float | None:
        if self.depth_m is None:
            return None
        h, w = self.depth_m.shape[:2]
        value = float(self.depth_m[min(max(y, 0), h - 1), min(max(x, 0), w - 1)])
        return value if value > 0 else None


class Source(Protocol):
    description: str

    def open(self) -> None: ...

    def read(self) -> Frame | None:
        """The next frame, or None when there is legitimately nothing to show (empty folder)."""
        ...

    def close(self) -> None: ...


def decode_image(path: Path) -> np.ndarray | None:
    """RGB pixels of an image file, or None when it cannot be decoded (the caller logs)."""
    try:
        return read_rgb(path)
    except (ValueError, OSError):
        return None


def _list_images(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES
            and not p.name.startswith(".")]


class _DecodeCache:
    """Decodes an image file once per (path, mtime, size) and logs a corrupt version once."""

    def __init__(self) -> None:
        self._key: tuple[Path, float, int] | None = None
        self._rgb: np.ndarray | None = None
        self._bad: set[tuple[Path, float, int]] = set()

    def get(self, path: Path) -> tuple[np.ndarray | None, bool]:
        """(pixels or None if corrupt, changed since the last call)."""
        try:
            st = path.stat()
        except FileNotFoundError:
            return None, False
        key = (path, st.st_mtime, st.st_size)
        if key == self._key:
            return self._rgb, False
        if key in self._bad:
            return None, False
        rgb = decode_image(path)
        if rgb is None:
            self._bad.add(key)
            log.warning("camera: %s is not a readable image; skipped", path)
            return None, False
        self._key, self._rgb = key, rgb
        return rgb, True


class WatchFolder:
    """Always the newest readable image in a folder; an empty folder means nobody is in view."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.description = f"watch:{folder}"
        self._cache = _DecodeCache()
        self._seq = 0

    def open(self) -> None:
        if not self.folder.is_dir():
            raise CameraError(f"watched folder {self.folder} does not exist")

    def read(self) -> Frame | None:
        try:
            images = _list_images(self.folder)
        except OSError as exc:
            raise CameraError(f"cannot list {self.folder}: {exc}") from exc
        for path in sorted(images, key=_mtime, reverse=True):
            rgb, changed = self._cache.get(path)
            if rgb is not None:
                self._seq += 1
                return Frame(rgb, self._seq, cut=changed, static=not changed)
        return None

    def close(self) -> None:
        pass


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return -1.0


class ImageFolder:
    """The folder's images in name order, one per frame, once or looped; corrupt files are skipped.
    A single image file is a folder of one. Showing the same image again is not a cut (the same
    pixels: one face track, no new detection), so a one-photo camera keeps one track."""

    def __init__(self, folder: Path, loop: bool) -> None:
        self.folder = folder
        self.loop = loop
        self.description = f"image {folder}" if folder.suffix.lower() in IMAGE_SUFFIXES else f"image folder {folder}"
        self._files: list[Path] = []
        self._index = 0
        self._seq = 0
        self._bad: set[Path] = set()
        self._last: tuple[Path, np.ndarray] | None = None

    def open(self) -> None:
        if self.folder.is_file():
            self._files, self._index = [self.folder], 0
            return
        if not self.folder.is_dir():
            raise CameraError(f"image folder {self.folder} does not exist")
        self._files = sorted(_list_images(self.folder))
        self._index = 0
        if not self._files:
            log.warning("camera: image folder %s has no images; nobody in view", self.folder)

    def read(self) -> Frame | None:
        for _ in range(len(self._files)):
            if self._index >= len(self._files):
                if not self.loop:
                    return None
                self._index = 0
            path = self._files[self._index]
            self._index += 1
            if path in self._bad:
                continue
            self._seq += 1
            if self._last is not None and self._last[0] == path:
                return Frame(self._last[1], self._seq, static=True)  # the same still again
            rgb = decode_image(path)
            if rgb is None:
                self._bad.add(path)
                log.warning("camera: %s is not a readable image; skipped", path)
                continue
            self._last = (path, rgb)
            return Frame(rgb, self._seq, cut=True)
        return None

    def close(self) -> None:
        pass


class VideoCapture:
    """A webcam index or a video file through OpenCV (a file is rewound when loop is on)."""

    def __init__(self, target: int | str, loop: bool) -> None:
        self.target = target
        self.loop = loop and isinstance(target, str)
        self.description = f"webcam {target}" if isinstance(target, int) else f"video {target}"
        self._cap: cv2.VideoCapture | None = None
        self._seq = 0
        self._ended = False

    def open(self) -> None:
        if isinstance(self.target, str) and not Path(self.target).is_file():
            raise CameraError(f"video file {self.target} does not exist")
        if isinstance(self.target, int) and sys.platform.startswith("linux") and not Path(
                f"/dev/video{self.target}").exists():
            raise CameraError(f"no /dev/video{self.target}: is a webcam connected (or choose NADINE_CAMERA)?")
        cap = cv2.VideoCapture(self.target)
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"OpenCV cannot open {self.description}")
        if isinstance(self.target, int):
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # sampled below the camera's rate: keep only the newest frame
        self._cap = cap
        self._ended = False

    def read(self) -> Frame | None:
        if self._cap is None or self._ended:
            return None
        ok, bgr = self._cap.read()
        if not ok and self.loop:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, bgr = self._cap.read()
        if not ok:
            if isinstance(self.target, str):
                self._ended = True
                log.info("camera: %s ended", self.description)
                return None
            raise CameraError(f"{self.description} stopped delivering frames")
        self._seq += 1
        return Frame(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB), self._seq)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class RealSense:
    """Intel RealSense colour 640x480 + depth aligned to colour (the robot's head camera; depth picks the
    closest face)."""

    description = "realsense"

    def __init__(self, timeout_s: float) -> None:
        self.timeout_ms = int(timeout_s * 1000)
        self._pipeline = None
        self._align = None
        self._rs = None
        self._seq = 0

    def open(self) -> None:
        try:
            import pyrealsense2 as rs
        except ImportError as exc:
            raise CameraError(
                "pyrealsense2 is not installed; install the `lab` extra (.venv/bin/pip install -e .[lab]) "
                "or choose another camera source"
            ) from exc
        pipeline = rs.pipeline()
        config = rs.config()
        config.enable_stream(rs.stream.color, 640, 480, rs.format.bgr8, 30)
        config.enable_stream(rs.stream.depth, 640, 480, rs.format.z16, 30)
        try:
            profile = pipeline.start(config)
        except RuntimeError as exc:
            raise CameraError(f"RealSense did not start (missing or claimed?): {exc}") from exc
        self._scale = profile.get_device().first_depth_sensor().get_depth_scale()
        self._rs, self._pipeline, self._align = rs, pipeline, rs.align(rs.stream.color)

    def read(self) -> Frame | None:
        rs = self._rs
        try:
            frames = self._pipeline.wait_for_frames(self.timeout_ms)
        except RuntimeError as exc:
            raise CameraError(f"RealSense gave no frame in {self.timeout_ms} ms: {exc}") from exc
        aligned = self._align.process(frames)
        color, depth = aligned.get_color_frame(), aligned.get_depth_frame()
        if not color or not depth:
            return None
        intrinsics = color.profile.as_video_stream_profile().intrinsics
        bgr = np.asanyarray(color.get_data())
        depth_m = np.asanyarray(depth.get_data()).astype(np.float32) * self._scale

        def deproject(x: float, y: float, z: float) -> tuple[float, float, float]:
            px = rs.rs2_deproject_pixel_to_point(intrinsics, [x, y], z)
            return float(px[0]), float(px[1]), float(px[2])

        self._seq += 1
        return Frame(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB), self._seq, depth_m=depth_m, deproject=deproject)

    def close(self) -> None:
        if self._pipeline is not None:
            try:
                self._pipeline.stop()
            except RuntimeError:
                pass
            self._pipeline = None


def make_source(settings: CameraSettings, base_dir: Path | None = None) -> Source:
    """Interpret camera.source (NADINE_CAMERA); relative paths are taken from base_dir (the cwd)."""
    spec = settings.source.strip()

    def path_of(text: str) -> Path:
        p = Path(text).expanduser()
        return p if p.is_absolute() or base_dir is None else base_dir / p

    if spec.startswith(WATCH_PREFIX):
        return WatchFolder(path_of(spec[len(WATCH_PREFIX):]))
    if spec.lower() == "realsense":
        return RealSense(settings.frame_timeout_s)
    if spec.isdigit():
        return VideoCapture(int(spec), settings.loop)
    path = path_of(spec)
    if path.is_dir() or path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageFolder(path, settings.loop)
    return VideoCapture(str(path), settings.loop)


class Camera:
    """A source plus pacing (settings fps) and reopen-on-failure."""

    def __init__(self, source: Source, settings: CameraSettings) -> None:
        self.source = source
        self.retry_s = settings.retry_s
        # every source is sampled at settings fps: a 30 fps webcam processed frame by frame would take a
        # whole core of this 2-core machine from the dialogue; 10 fps is the tracking target
        self.period = 1.0 / settings.fps
        self._open = False
        self._next_try = 0.0
        self._next_frame = 0.0
        self._failing = False
        self.error: str | None = None  # why the source is not delivering, while it is not

    @property
    def ok(self) -> bool:
        """The source is open: there is a view (an empty folder is a view with nobody in it)."""
        return self._open

    def _ensure_open(self) -> bool:
        if self._open:
            return True
        now = time.monotonic()
        if now < self._next_try:
            return False
        try:
            self.source.open()
        except CameraError as exc:
            self._fail(str(exc))
            return False
        self._open = True
        if self._failing:
            log.info("camera %s is back", self.source.description)
        else:
            log.info("camera %s opened", self.source.description)
        self._failing = False
        self.error = None
        return True

    def _fail(self, reason: str) -> None:
        if not self._failing:
            log.error("camera %s unavailable: %s; retrying every %.1f s", self.source.description, reason,
                      self.retry_s)
        self._failing = True
        self.error = reason
        self._open = False
        self._next_try = time.monotonic() + self.retry_s

    def _wait(self, stop_wait: Callable[[float], bool]) -> None:
        delay = self._next_frame - time.monotonic()
        if delay > 0:
            stop_wait(delay)
        self._next_frame = max(self._next_frame + self.period, time.monotonic())

    def read(self, stop_wait: Callable[[float], bool] = time.sleep) -> Frame | None:
        """The next frame (paced), or None; `stop_wait(seconds)` sleeps and may end early on stop."""
        if not self._ensure_open():
            stop_wait(min(self.period, max(0.0, self._next_try - time.monotonic())))
            return None
        self._wait(stop_wait)
        try:
            frame = self.source.read()
        except CameraError as exc:
            self.source.close()
            self._fail(str(exc))
            return None
        return frame

    def close(self) -> None:
        self.source.close()
        self._open = False
