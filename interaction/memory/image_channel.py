"""The image channel of scene retrieval: combined = alpha * sim_image + (1 - alpha) * sim_desc, where
sim_image compares the scene encoder's text embedding of the question with the stored image
embedding. Only CLIP-like encoders embed text; with the offline MobileNetV2 (or no
vision registry) alpha is ignored, said once in the log."""

from __future__ import annotations

import logging
import threading

import numpy as np

from common.config import NadineSettings
from common.store.scenes import SceneMetadata, SceneStore
from common.vision.base import BackendUnavailable, SceneEncoder

log = logging.getLogger("nadine.memory.image_channel")


def load_text_scene_encoder(settings: NadineSettings) -> SceneEncoder | None:
    try:
        from common.vision.registry import build_scene_encoder
    except ImportError as exc:
        log.warning("retrieval_alpha ignored: no scene encoder registry (%s)", exc)
        return None
    try:
        encoder = build_scene_encoder(settings)
    except BackendUnavailable as exc:
        log.warning("retrieval_alpha ignored: %s", exc)
        return None
    if encoder is None or not encoder.can_embed_text:
        name = encoder.name if encoder is not None else "none"
        log.warning("retrieval_alpha ignored: scene encoder %s cannot embed text", name)
        return None
    return encoder


class ImageChannel:
    def __init__(self, settings: NadineSettings) -> None:
        self._settings = settings
        self.alpha = settings.interaction.visual_memory.retrieval_alpha
        self._encoder: SceneEncoder | None = None
        self._loaded = False
        self._vectors: dict[tuple[str, str], np.ndarray | None] = {}
        self._lock = threading.Lock()

    def _text_encoder(self) -> SceneEncoder | None:
        with self._lock:
            if not self._loaded:
                self._loaded = True
                self._encoder = load_text_scene_encoder(self._settings)
            return self._encoder

    def combine(
        self, store: SceneStore, user_id: str, query: str, scenes: list[SceneMetadata], sims: np.ndarray
    ) -> np.ndarray:
        """Description similarities combined with image similarities where a scene has an image
        embedding of the encoder's size (observation scenes have none: description only)."""
        if self.alpha <= 0 or (encoder := self._text_encoder()) is None:
            return sims
        q = np.asarray(encoder.embed_text(query), dtype=np.float32).ravel()
        image = np.full(len(scenes), np.nan, dtype=np.float32)
        for i, meta in enumerate(scenes):
            key = (user_id, meta.scene_id)
            if key not in self._vectors:
                self._vectors[key] = store.load_embedding(user_id, meta.scene_id)
            vec = self._vectors[key]
            if vec is not None and vec.shape == q.shape:
                image[i] = float(vec @ q)
        return np.where(np.isnan(image), sims, self.alpha * image + (1 - self.alpha) * sims).astype(np.float32)

    def forget(self, user_id: str) -> None:
        for key in [k for k in self._vectors if k[0] == user_id]:
            del self._vectors[key]
