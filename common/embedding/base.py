"""The text embedder interface: texts in, L2-normalised float32 rows out."""

from __future__ import annotations

from typing import Protocol

import numpy as np


class EmbeddingFailed(RuntimeError):
    """A loaded embedder could not embed (network error, server refusal). The caller logs it and
    falls back (scene retrieval uses the offline embedder; RAG answers without knowledge)."""


class TextEmbedder(Protocol):
    name: str  # identifies the vector space: vectors of two names are never compared
    dim: int

    def embed(self, texts: list[str]) -> np.ndarray:
        """(len(texts), dim) float32, each row L2-normalised; raises EmbeddingFailed."""
        ...


def l2_normalise(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)
