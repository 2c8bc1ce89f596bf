"""capture_current_view (the vision agent looks): write the next frame to the given path, reply view_captured.

Only image files (.jpg/.jpeg/.png) directly in <data>/nadine_view/ are written — the one place interaction
asks for — so a capture request can never replace stored memory (user_ids.json, a profile, a scene).
Relative paths are taken from nadine_view/. Without a frame for frame_timeout_s the request is
answered with ok=false.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from common import topics as t
from common.bus import Bus
from common.messages import ViewCaptured
from common.store import DataLayout, PathOutsideDataRoot
from common.store.atomic import atomic_write_bytes
from perception.selective_memory.recorder import encode_jpeg

log = logging.getLogger("nadine.perception.capture")


IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


class CaptureRefused(ValueError):
    pass


def capture_target(layout: DataLayout, path: str) -> Path:
    """The file a capture may write, or CaptureRefused / PathOutsideDataRoot naming why not."""
    requested = Path(path)
    if not requested.is_absolute():
        requested = layout.captures_dir / requested
    target = layout.inside(requested)
    captures = layout.captures_dir.resolve()
    # top level only: samples/ (vision test images) stays untouched and a forget clears every capture
    if target.parent != captures:
        raise CaptureRefused(f"{path} is not directly in {captures}")
    if target.suffix.lower() not in IMAGE_SUFFIXES:
        raise CaptureRefused(f"{path} is not an image file name ({', '.join(IMAGE_SUFFIXES)})")
    return target


@dataclass
class _Request:
    path: str
    arrived: float


def encode_for(path_suffix: str, rgb: np.ndarray) -> bytes:  # suffix checked by capture_target
    if path_suffix.lower() == ".png":
        ok, buf = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
        if not ok:
            raise ValueError("PNG encoding failed")
        return buf.tobytes()
    return encode_jpeg(rgb)


class ViewCapture:
    def __init__(self, layout: DataLayout, bus: Bus, timeout_s: float) -> None:
        self.layout = layout
        self.bus = bus
        self.timeout_s = timeout_s
        self._pending: list[_Request] = []

    def request(self, path: str, now: float) -> None:
        try:
            capture_target(self.layout, path)
        except (PathOutsideDataRoot, OSError, ValueError) as exc:
            log.warning("capture_current_view refused: %s", exc)
            self._reply(path, False, f"refused: {exc}")
            return
        self._pending.append(_Request(path, now))

    def on_frame(self, rgb: np.ndarray | None, now: float) -> None:
        keep = []
        for req in self._pending:
            if rgb is not None:
                self._write(req.path, rgb)
            elif now - req.arrived >= self.timeout_s:
                log.warning("capture_current_view %s: no camera frame within %.1f s", req.path, self.timeout_s)
                self._reply(req.path, False, f"no camera frame within {self.timeout_s:g} s")
            else:
                keep.append(req)
        self._pending = keep

    def _write(self, path: str, rgb: np.ndarray) -> None:
        try:
            target = capture_target(self.layout, path)  # again: a symlink may have appeared meanwhile
            atomic_write_bytes(target, encode_for(target.suffix, rgb))
        except (PathOutsideDataRoot, OSError, ValueError) as exc:
            log.warning("capture_current_view %s failed: %s", path, exc)
            self._reply(path, False, str(exc))
            return
        log.info("captured the current view to %s", target)
        self._reply(path, True)

    def _reply(self, path: str, ok: bool, error: str | None = None) -> None:
        self.bus.publish(t.VIEW_CAPTURED, ViewCaptured(path=path, ok=ok, error=error))
