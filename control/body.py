"""What the body does with gesture, posture and gaze commands.

Kept from the original robot: animations are found by <animation_name>; gestures start from the rest
posture (or the latched gaze posture); `LOOKUP_Waving` clears pending moves; a look_at_target posture
latches and suppresses look_at until `LOOKUPPostureDefault` clears it; nod/shake suppress look_at
until the head is idle; gestures leave head and eyes to a look_at that happened within the last 2 s.
Fixed: a head gesture is never silently dropped because the face tracker is streaming look_at, and a
look_at_target posture always plays in full.
"""

from __future__ import annotations

import logging
import math
import threading
import time

from common.config.control_settings import MotionSettings
from control.animations import BLINK, DEFAULT_POSTURE, Animation, AnimationLibrary
from control.joints import BY_NAME, HEAD_AND_EYES
from control.motion import Motion

log = logging.getLogger("nadine.control.body")

CLEARS_PENDING = frozenset({"LOOKUP_Waving", "SHUTDOWN_NADINE"})
EYE_SHARE = 0.3  # part of a gaze shift made by the eyes; the head turns the rest


class Body:
    def __init__(self, motion: Motion, library: AnimationLibrary, settings: MotionSettings) -> None:
        self.motion = motion
        self.library = library
        self.settings = settings
        self.latched: str | None = None
        self._last_look_at = -math.inf
        self._lock = threading.Lock()
        self._head_gestures = set(library.names("head"))

    def _look_at_recent(self) -> bool:
        return time.monotonic() - self._last_look_at < self.settings.look_at_priority_s

    def _base_posture(self, leave: set[str]) -> None:
        """Return the joints in `leave`'s complement to the latched posture, or to the rest posture."""
        base = self.library.get(self.latched or DEFAULT_POSTURE)
        if base is not None:
            self.motion.play(base, skip=leave)

    # --- animation -----------------------------------------------------------------------------

    def play_animation(self, name: str) -> bool:
        anim = self.library.get(name)
        if anim is None:
            log.warning("unknown animation %r ignored (library: %s)", name, ", ".join(self.library.names()))
            return False
        with self._lock:
            self._play(anim)
        log.info("animation %s (%s, %.1f s)", name, anim.kind, anim.duration_s)
        return True

    def _play(self, anim: Animation) -> None:
        if anim.name in CLEARS_PENDING:
            self.motion.clear()
        skip: set[str] = set()
        if anim.kind != "head" and self._look_at_recent():
            skip |= HEAD_AND_EYES
        if anim.kind not in ("blink", "posture"):
            self._base_posture(leave=skip | set(anim.tracks))
        self.motion.play(anim, skip=skip)

    def prepare_for_speech(self) -> None:
        """Speaking starts from the rest posture unless a gaze posture is latched (she keeps looking
        where she was told)."""
        with self._lock:
            if self.latched is None:
                self._base_posture(leave=set(HEAD_AND_EYES) if self._look_at_recent() else set())

    def idle_tick(self, now: float) -> None:
        """A full blink after a stretch with every joint idle; it also settles the rest posture."""
        if now - self.motion.last_activity < self.settings.idle_blink_s:
            return
        blink = self.library.get(BLINK)
        if blink is None:
            return
        with self._lock:
            if self.latched is None:
                self._base_posture(leave=set(HEAD_AND_EYES) if self._look_at_recent() else set())
            self.motion.play(blink)

    # --- gaze ----------------------------------------------------------------------------------

    def look_at(self, x: float, y: float, z: float) -> bool:
        """Turn head and eyes toward a point in camera coordinates (x right, y down, z forward, metres)."""
        if self.latched is not None or z <= 0:
            return False
        if self.motion.busy(self._head_gestures):
            return False
        yaw = math.degrees(math.atan2(x, z))
        pitch = math.degrees(math.atan2(y, math.hypot(x, z)))  # head_pitch > 0 looks down
        eye_yaw = BY_NAME["eye_yaw"].clamp(yaw * EYE_SHARE)
        eye_pitch = BY_NAME["eye_pitch"].clamp(pitch * EYE_SHARE)
        targets = {"head_yaw": yaw - eye_yaw, "head_pitch": pitch - eye_pitch, "eye_yaw": eye_yaw, "eye_pitch": eye_pitch}
        with self._lock:
            self.motion.move_to(targets, self.settings.gaze_move_s, source="look_at")
            self._last_look_at = time.monotonic()
        return True

    def look_at_target(self, name: str) -> bool:
        anim = self.library.get(name)
        if anim is None:
            log.warning("unknown gaze posture %r ignored (library: %s)", name, ", ".join(self.library.names()))
            return False
        with self._lock:
            self.latched = None if name == DEFAULT_POSTURE else name
            self.motion.play(anim)
        log.info("gaze posture %s (%s)", name, "latched" if self.latched else "latch cleared")
        return True
