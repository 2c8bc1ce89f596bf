"""Which detected face is the active user, with a 2.5 s switch hysteresis (a passer-by does not take over).

The active user is the closest face by depth (RealSense), else the largest. A different face only
takes over after it has been the better candidate for `hold_s`, or the tracked face has been gone
for `hold_s`; a still-image cut (a new photo in a watched folder) starts over at once. With no face
for `no_face_timeout_s` the track ends.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from perception.backends.base import FaceBox

SAME_FACE_IOU = 0.3


@dataclass
class Identity:
    user_id: str | None
    best_cos: float
    embedding: np.ndarray | None = None
    user_name: str | None = None

    @property
    def confidence(self) -> float:
        """The reference's percentage, (best_cos + 1) / 2 * 100, clamped to [0, 100]."""
        return float(min(100.0, max(0.0, (self.best_cos + 1.0) / 2.0 * 100.0)))


@dataclass
class Track:
    track_id: int
    box: FaceBox
    last_seen: float
    visible: bool = True
    identity: Identity | None = None
    frames_since_identify: int = 0


def preferred(faces: list[FaceBox]) -> FaceBox:
    """Closest face with a positive depth, else the largest."""
    with_depth = [f for f in faces if f.depth_m is not None and f.depth_m > 0]
    if with_depth:
        return min(with_depth, key=lambda f: f.depth_m)
    return max(faces, key=lambda f: f.area)


class ActiveUserTracker:
    def __init__(self, hold_s: float, no_face_timeout_s: float) -> None:
        self.hold_s = hold_s
        self.no_face_timeout_s = no_face_timeout_s
        self.track: Track | None = None
        self._ids = itertools.count(1)
        self._challenger_since: float | None = None

    def _new(self, box: FaceBox, now: float) -> Track:
        self._challenger_since = None
        self.track = Track(next(self._ids), box, now)
        return self.track

    def update(self, faces: list[FaceBox], now: float, cut: bool = False) -> Track | None:
        """Feed one frame's detections; returns the active track (possibly held with visible=False)."""
        track = self.track
        if not faces:
            if track is not None:
                track.visible = False
                if now - track.last_seen >= self.no_face_timeout_s:
                    self.track = None
            return self.track
        best = preferred(faces)
        if track is None or cut:
            return self._new(best, now)
        match = max(faces, key=lambda f: f.iou(track.box))
        if match.iou(track.box) < SAME_FACE_IOU:
            if now - track.last_seen >= self.hold_s:
                return self._new(best, now)
            track.visible = False
            return track
        track.box, track.last_seen, track.visible = match, now, True
        if best is match or best.iou(match) >= SAME_FACE_IOU:
            self._challenger_since = None
            return track
        if self._challenger_since is None:
            self._challenger_since = now
        elif now - self._challenger_since >= self.hold_s:
            return self._new(best, now)
        return track
