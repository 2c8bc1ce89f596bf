"""Image plumbing every vision backend shares: input validation, file reading, crops.

Backends take RGB uint8 arrays (H, W, 3); anything else is refused here with one clear ValueError,
so a corrupt frame or file never reaches a model.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


def as_rgb(image: np.ndarray) -> np.ndarray:
    """The image as a C-contiguous RGB uint8 array, or ValueError naming what is wrong."""
    if not isinstance(image, np.ndarray):
        raise ValueError(f"expected an RGB numpy array, got {type(image).__name__}")
    if image.ndim != 3 or image.shape[2] != 3 or image.shape[0] < 1 or image.shape[1] < 1:
        raise ValueError(f"expected an RGB image of shape (H, W, 3), got {image.shape}")
    if image.dtype != np.uint8:
        raise ValueError(f"expected uint8 pixels, got {image.dtype}")
    return np.ascontiguousarray(image)


def read_rgb(path: str | Path) -> np.ndarray:
    """Read an image file as RGB; ValueError if the file is missing, not an image or corrupt."""
    data = np.fromfile(str(path), dtype=np.uint8) if Path(path).is_file() else None
    bgr = cv2.imdecode(data, cv2.IMREAD_COLOR) if data is not None and data.size else None
    if bgr is None:
        raise ValueError(f"cannot read an image from {path}")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def crop_box(rgb: np.ndarray, x1: int, y1: int, x2: int, y2: int, margin: float = 0.0) -> np.ndarray:
    """The box (grown by `margin` of its size on each side), clipped to the image; never empty."""
    h, w = rgb.shape[:2]
    mx, my = int((x2 - x1) * margin), int((y2 - y1) * margin)
    x1, y1 = max(0, min(w - 1, x1 - mx)), max(0, min(h - 1, y1 - my))
    x2, y2 = max(x1 + 1, min(w, x2 + mx)), max(y1 + 1, min(h, y2 + my))
    return rgb[y1:y2, x1:x2]


def l2_normalise(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float32).reshape(-1)
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v
