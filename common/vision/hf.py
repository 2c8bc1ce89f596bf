"""What the lab's Hugging Face backends (CLIP, Moondream2) share: the guarded transformers import,
the device choice and the fix messages. Weights are read from local files only, never downloaded."""

from __future__ import annotations

from types import ModuleType

from common.vision.base import BackendUnavailable

PACKAGE_FIX = ".venv/bin/pip install -e '.[lab]' (transformers; a CUDA torch on the lab machine)"


def import_transformers(backend: str) -> ModuleType:
    try:
        import torch  # noqa: F401  (transformers needs it; name it here rather than fail deep inside)
        import transformers
    except ImportError as e:
        raise BackendUnavailable(
            backend, f"the {e.name or 'transformers'} package is not installed", PACKAGE_FIX
        ) from e
    return transformers


def hub_fix(model: str, revision: str | None = None) -> str:
    rev = f" --revision {revision}" if revision else ""
    return (
        f"put {model} into the Hugging Face cache (HF_HOME) on a machine with hub access "
        f"(huggingface-cli download {model}{rev}), then copy the cache here"
    )


def torch_device() -> str:
    """cuda:0, else Apple MPS, else CPU: the fastest device this machine has."""
    import torch

    if torch.cuda.is_available():
        return "cuda:0"
    mps = getattr(torch.backends, "mps", None)
    return "mps" if mps is not None and mps.is_available() else "cpu"
