"""What the frame loop knows about the active user in one frame (input of registration and memory)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class View:
    """What the frame loop knows about the active user in this frame."""

    rgb: np.ndarray | None
    user_id: str | None = None  # a recognised user; None for an unknown face or nobody
    user_name: str | None = None
    face_visible: bool = False
    emotion_probs: dict[str, float] | None = None
    faces: int = 0
    camera_on: bool = True  # False: no camera delivers, so nobody can come into view


    @property
    def face_emotion(self) -> str | None:
        """The dominant facial emotion, for the caption (what the image shows, not what was said)."""
        return max(self.emotion_probs, key=self.emotion_probs.get) if self.emotion_probs else None

    @property
    def known_in_view(self) -> bool:
        return self.rgb is not None and self.face_visible and self.user_id is not None
