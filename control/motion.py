"""The motion loop: per-joint trajectories advanced every frame and sent to the robot driver.

Each joint has at most one active track (keyframes relative to the track's start). Starting a new
track on a joint replaces the old one and begins from wherever the joint is, so postures and gaze
moves blend instead of jumping. While Nadine speaks, the mouth opens and closes (espeak-ng gives no
visemes; a steady jaw rhythm stands in for the reference's lip sync).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from control.animations import Animation
from control.driver import RobotDriver
from control.joints import BY_NAME, MOUTH, rest_pose

log = logging.getLogger("nadine.control.motion")

JAW_HZ = 4.0


@dataclass
class _Track:
    start: float
    keys: tuple[tuple[float, float], ...]
    source: str  # animation name or "look_at"

    def value(self, now: float) -> tuple[float, bool]:
        """(value, finished) at monotonic time `now`."""
        t = now - self.start
        keys = self.keys
        if t >= keys[-1][0]:
            return keys[-1][1], True
        for (t0, v0), (t1, v1) in zip(keys, keys[1:], strict=False):
            if t0 <= t < t1:
                return v0 + (v1 - v0) * (t - t0) / (t1 - t0), False
        return keys[0][1], False


class Motion:
    def __init__(self, driver: RobotDriver, frame_period_s: float) -> None:
        self.driver = driver
        self.frame_period_s = frame_period_s
        self.pose = rest_pose()
        self.speaking = False
        self._tracks: dict[str, _Track] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="control-motion", daemon=True)
        self.last_activity = time.monotonic()
        self._on_frame: Callable[[float], None] | None = None

    # --- commands (any thread) -----------------------------------------------------------------

    def play(self, anim: Animation, skip: Iterable[str] = ()) -> None:
        skipped = set(skip)
        now = time.monotonic()
        with self._lock:
            for joint, keys in anim.tracks.items():
                if joint in skipped:
                    continue
                self._tracks[joint] = _Track(now, self._from_current(joint, keys), anim.name)
            self.last_activity = now

    def move_to(self, targets: dict[str, float], duration_s: float, source: str) -> None:
        now = time.monotonic()
        with self._lock:
            for joint, value in targets.items():
                keys = ((duration_s, BY_NAME[joint].clamp(value)),)
                self._tracks[joint] = _Track(now, self._from_current(joint, keys), source)
            self.last_activity = now

    def clear(self) -> None:
        with self._lock:
            self._tracks.clear()

    def busy(self, sources: Iterable[str] | None = None) -> bool:
        """True while any track (or any track from one of `sources`) is still moving."""
        wanted = None if sources is None else set(sources)
        with self._lock:
            return any(wanted is None or tr.source in wanted for tr in self._tracks.values())

    def _from_current(self, joint: str, keys: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
        if keys[0][0] > 0:
            return ((0.0, self.pose[joint]), *keys)
        return keys

    # --- the loop ------------------------------------------------------------------------------

    def start(self, on_frame: Callable[[float], None] | None = None) -> None:
        """Run the loop; `on_frame(now)` is called after each frame (idle behaviour such as blinking)."""
        self._on_frame = on_frame
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2.0)

    def step(self, now: float) -> dict[str, float]:
        with self._lock:
            for joint, track in list(self._tracks.items()):
                value, finished = track.value(now)
                self.pose[joint] = BY_NAME[joint].clamp(value)
                if finished:
                    del self._tracks[joint]
            if self.speaking and not any(j in self._tracks for j in MOUTH):
                self.pose["mouth"] = 0.5 * (1.0 - math.cos(2 * math.pi * JAW_HZ * now))
            elif not self.speaking and "mouth" not in self._tracks:
                self.pose["mouth"] = 0.0
            if self._tracks or self.speaking:
                self.last_activity = now
            return dict(self.pose)

    def _loop(self) -> None:
        while not self._stop.wait(self.frame_period_s):
            now = time.monotonic()
            try:
                self.driver.send(self.step(now))
                if self._on_frame is not None:
                    self._on_frame(now)
            except Exception:  # a driver hiccup must not end the motion loop
                log.exception("motion frame failed")
