"""Lab face detection + identity: InsightFace `buffalo_s` (SCRFD detector, ArcFace 512-d), as in the
original robot. Weights are never downloaded: FaceAnalysis would fetch buffalo_s from
GitHub when its folder is missing, so the folder is checked first."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from common.vision.image import as_rgb, l2_normalise
from perception.backends.base import BackendUnavailable, FaceBox

NAME = "insightface"
PACK = "buffalo_s"
DEFAULT_ROOT = "~/.insightface"
PACKAGE_FIX = ".venv/bin/pip install -e '.[lab]' (insightface + onnxruntime-gpu on the lab machine)"
MIN_IOU = 0.2  # the original's box-matching rule between its tracker box and InsightFace detections


def weights_fix(model_dir: Path) -> str:
    return (
        f"unpack {PACK}.zip (insightface model zoo) into {model_dir} on a machine with the weights, "
        "or point perception.faces.model_root at a folder holding models/buffalo_s"
    )


class InsightFaceModel:
    """One FaceAnalysis pass gives boxes and embeddings; detector and identifier share it."""

    def __init__(self, model_root: str | None = None, det_size: int = 640) -> None:
        try:
            import onnxruntime
            from insightface.app import FaceAnalysis
        except ImportError as e:
            raise BackendUnavailable(
                NAME, f"the {e.name or 'insightface'} package is not installed", PACKAGE_FIX
            ) from e
        root = Path(model_root or DEFAULT_ROOT).expanduser()
        model_dir = root / "models" / PACK
        if not any(model_dir.glob("*.onnx")):
            raise BackendUnavailable(NAME, f"no {PACK} .onnx weights in {model_dir}", weights_fix(model_dir))
        gpu = "CUDAExecutionProvider" in onnxruntime.get_available_providers()
        providers = ["CUDAExecutionProvider", "CPUExecutionProvider"] if gpu else ["CPUExecutionProvider"]
        try:
            self._app = FaceAnalysis(
                name=PACK, root=str(root), providers=providers, allowed_modules=["detection", "recognition"]
            )
            self._app.prepare(ctx_id=0 if gpu else -1, det_size=(det_size, det_size))
        except Exception as e:  # onnxruntime/insightface raise assorted types for bad model files
            raise BackendUnavailable(NAME, f"cannot load {model_dir} ({e})", weights_fix(model_dir)) from e
        self._lock = threading.Lock()
        self._last_frame: np.ndarray | None = None
        self._last_faces: list = []

    def analyse(self, rgb: np.ndarray) -> list:
        """InsightFace faces for the frame; the same array object is analysed only once, so the
        identifier reuses the detector's pass on that frame."""
        with self._lock:
            if rgb is not self._last_frame:
                bgr = np.ascontiguousarray(rgb[:, :, ::-1])
                self._last_faces = self._app.get(bgr)
                self._last_frame = rgb
            return list(self._last_faces)


def _box(face, w: int, h: int) -> FaceBox:
    x1, y1, x2, y2 = (int(round(float(v))) for v in face.bbox[:4])
    return FaceBox(max(0, x1), max(0, y1), min(w, x2), min(h, y2), float(face.det_score))


class InsightFaceDetector:
    name = NAME

    def __init__(self, model: InsightFaceModel) -> None:
        self._model = model

    def detect(self, rgb: np.ndarray) -> list[FaceBox]:
        h, w = as_rgb(rgb).shape[:2]
        return [_box(f, w, h) for f in self._model.analyse(rgb)]


class InsightFaceIdentifier:
    name = NAME
    dim = 512

    def __init__(self, model: InsightFaceModel) -> None:
        self._model = model

    def embed(self, rgb: np.ndarray, box: FaceBox) -> np.ndarray:
        h, w = as_rgb(rgb).shape[:2]
        scored = [(box.iou(_box(f, w, h)), f) for f in self._model.analyse(rgb)]
        iou, face = max(scored, key=lambda s: s[0], default=(0.0, None))
        if face is None or iou <= MIN_IOU or getattr(face, "normed_embedding", None) is None:
            raise ValueError(f"no InsightFace face overlaps {box} (best IoU {iou:.2f} <= {MIN_IOU})")
        return l2_normalise(face.normed_embedding)
