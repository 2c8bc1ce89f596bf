"""Who a tracked face is: identity embedding vs the gallery of registered faces, names from the profiles.

Recognition is the original robot's: best cosine over every stored face, a user id only
above the identity backend's threshold, confidence (best_cos + 1) / 2 * 100.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from common.store import ProfileStore
from common.store.faces import FaceStore, Gallery
from perception.backends.base import FaceBox, FaceDetector, FaceIdentifier
from perception.camera import decode_image
from perception.tracking import Identity, preferred

log = logging.getLogger("nadine.perception.identity")


class Recognizer:
    def __init__(
        self, detector: FaceDetector, identifier: FaceIdentifier, faces: FaceStore, profiles: ProfileStore,
        threshold: float,
    ) -> None:
        self.detector = detector
        self.identifier = identifier
        self.faces = faces
        self.profiles = profiles
        self.threshold = threshold
        self.gallery = Gallery.empty(identifier.name)
        self._learned_names: dict[str, str] = {}

    def embed_image_file(self, path: Path) -> np.ndarray | None:
        """Embedding of the most prominent face in a stored image (for gallery embeddings not on disk)."""
        rgb = decode_image(path)
        if rgb is None:
            log.warning("stored face image %s is unreadable; skipped", path)
            return None
        h, w = rgb.shape[:2]
        try:
            boxes = self.detector.detect(rgb)
            # a tight crop may leave too little context for the detector: the whole crop is the face then
            return self.identifier.embed(rgb, preferred(boxes) if boxes else FaceBox(0, 0, w, h))
        except ValueError as exc:
            log.warning("stored face image %s gives no embedding (%s); skipped", path, exc)
            return None

    def reload(self) -> None:
        self.gallery = self.faces.load_gallery(self.identifier.name, self.embed_image_file)
        log.info("face gallery: %d stored face(s) of %d user(s) (%s)", len(self.gallery),
                 len(set(self.gallery.user_ids)), self.identifier.name)

    def identify(self, rgb: np.ndarray, box: FaceBox) -> Identity:
        embedding = self.identifier.embed(rgb, box)
        user_id, best = self.gallery.best_match(embedding)
        if best <= self.threshold:
            return Identity(None, best, embedding)
        return Identity(user_id, best, embedding, self.name_of(user_id))

    def is_someone_else(self, user_id: str, embedding: np.ndarray) -> bool:
        """The face does not match `user_id`'s stored faces (same calibrated threshold as identify);
        False when they have no stored face to compare with."""
        best = self.gallery.best_of(user_id, embedding)
        return best is not None and best <= self.threshold

    def learn_name(self, user_id: str, user_name: str) -> None:
        self._learned_names[user_id] = user_name

    def forget_name(self, user_id: str) -> None:
        self._learned_names.pop(user_id, None)

    def name_of(self, user_id: str) -> str | None:
        """user_ids.json, then user_info.json, then the name user_info last told us."""
        name = self.profiles.user_ids().get(user_id)
        if not name:
            profile = self.profiles.load(user_id)
            name = profile.user_name if profile is not None and profile.known else None
        return name or self._learned_names.get(user_id)
