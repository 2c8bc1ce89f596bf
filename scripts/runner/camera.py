"""Feeds a session's images to perception's `watch:<folder>` camera.

Perception shows the newest image in the folder; to loop several images the feeder writes the next
one under a new name every `period_s`. Each image is written under a temporary name and renamed, so
perception never reads half a file. An empty list empties the folder: nobody is in view.
"""

from __future__ import annotations

import logging
import os
import shutil
import threading
from pathlib import Path

log = logging.getLogger("nadine.runner.camera")

KEEP_FILES = 2


class CameraFeeder:
    def __init__(self, folder: Path, period_s: float = 1.0) -> None:
        self.folder = folder
        self.period_s = period_s
        self.folder.mkdir(parents=True, exist_ok=True)
        self._count = 0
        self._images: list[Path] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def showing(self) -> bool:
        return bool(self._images)

    def show(self, images: list[Path]) -> None:
        self._halt()
        self._clear()
        self._images = list(images)
        if not images:
            return
        self._put(images[0])
        if len(images) > 1:
            self._stop.clear()
            self._thread = threading.Thread(target=self._cycle, name="camera-feeder", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self.show([])

    def _halt(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join(timeout=5.0)
            self._thread = None

    def _cycle(self) -> None:
        index = 0
        while not self._stop.wait(self.period_s):
            index = (index + 1) % len(self._images)
            self._put(self._images[index])

    def _put(self, image: Path) -> None:
        self._count += 1
        final = self.folder / f"frame_{self._count:06d}{image.suffix.lower()}"
        partial = self.folder / f".{final.name}.partial"
        shutil.copyfile(image, partial)
        os.replace(partial, final)
        frames = sorted(p for p in self.folder.iterdir() if p.name.startswith("frame_"))
        for old in frames[:-KEEP_FILES]:
            old.unlink(missing_ok=True)

    def _clear(self) -> None:
        for path in self.folder.iterdir():
            if path.is_file():
                path.unlink(missing_ok=True)
