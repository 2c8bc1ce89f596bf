"""Lab captioner: Moondream2 (`vikhyatk/moondream2`, pinned revision) through transformers'
remote code, from local files only; one short caption sentence per scene (its description for retrieval)."""

from __future__ import annotations

import threading

import numpy as np

from common.vision.base import BackendUnavailable, Caption, CaptionFacts
from common.vision.hf import hub_fix, import_transformers, torch_device
from common.vision.image import as_rgb

NAME = "moondream2"
MODEL = "vikhyatk/moondream2"


def first_sentence(text: str) -> str:
    text = " ".join(text.split())
    end = next((i for i, c in enumerate(text) if c in ".!?"), -1)
    return text[: end + 1] if end >= 0 else text


class MoondreamCaptioner:
    name = NAME

    def __init__(self, revision: str = "2025-06-21") -> None:
        transformers = import_transformers(NAME)
        try:
            model = transformers.AutoModelForCausalLM.from_pretrained(
                MODEL, revision=revision, trust_remote_code=True, local_files_only=True,
                device_map={"": torch_device()},
            )  # fmt: skip
        except OSError as e:  # transformers reports missing local files as OSError
            raise BackendUnavailable(
                NAME, f"{MODEL}@{revision} is not available locally ({e})", hub_fix(MODEL, revision)
            ) from e
        except ImportError as e:  # the remote code's own requirements
            raise BackendUnavailable(
                NAME,
                f"Moondream2's code needs {e.name or e}",
                f".venv/bin/pip install {e.name}" if e.name else f"install what this names: {e}",
            ) from e
        self._model = model.eval()
        self.revision = revision
        self._lock = threading.Lock()

    def caption(self, rgb: np.ndarray, facts: CaptionFacts | None = None) -> Caption:
        from PIL import Image

        image = Image.fromarray(as_rgb(rgb))
        with self._lock:
            out = self._model.caption(image, length="short")
        return Caption(text=first_sentence(str(out["caption"])), source=NAME)
