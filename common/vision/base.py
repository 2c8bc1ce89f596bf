"""Interfaces of the scene encoder and captioner backends. Images are RGB uint8 numpy arrays (H, W, 3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np


class BackendUnavailable(RuntimeError):
    """A model backend could not load. The message says why and how to fix it (e.g. which extra to
    install or which weights are missing); the process logs it once and degrades as the reference says."""

    def __init__(self, backend: str, reason: str, fix: str) -> None:
        super().__init__(f"{backend} unavailable: {reason}. Fix: {fix}")
        self.backend = backend
        self.reason = reason
        self.fix = fix


class SceneEncoder(Protocol):
    name: str
    dim: int
    can_embed_text: bool  # True for CLIP-like encoders (text->image retrieval channel)

    def embed_image(self, rgb: np.ndarray) -> np.ndarray:
        """L2-normalised image embedding."""
        ...

    def embed_text(self, text: str) -> np.ndarray:
        """L2-normalised text embedding in the image space; raises NotImplementedError if unsupported."""
        ...


@dataclass
class CaptionFacts:
    """What perception knows about the frame besides pixels (used by the offline tag captioner)."""

    faces: int = 0
    user_name: str | None = None
    emotion: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Caption:
    text: str
    source: str  # backend name, recorded in scene metadata as caption_source


class Captioner(Protocol):
    name: str

    def caption(self, rgb: np.ndarray, facts: CaptionFacts | None = None) -> Caption: ...


class SceneLabeller(Protocol):
    """An encoder with a classifier head (MobileNetV2's ImageNet classes); feeds the tag captioner."""

    def top_labels(self, rgb: np.ndarray, k: int = 5) -> list[tuple[str, float]]:
        """The k most likely labels with their probabilities, best first."""
        ...
