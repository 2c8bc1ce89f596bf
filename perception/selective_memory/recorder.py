"""Write one memorable scene and announce it on scene_stored.

The image is the raw frame (no overlays) as JPEG; moment and first_meeting scenes get a scene-encoder
embedding; the caption comes from the captioner, and a scene is stored without a description when
the captioner is missing (logged once at start-up) or fails on this frame (logged).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

import cv2
import numpy as np

from common import topics as t
from common.bus import Bus
from common.clock import Clock
from common.messages import SceneStored
from common.store import FIRST_MEETING_ANCHOR, SceneMetadata, SceneStore, new_scene_id
from common.store.scenes import SceneType
from common.vision.base import Captioner, CaptionFacts, SceneEncoder
from perception.view import View

log = logging.getLogger("nadine.perception.scenes")

JPEG_QUALITY = 90
NO_CAPTION = "none"
TEXT_ONLY_SOURCE = "text_only"
TEXT_ONLY_DESCRIPTION = "a moment told without a camera view (text only)"


def encode_jpeg(rgb: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return buf.tobytes()


@dataclass
class SceneRequest:
    user_id: str
    user_name: str
    rgb: np.ndarray | None  # None: a text-only moment (no camera view)
    scene_type: SceneType
    memorability: float
    emotion_label: str
    intensity: float
    reason: str
    user_message: str | None = None
    turn_id: str | None = None
    embedding: np.ndarray | None = None  # already computed by the policy (vision novelty)
    extra: dict | None = None  # policy-specific metadata fields
    faces: int = 1
    face_emotion: str | None = None  # dominant facial emotion, for the caption


class SceneRecorder:
    def __init__(
        self, store: SceneStore, bus: Bus, clock: Clock, encoder: SceneEncoder | None, captioner: Captioner | None,
    ) -> None:
        self.scenes = store
        self.bus = bus
        self.clock = clock
        self.encoder = encoder
        self.captioner = captioner
        self.last_store_s = 0.0  # wall time of the last store, for the benchmark

    def embed(self, rgb: np.ndarray) -> np.ndarray | None:
        if self.encoder is None:
            return None
        try:
            return self.encoder.embed_image(rgb)
        except Exception:  # a model failure must not lose the scene
            log.exception("scene encoder %s failed; scene stored without an embedding", self.encoder.name)
            return None

    def _caption(self, req: SceneRequest) -> tuple[str, str]:
        if self.captioner is None:
            return "", NO_CAPTION
        facts = CaptionFacts(faces=req.faces, user_name=req.user_name, emotion=req.face_emotion)
        try:
            caption = self.captioner.caption(req.rgb, facts)
        except Exception:
            log.exception("captioner %s failed; scene stored without a description", self.captioner.name)
            return "", NO_CAPTION
        return caption.text, caption.source

    def store(self, req: SceneRequest) -> SceneMetadata:
        started = time.perf_counter()
        now = self.clock.now()
        if req.rgb is None:  # text-only: what was said is the memory; nothing to caption or embed
            description, caption_source, embedding = TEXT_ONLY_DESCRIPTION, TEXT_ONLY_SOURCE, None
        else:
            description, caption_source = self._caption(req)
            embedding = req.embedding
            if embedding is None and req.scene_type in ("moment", "first_meeting"):
                embedding = self.embed(req.rgb)
        meta = SceneMetadata(
            scene_id=new_scene_id(now), timestamp=now.isoformat(timespec="seconds"), image_path="",
            memorability=round(float(req.memorability), 4), emotion_label=req.emotion_label,
            intensity=round(float(req.intensity), 4), description=description, user_message=req.user_message,
            scene_type=req.scene_type, reason=req.reason, turn_id=req.turn_id, caption_source=caption_source,
            **(req.extra or {}),
        )
        meta = self.scenes.write(req.user_id, meta, None if req.rgb is None else encode_jpeg(req.rgb), embedding)
        self.last_store_s = time.perf_counter() - started
        log.info("stored %s scene %s for %s (memorability %.2f, %s) in %.2f s", req.scene_type, meta.scene_id,
                 req.user_id, meta.memorability, req.reason, self.last_store_s)
        self.bus.publish(t.SCENE_STORED, SceneStored(
            user_id=req.user_id, user_name=req.user_name, memorability=meta.memorability,
            emotion_label=meta.emotion_label, intensity=meta.intensity, description=description,
            user_message=req.user_message, scene_type=req.scene_type, scene_id=meta.scene_id,
            image_path=meta.image_path, reason=req.reason, turn_id=req.turn_id,
        ))
        return meta

    def store_first_meeting(self, user_id: str, user_name: str, view: View, turn_id: str | None = None) -> SceneMetadata:
        """The first-meeting scene, which answers "how did we meet?": memorability 1.0, neutral, the
        canonical anchor as utterance."""
        return self.store(SceneRequest(
            user_id=user_id, user_name=user_name, rgb=view.rgb, scene_type="first_meeting", memorability=1.0,
            emotion_label="neutral", intensity=0.0, reason="first face registration",
            user_message=FIRST_MEETING_ANCHOR.format(user_name=user_name),
            faces=view.faces, face_emotion=view.face_emotion, turn_id=turn_id,
        ))
