"""Config name -> scene encoder / captioner backend. Models load once per process (instances are
cached); a backend that cannot load raises BackendUnavailable, which the caller logs once."""

from __future__ import annotations

from common.config import NadineSettings
from common.vision.base import Captioner, SceneEncoder
from common.vision.cache import load_once
from common.vision.clip import ClipEncoder
from common.vision.mobilenet import MobileNetV2Encoder
from common.vision.moondream import MoondreamCaptioner
from common.vision.tags import TagCaptioner

_mobilenet = load_once(MobileNetV2Encoder)
_clip = load_once(ClipEncoder)
_moondream = load_once(MoondreamCaptioner)


def build_scene_encoder(settings: NadineSettings) -> SceneEncoder | None:
    """None for backend `none` (no novelty, no image retrieval channel)."""
    cfg = settings.perception.scene_encoder
    if cfg.backend == "none":
        return None
    return _clip(cfg.clip_model) if cfg.backend == "clip" else _mobilenet()


def build_captioner(settings: NadineSettings, scene_encoder: SceneEncoder | None = None) -> Captioner | None:
    """None for backend `none`. The tag captioner reads labels from `scene_encoder` when it has a
    classifier head (MobileNetV2), otherwise from its own MobileNetV2 (e.g. beside CLIP)."""
    cfg = settings.perception.captioner
    if cfg.backend == "none":
        return None
    if cfg.backend == "moondream2":
        return _moondream(cfg.moondream_revision)
    labeller = scene_encoder if hasattr(scene_encoder, "top_labels") else _mobilenet()
    return TagCaptioner(labeller)
