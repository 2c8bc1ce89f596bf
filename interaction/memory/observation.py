"""Observation scenes: after the vision agent
answered, keep the snapshot when the person pointed at something specific. Written by interaction,
published nowhere, no image embedding (retrieval does not use the image channel for them)."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from common.clock import Clock
from common.store.ids import is_valid_user_id
from common.store.scenes import SceneMetadata, SceneStore, new_scene_id

log = logging.getLogger("nadine.memory.observation")

_POINTS_AT = re.compile(r"\b(my|mine|me|this|that|these|those)\b|\blook at\b|\bwatch (me|this)\b", re.IGNORECASE)


def should_store(
    visual_memory: bool, user_id: str | None, is_recall: bool, utterance: str, answer: str
) -> bool:
    return (
        visual_memory
        and is_valid_user_id(user_id)
        and not is_recall
        and bool(_POINTS_AT.search(utterance))
        and bool(answer.strip())
        and not answer.strip().lower().startswith("sorry")
    )


def store_observation(
    store: SceneStore, clock: Clock, user_id: str, utterance: str, answer: str, image: Path,
    caption_source: str,
) -> SceneMetadata | None:
    try:
        jpeg = image.read_bytes()
    except OSError as exc:
        log.warning("observation not stored: captured view unreadable (%s)", exc)
        return None
    now = clock.now()
    meta = SceneMetadata(
        scene_id=new_scene_id(now), timestamp=now.isoformat(), image_path="", memorability=0.0,
        description=answer.strip(), user_message=utterance.strip()[:500], scene_type="observation",
        reason="the vision agent answered about something the person pointed at", caption_source=caption_source,
    )
    saved = store.write(user_id, meta, jpeg)
    log.info("observation scene %s stored for %s", saved.scene_id, user_id)
    return saved
