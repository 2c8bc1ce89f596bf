"""Lab facial emotion: DeepFace's FER2013 CNN (the original study's FER sampler model), CPU or GPU TensorFlow.

DeepFace downloads its weights on first use; Nadine never does, so the file is checked first.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import cv2
import numpy as np

from common.vision.image import as_rgb, crop_box
from perception.backends.base import BackendUnavailable, FaceBox
from perception.backends.emotion_map import FER2013_ORDER, to_emotion_labels

NAME = "deepface"
WEIGHTS_FILE = "facial_expression_model_weights.h5"
PACKAGE_FIX = ".venv/bin/pip install -e '.[lab]' (deepface + tensorflow on the lab machine)"
# DeepFace's own key for each FER2013 class, in FER2013_ORDER
DEEPFACE_KEYS = dict(
    zip(FER2013_ORDER, ("angry", "disgust", "fear", "happy", "sad", "surprise", "neutral"), strict=True)
)


def weights_path() -> Path:
    home = Path(os.environ.get("DEEPFACE_HOME", str(Path.home())))
    return home / ".deepface" / "weights" / WEIGHTS_FILE


class DeepFaceEmotion:
    name = NAME

    def __init__(self) -> None:
        try:
            from deepface import DeepFace
        except ImportError as e:
            raise BackendUnavailable(
                NAME, f"the {e.name or 'deepface'} package is not installed", PACKAGE_FIX
            ) from e
        except Exception as e:  # a TensorFlow/Keras mismatch surfaces as assorted errors at import
            raise BackendUnavailable(NAME, f"deepface does not import ({e})", PACKAGE_FIX) from e
        path = weights_path()
        if not path.is_file():
            raise BackendUnavailable(
                NAME,
                f"weights {path} are missing",
                f"copy {WEIGHTS_FILE} into {path.parent} (or set DEEPFACE_HOME) from a machine that has it",
            )
        self._deepface = DeepFace
        self._lock = threading.Lock()

    def probabilities(self, rgb: np.ndarray, box: FaceBox) -> dict[str, float]:
        if box.area <= 0:
            raise ValueError(f"empty face box {box}")
        face = cv2.cvtColor(
            crop_box(as_rgb(rgb), box.x1, box.y1, box.x2, box.y2, margin=0.1), cv2.COLOR_RGB2BGR
        )
        with self._lock:
            result = self._deepface.analyze(
                img_path=face,
                actions=("emotion",),
                enforce_detection=False,
                detector_backend="skip",
                silent=True,
            )
        scores = (result[0] if isinstance(result, list) else result)["emotion"]
        return to_emotion_labels(
            [float(scores[DEEPFACE_KEYS[k]]) for k in FER2013_ORDER]
        )
