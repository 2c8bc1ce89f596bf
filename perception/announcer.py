"""When to publish user_detected: on every change of who is seen (QoS 1), as a
heartbeat every announce_period_s (QoS 0), and once all-null when the track ended after someone
had been announced."""

from __future__ import annotations

from dataclasses import dataclass

from common import topics as t
from common.messages import UserDetected

UNKNOWN = "Unknown"
NOBODY = UserDetected(user_name=None, confidence=0.0, user_id=None)


@dataclass(frozen=True)
class Announcement:
    message: UserDetected
    qos: int


class Announcer:
    def __init__(self, period_s: float) -> None:
        self.period_s = period_s
        self._who: tuple[str | None, str | None] | None = None  # (user_id, user_name) last announced
        self._last = 0.0

    @property
    def announced(self) -> bool:
        return self._who is not None

    def seen(self, user_id: str | None, user_name: str | None, confidence: float, now: float) -> Announcement | None:
        """A face is tracked and identified (user_id None = unknown face)."""
        name = user_name if user_id is not None and user_name else UNKNOWN
        who = (user_id, name)
        changed = who != self._who
        if not changed and now - self._last < self.period_s:
            return None
        self._who, self._last = who, now
        # an unknown face matched nobody: the best cosine belongs to someone it is not, so no confidence
        msg = UserDetected(user_name=name, confidence=round(confidence, 2) if user_id is not None else 0.0,
                           user_id=user_id)
        return Announcement(msg, t.QOS_STATE if changed else t.QOS_STREAM)

    def gone(self) -> Announcement | None:
        """The track ended (no face for no_face_timeout_s)."""
        if self._who is None:
            return None
        self._who = None
        return Announcement(NOBODY, t.QOS_STATE)
