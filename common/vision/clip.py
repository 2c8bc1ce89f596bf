"""Lab scene encoder: CLIP (default `openai/clip-vit-base-patch32`) through transformers, from local
files only. Image and text share one space, so text->image retrieval works (can_embed_text)."""

from __future__ import annotations

import threading

import numpy as np

from common.vision.base import BackendUnavailable
from common.vision.hf import hub_fix, import_transformers, torch_device
from common.vision.image import as_rgb, l2_normalise

NAME = "clip"


def _tensor(out):
    # transformers >= 5 returns BaseModelOutputWithPooling (projected embeds in pooler_output), 4.x a tensor
    return out if hasattr(out, "detach") else out.pooler_output


class ClipEncoder:
    name = NAME
    can_embed_text = True

    def __init__(self, model: str = "openai/clip-vit-base-patch32") -> None:
        transformers = import_transformers(NAME)
        import torch

        self._device = torch_device()
        try:
            self._processor = transformers.CLIPProcessor.from_pretrained(model, local_files_only=True)
            clip = transformers.CLIPModel.from_pretrained(model, local_files_only=True)
        except OSError as e:  # transformers reports missing local files as OSError
            raise BackendUnavailable(NAME, f"{model} is not available locally ({e})", hub_fix(model)) from e
        self._model = clip.to(self._device).eval()
        self._torch = torch
        self.dim = int(self._model.config.projection_dim)
        self._lock = threading.Lock()

    def embed_image(self, rgb: np.ndarray) -> np.ndarray:
        inputs = self._processor(images=as_rgb(rgb), return_tensors="pt").to(self._device)
        with self._lock, self._torch.inference_mode():
            out = _tensor(self._model.get_image_features(**inputs))
        return l2_normalise(out[0].float().cpu().numpy())

    def embed_text(self, text: str) -> np.ndarray:
        inputs = self._processor(text=[text], return_tensors="pt", padding=True, truncation=True).to(
            self._device
        )
        with self._lock, self._torch.inference_mode():
            out = _tensor(self._model.get_text_features(**inputs))
        return l2_normalise(out[0].float().cpu().numpy())
