"""Helpers for the memory tests: settings on a temporary data root, scenes written the way perception
writes them (SceneStore, real JPEG bytes)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import cv2
import numpy as np

from common.clock import Clock
from common.config import NadineSettings, load_settings
from common.store import DataLayout
from common.store.scenes import FIRST_MEETING_ANCHOR, SceneMetadata, SceneStore, new_scene_id

PHD = "I just defended my PhD thesis today, I'm so happy!"


def make_settings(data_dir: Path, *overrides: str) -> NadineSettings:
    """The code defaults (not config/*.yaml, which a deployment tunes) plus `overrides`."""
    no_yaml = data_dir / "no-config"
    no_yaml.mkdir(parents=True, exist_ok=True)
    return load_settings(config_dir=no_yaml, environ={}, overrides=[f"common.data_dir={data_dir}", *overrides])


def jpeg(seed: int = 0, size: int = 96) -> bytes:
    rng = np.random.default_rng(seed)
    img = np.zeros((size, size, 3), np.uint8)
    cv2.rectangle(img, (10, 10), (size - 10, size - 10), [int(c) for c in rng.integers(0, 255, 3)], -1)
    cv2.circle(img, (size // 2, size // 2), size // 4, [int(c) for c in rng.integers(0, 255, 3)], -1)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return buf.tobytes()


def write_scene(
    layout: DataLayout, user_id: str, user_message: str | None, *, when: datetime,
    scene_type: str = "moment", description: str = "A photo with a person (looking happy).",
    memorability: float = 0.9, user_name: str = "Maya", seed: int = 0, turn_id: str | None = None,
) -> SceneMetadata:
    if scene_type == "first_meeting":
        user_message = FIRST_MEETING_ANCHOR.format(user_name=user_name)
    meta = SceneMetadata(
        scene_id=new_scene_id(when), timestamp=when.isoformat(), image_path="", memorability=memorability,
        emotion_label="happy", intensity=memorability, description=description, user_message=user_message,
        scene_type=scene_type, reason="test", turn_id=turn_id,
    )
    return SceneStore(layout).write(user_id, meta, jpeg(seed), np.ones(8, np.float32))


# the shared clock of these tests: what a turn reads of "now" (its day, the hour a meal or "tonight"
# names) must not change with the day the suite runs
PINNED_NOW = datetime(2026, 11, 4, 15, 0)


def layout_and_clock(root: Path) -> tuple[DataLayout, Clock]:
    """The data root and a clock that reads PINNED_NOW when the test starts (and runs on from it), set
    through the clock file every process of the suite reads."""
    layout = DataLayout(root)
    layout.root.mkdir(parents=True, exist_ok=True)
    layout.runtime_dir.mkdir(parents=True, exist_ok=True)
    offset = (PINNED_NOW - datetime.now()).total_seconds()
    (layout.runtime_dir / "clock.json").write_text(json.dumps({"offset_s": offset}), encoding="utf-8")
    return layout, Clock(layout.runtime_dir)
