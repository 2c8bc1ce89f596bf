"""Interfaces of perception's model backends. Images are RGB uint8 numpy arrays (H, W, 3).

Each capability has an offline default whose weights ship in a registry package and a lab backend
with real loading code; a backend that cannot load raises BackendUnavailable (reason + fix).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from common.vision.base import BackendUnavailable

__all__ = ["BackendUnavailable", "EmotionRecognizer", "FaceBox", "FaceDetector", "FaceIdentifier"]


@dataclass(frozen=True)
class FaceBox:
    x1: int
    y1: int
    x2: int
    y2: int
    score: float = 1.0
    depth_m: float | None = None  # RealSense depth at the box centre, when a depth camera is used

    @property
    def area(self) -> int:
        return max(0, self.x2 - self.x1) * max(0, self.y2 - self.y1)

    def iou(self, other: FaceBox) -> float:
        ix1, iy1 = max(self.x1, other.x1), max(self.y1, other.y1)
        ix2, iy2 = min(self.x2, other.x2), min(self.y2, other.y2)
        inter = max(0, ix2 - ix1) * max(0, iy2 - iy1)
        union = self.area + other.area - inter
        return inter / union if union else 0.0


class FaceDetector(Protocol):
    name: str

    def detect(self, rgb: np.ndarray) -> list[FaceBox]: ...


class FaceIdentifier(Protocol):
    """Identity embeddings compared by cosine similarity (vectors are L2-normalised)."""

    name: str
    dim: int

    def embed(self, rgb: np.ndarray, box: FaceBox) -> np.ndarray: ...


class EmotionRecognizer(Protocol):
    name: str

    def probabilities(self, rgb: np.ndarray, box: FaceBox) -> dict[str, float]:
        """Probabilities over common.emotions.FACIAL_LABELS (all eight keys present, summing to 1)."""
        ...
