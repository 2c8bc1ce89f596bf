"""The robot's joints: name, rest value and range. Angles in degrees, eyelids/mouth/lips as 0..1 openings.

The order is the serial channel order; the reference's robot has 28 channels, of which the animations
we ship use these. A driver clamps every value to its joint's range before it leaves the process.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Joint:
    name: str
    rest: float
    low: float
    high: float

    def clamp(self, value: float) -> float:
        return min(self.high, max(self.low, value))


JOINTS: tuple[Joint, ...] = (
    Joint("head_yaw", 0.0, -60.0, 60.0),
    Joint("head_pitch", 0.0, -30.0, 30.0),
    Joint("head_roll", 0.0, -20.0, 20.0),
    Joint("eye_yaw", 0.0, -30.0, 30.0),
    Joint("eye_pitch", 0.0, -20.0, 20.0),
    Joint("eyelids", 1.0, 0.0, 1.0),
    Joint("mouth", 0.0, 0.0, 1.0),
    Joint("lip_width", 0.0, 0.0, 1.0),
    Joint("torso_yaw", 0.0, -30.0, 30.0),
    Joint("r_shoulder", 0.0, -90.0, 180.0),
    Joint("r_elbow", 0.0, 0.0, 140.0),
    Joint("r_wrist", 0.0, -90.0, 90.0),
    Joint("l_shoulder", 0.0, -90.0, 180.0),
    Joint("l_elbow", 0.0, 0.0, 140.0),
    Joint("l_wrist", 0.0, -90.0, 90.0),
)
BY_NAME: dict[str, Joint] = {j.name: j for j in JOINTS}
HEAD_AND_EYES = frozenset({"head_yaw", "head_pitch", "head_roll", "eye_yaw", "eye_pitch"})
MOUTH = frozenset({"mouth", "lip_width"})


def rest_pose() -> dict[str, float]:
    return {j.name: j.rest for j in JOINTS}
