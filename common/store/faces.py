"""Registered faces: <user_dir>/faces/face_<YYYYMMDD_HHMMSS>_<hex>.jpg plus one identity embedding per
identity backend, faces/<image stem>.<backend>.npy.

Embeddings are tagged by backend because a lab switching dlib -> InsightFace must not compare vectors
of different models; a gallery load computes the missing ones from the stored crops (the images are
the source of truth, as in the reference's load_known_faces), and writes them back for next time.
"""

from __future__ import annotations

import io
import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

from common.store.atomic import atomic_write_bytes
from common.store.layout import DataLayout

log = logging.getLogger("nadine.store.faces")

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
_BACKEND_RE = re.compile(r"[^A-Za-z0-9_-]+")

# Computes an identity embedding from a stored face image path; None when no face is found in it.
EmbedImage = Callable[[Path], "np.ndarray | None"]


def _backend_tag(backend: str) -> str:
    tag = _BACKEND_RE.sub("-", backend).strip("-")
    if not tag:
        raise ValueError(f"backend name {backend!r} has no usable characters")
    return tag


def _npy_bytes(vec: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.asarray(vec, dtype=np.float32).ravel())
    return buf.getvalue()


@dataclass(frozen=True)
class Gallery:
    """Known identity embeddings, one row per stored face (L2-normalised), for one backend."""

    backend: str
    user_ids: tuple[str, ...]
    matrix: np.ndarray  # (n_faces, dim)

    @classmethod
    def empty(cls, backend: str) -> Gallery:
        return cls(backend, (), np.zeros((0, 0), dtype=np.float32))

    def __len__(self) -> int:
        return len(self.user_ids)

    def _similarities(self, embedding: np.ndarray) -> np.ndarray | None:
        vec = np.asarray(embedding, dtype=np.float32).ravel()
        norm = float(np.linalg.norm(vec))
        if not self.user_ids or norm == 0 or vec.shape[0] != self.matrix.shape[1]:
            return None
        return self.matrix @ (vec / norm)

    def best_match(self, embedding: np.ndarray) -> tuple[str | None, float]:
        """(user_id, cosine) of the most similar stored face; (None, -1.0) for an empty gallery."""
        sims = self._similarities(embedding)
        if sims is None:
            return None, -1.0
        i = int(np.argmax(sims))
        return self.user_ids[i], float(sims[i])

    def best_of(self, user_id: str, embedding: np.ndarray) -> float | None:
        """Cosine of the most similar stored face of `user_id`; None when they have none here."""
        sims = self._similarities(embedding)
        rows = [i for i, uid in enumerate(self.user_ids) if uid == user_id]
        return None if sims is None or not rows else float(sims[rows].max())


class FaceStore:
    def __init__(self, layout: DataLayout) -> None:
        self.layout = layout

    def images(self, user_id: str) -> list[Path]:
        folder = self.layout.faces_dir(user_id)
        try:
            return sorted(
                p for p in folder.iterdir()
                if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES and not p.name.startswith(".")
            )
        except FileNotFoundError:  # no faces yet, or a forget renamed the folder away just now
            return []

    def count(self, user_id: str) -> int:
        return len(self.images(user_id))

    def last_stored(self, user_id: str) -> float | None:
        """mtime of the newest stored face (the cooldown survives a restart)."""
        times = [p.stat().st_mtime for p in self.images(user_id)]
        return max(times) if times else None

    def embedding_path(self, image: Path, backend: str) -> Path:
        return image.with_name(f"{image.stem}.{_backend_tag(backend)}.npy")

    def add(self, user_id: str, jpeg: bytes, embedding: np.ndarray, backend: str, now: datetime) -> Path:
        """Store one face crop and its embedding; the embedding is written first so a reader that
        sees the image never has to recompute it."""
        folder = self.layout.faces_dir(user_id)
        image = folder / f"face_{now.strftime('%Y%m%d_%H%M%S')}_{secrets.token_hex(3)}.jpg"
        atomic_write_bytes(self.embedding_path(image, backend), _npy_bytes(embedding))
        atomic_write_bytes(image, jpeg)
        return image

    def _load_or_compute(self, image: Path, backend: str, compute: EmbedImage) -> np.ndarray | None:
        path = self.embedding_path(image, backend)
        try:
            return np.load(path, allow_pickle=False).astype(np.float32).ravel()
        except FileNotFoundError:
            pass
        except (ValueError, OSError) as exc:
            log.warning("face embedding %s unreadable (%s); recomputing from the image", path, exc)
        vec = compute(image)
        if vec is None:
            log.warning("no face found in stored face image %s; left out of the gallery", image)
            return None
        atomic_write_bytes(path, _npy_bytes(vec))
        log.info("computed missing %s embedding for %s", backend, image)
        return np.asarray(vec, dtype=np.float32).ravel()

    def load_gallery(self, backend: str, compute: EmbedImage) -> Gallery:
        """Every valid user's stored faces (embeddings of `backend`; missing ones computed)."""
        ids: list[str] = []
        rows: list[np.ndarray] = []
        for user_id in self.layout.user_ids():
            for image in self.images(user_id):
                vec = self._load_or_compute(image, backend, compute)
                if vec is None or not np.all(np.isfinite(vec)) or not np.linalg.norm(vec):
                    continue
                if rows and vec.shape != rows[0].shape:
                    log.warning("face embedding of %s has dimension %d, expected %d; skipped",
                                image, vec.shape[0], rows[0].shape[0])
                    continue
                ids.append(user_id)
                rows.append(vec / np.linalg.norm(vec))
        if not rows:
            return Gallery.empty(backend)
        return Gallery(backend, tuple(ids), np.stack(rows).astype(np.float32))
