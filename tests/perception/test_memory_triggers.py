"""Selective memory triggers on a real scene store: one decision per affect event, interval checks with
the 15 s cooldown, 'not in view' / 'unknown user' expiry. The bus is a recording double."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from common import topics as t
from common.clock import Clock
from common.config.perception_settings import SelectiveMemorySettings
from common.messages import AffectState
from common.store import DataLayout, SceneStore
from common.store.faces import FaceStore
from perception.selective_memory.module import SelectiveMemory
from perception.selective_memory.recorder import SceneRecorder
from perception.view import View
from tests.perception.doubles import RecordingBus

FRAME = np.zeros((48, 64, 3), dtype=np.uint8)


def make(tmp_path: Path, **cfg) -> tuple[SelectiveMemory, RecordingBus, SceneStore]:
    bus = RecordingBus()
    scenes = SceneStore(DataLayout(tmp_path))
    settings = SelectiveMemorySettings(**{"decision_wait_s": 2.0, **cfg})
    recorder = SceneRecorder(scenes, bus, Clock(None), encoder=None, captioner=None)
    return SelectiveMemory(settings, recorder, scenes, bus), bus, scenes


def affect(turn: str | None, intensity: float, suppress: bool = False) -> AffectState:
    return AffectState(label="joy", arousal=0.3, intensity=0.2, user_label="happy", user_intensity=intensity,
                       user_message=f"utterance {turn}", suppress_storage=suppress, turn_id=turn)


KNOWN = View(FRAME, "u1", "Maya", True)
UNKNOWN_FACE = View(FRAME, None, None, True)
NOBODY = View(None)


def test_event_trigger_one_decision_per_event_one_per_frame(tmp_path: Path):
    mem, bus, scenes = make(tmp_path)
    mem.on_affect(affect("t1", 0.9), 0.0, None)
    mem.on_affect(affect("t2", 0.9), 0.0, None)
    mem.on_frame(KNOWN, 0.1)
    assert [d.turn_id for d in bus.of(t.STORAGE_DECISION)] == ["t1"]
    mem.on_frame(KNOWN, 0.2)
    mem.on_frame(KNOWN, 0.3)
    decisions = bus.of(t.STORAGE_DECISION)
    assert [(d.turn_id, d.stored) for d in decisions] == [("t1", True), ("t2", True)]  # no time cooldown
    assert [s.scene_id for s in bus.of(t.SCENE_STORED)] == [d.scene_id for d in decisions]
    metas = scenes.list("u1")
    assert sorted(m.user_message for m in metas) == ["utterance t1", "utterance t2"]
    assert all(m.description == "" and m.model_extra["caption_source"] == "none" for m in metas)


def test_event_waits_for_a_known_user_then_expires(tmp_path: Path):
    mem, bus, _ = make(tmp_path)
    mem.on_affect(affect("t1", 0.9), 0.0, None)
    mem.on_affect(affect("t2", 0.9), 0.5, None)
    mem.on_frame(NOBODY, 1.0)
    mem.on_frame(UNKNOWN_FACE, 2.1)  # t1 expires now; t2 has seen an unknown face
    mem.on_frame(NOBODY, 2.6)
    d1, d2 = bus.of(t.STORAGE_DECISION)
    assert (d1.turn_id, d1.stored, d1.reason) == ("t1", False, "unknown user")
    assert (d2.turn_id, d2.stored, d2.reason) == ("t2", False, "unknown user")
    mem.on_affect(affect("t3", 0.9), 3.0, None)
    mem.on_frame(NOBODY, 5.5)
    assert bus.of(t.STORAGE_DECISION)[-1].reason == "user not in view within 2 s"
    assert not bus.of(t.SCENE_STORED)


def test_suppressed_event_is_decided_but_not_stored(tmp_path: Path):
    mem, bus, scenes = make(tmp_path)
    mem.on_affect(affect("t1", 0.95, suppress=True), 0.0, None)
    mem.on_frame(KNOWN, 0.1)
    (d,) = bus.of(t.STORAGE_DECISION)
    assert not d.stored and d.reason.startswith("suppressed") and d.memorability == 0.95
    assert "would have stored" in d.reason
    assert scenes.list("u1") == []


def test_a_suppressed_event_below_threshold_gives_only_the_suppression_as_reason(tmp_path: Path):
    # "suppressed (a goodbye); below threshold: ..." told two reasons for one decision
    mem, bus, _ = make(tmp_path)
    mem.on_affect(affect("t1", 0.1, suppress=True), 0.0, None)
    mem.on_frame(KNOWN, 0.1)
    (d,) = bus.of(t.STORAGE_DECISION)
    assert not d.stored and d.reason.startswith("suppressed") and "threshold" not in d.reason


def test_interval_trigger_checks_and_cools_down(tmp_path: Path):
    mem, bus, scenes = make(tmp_path, trigger="interval")
    mem.on_affect(affect("t1", 0.9), 0.0, None)
    mem.on_frame(KNOWN, 0.0)
    assert [(d.turn_id, d.stored) for d in bus.of(t.STORAGE_DECISION)] == [("t1", True)]
    mem.on_affect(affect("t2", 0.9), 1.0, None)
    mem.on_frame(KNOWN, 1.0)  # next check only at 3.0
    assert len(bus.of(t.STORAGE_DECISION)) == 1
    mem.on_frame(KNOWN, 3.1)
    d2 = bus.of(t.STORAGE_DECISION)[-1]
    assert d2.turn_id == "t2" and not d2.stored and d2.reason.startswith("cooldown")
    mem.on_frame(KNOWN, 15.5)  # a poll after the cooldown stores again on the latest affect state
    d3 = bus.of(t.STORAGE_DECISION)[-1]
    assert d3.stored and d3.turn_id is None
    assert len(scenes.list("u1")) == 2


def test_vision_policy_always_uses_the_interval_trigger(tmp_path: Path):
    mem, bus, scenes = make(tmp_path, policy="vision", trigger="event")
    assert mem.trigger == "interval"
    happy = View(FRAME, "u1", "Maya", True, {"happy": 0.9, "neutral": 0.1})
    mem.on_frame(happy, 0.0)  # first scene of the user: always stored
    (d,) = bus.of(t.STORAGE_DECISION)
    assert d.stored and "first scene" in d.reason
    meta = scenes.list("u1")[0]
    assert {"emotion_salience", "novelty_salience", "emotion_probs"} <= set(meta.model_extra)


def test_first_meeting_is_stored_once(tmp_path: Path):
    mem, bus, scenes = make(tmp_path)
    mem.store_first_meeting("u1", "Maya", KNOWN)
    mem.store_first_meeting("u1", "Maya", KNOWN)
    (meta,) = scenes.list("u1")
    assert meta.scene_type == "first_meeting" and meta.memorability == 1.0
    assert meta.user_message == "The first time we met — Maya introduced themselves to me."


def test_face_gallery_computes_missing_embeddings_per_backend(tmp_path: Path, caplog):
    layout = DataLayout(tmp_path)
    faces = FaceStore(layout)
    img = faces.add("u1", b"jpeg-bytes", np.array([1.0, 0.0]), "dlib", datetime(2026, 1, 1))
    faces.add("u2", b"jpeg-bytes", np.array([0.0, 2.0]), "dlib", datetime(2026, 1, 1))
    g = faces.load_gallery("dlib", lambda p: pytest.fail("dlib embeddings are on disk"))
    assert g.user_ids == ("u1", "u2")
    assert g.best_match(np.array([0.1, 3.0]))[0] == "u2"
    computed = []
    g2 = faces.load_gallery("insightface", lambda p: computed.append(p) or np.array([0.0, 0.0, 1.0]))
    assert len(g2) == 2 and len(computed) == 2 and g2.matrix.shape == (2, 3)
    assert faces.embedding_path(img, "insightface").exists()  # written back for next time
    assert faces.load_gallery("insightface", lambda p: pytest.fail("now on disk")).user_ids == ("u1", "u2")
    assert len(faces.load_gallery("other", lambda p: None)) == 0  # no face found: left out, logged
    assert "no face found in stored face image" in caplog.text


def test_a_failed_store_still_gets_its_decision(tmp_path: Path):
    mem, bus, scenes = make(tmp_path)
    blocked = scenes.layout.scenes_dir("u1")
    blocked.parent.mkdir(parents=True)
    blocked.write_text("not a folder")  # every write below it fails
    mem.on_affect(affect("t1", 0.9), 0.0, None)
    mem.on_frame(KNOWN, 0.1)
    (d,) = bus.of(t.STORAGE_DECISION)
    assert not d.stored and d.reason.startswith("store failed") and d.turn_id == "t1"
    assert not bus.of(t.SCENE_STORED)
