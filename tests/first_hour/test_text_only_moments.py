"""Issue 16 item 1: without a camera view, a memorable turn of a person known by name is kept as a
text-only moment (no image, no embedding, the same metadata otherwise), the policy still judges it,
it is recalled by its text and forgotten like any other; the chat prints what memory did."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from common import topics as t
from common.clock import Clock
from common.config.perception_settings import SelectiveMemorySettings
from common.embedding import offline_text_embedder
from common.messages import AffectState, CameraStatus, RetrievedScene, StorageDecision, TurnResult
from common.store import DataLayout, ProfileStore, SceneStore
from common.store.forget import forget_user_files
from interaction.chat import camera_line, memory_lines
from interaction.memory.scene_index import SceneIndex
from perception.selective_memory.module import SelectiveMemory
from perception.selective_memory.recorder import SceneRecorder
from perception.view import View
from tests.interaction.memory_fixtures import make_settings
from tests.perception.doubles import RecordingBus

NEWS = "I just got engaged to Sam, I'm so happy!"
NOBODY = View(None)


def setup(tmp_path: Path, policy: str = "intensity"):
    layout = DataLayout(tmp_path)
    bus = RecordingBus()
    scenes = SceneStore(layout)
    recorder = SceneRecorder(scenes, bus, Clock(None), encoder=None, captioner=None)
    memory = SelectiveMemory(SelectiveMemorySettings(decision_wait_s=2.0, policy=policy), recorder, scenes, bus)
    uid = ProfileStore(layout).mint_user_id("Maya", datetime(2026, 11, 30, 12))
    return layout, bus, scenes, memory, uid


def told(uid: str | None, turn: str, intensity: float, suppress: bool = False) -> AffectState:
    return AffectState(label="joy", arousal=0.6, intensity=0.5, user_label="happy", user_intensity=intensity,
                       user_message=NEWS, turn_id=turn, user_id=uid, user_name="Maya", suppress_storage=suppress)


def test_a_memorable_turn_without_a_view_is_a_text_only_moment(tmp_path):
    layout, bus, scenes, memory, uid = setup(tmp_path)
    memory.on_affect(told(uid, "t1", 0.95), 0.0, None)
    memory.on_frame(NOBODY, 1.0)
    assert not bus.of(t.STORAGE_DECISION)  # the face may still come into view
    memory.on_frame(NOBODY, 2.5)
    (decision,) = bus.of(t.STORAGE_DECISION)
    assert decision.stored and decision.user_id == uid and decision.memorability >= decision.threshold
    (meta,) = scenes.list(uid)
    assert meta.text_only and meta.image_path == "" and meta.user_message == NEWS
    assert meta.scene_type == "moment" and meta.emotion_label and meta.memorability == decision.memorability
    base = layout.scenes_dir(uid)
    assert not list((base / "images").glob("*")) and not list((base / "embeddings").glob("*"))
    (stored,) = bus.of(t.SCENE_STORED)
    assert stored.scene_id == meta.scene_id and stored.image_path == ""

    # recalled by its text like any other scene
    settings = make_settings(tmp_path)
    embedder = offline_text_embedder()
    index = SceneIndex(settings, scenes, embedder, embedder)
    hit = index.retrieve(uid, "Do you remember what I told you about Sam?", is_recall=True)
    assert hit is not None and hit.injected and hit.scene_id == meta.scene_id

    # forgotten like any other
    assert forget_user_files(layout, uid, {"Maya"}, "forgotten-x")["scenes"] == 1
    assert scenes.list(uid) == []


def test_the_policy_still_judges_and_unknown_sessions_are_not_stored(tmp_path):
    layout, bus, scenes, memory, uid = setup(tmp_path)
    memory.on_affect(told(uid, "calm", 0.1), 0.0, None)               # not memorable
    memory.on_affect(told(uid, "recall", 0.95, suppress=True), 0.0, None)  # a recall turn
    memory.on_affect(told("261130_0099", "stranger", 0.95), 0.0, None)   # no such user
    memory.on_affect(told(None, "anonymous", 0.95), 0.0, None)           # nobody named
    memory.on_affect(told("../etc", "bad", 0.95), 0.0, None)             # path trick
    memory.on_frame(NOBODY, 3.0)
    decisions = {d.turn_id: d for d in bus.of(t.STORAGE_DECISION)}
    assert set(decisions) == {"calm", "recall", "stranger", "anonymous", "bad"}
    assert not any(d.stored for d in decisions.values())
    assert decisions["stranger"].reason == decisions["anonymous"].reason == "user not in view within 2 s"
    assert scenes.list(uid) == [] and not bus.of(t.SCENE_STORED)


def test_the_vision_policy_says_it_needs_a_view(tmp_path):
    _, bus, scenes, memory, uid = setup(tmp_path, policy="vision")
    memory.on_affect(told(uid, "t1", 0.95), 0.0, None)
    memory.on_frame(NOBODY, 3.0)
    (decision,) = bus.of(t.STORAGE_DECISION)
    assert not decision.stored and decision.reason == "the vision policy needs a camera view"


def test_the_chat_says_what_memory_did_and_whether_a_camera_is_on(tmp_path):
    result = TurnResult(turn_id="t1", text=NEWS, reply="Congratulations!", intent="continue_conversation",
                        is_recall=False, latency_s=0.1)
    stored = StorageDecision(user_id="u", stored=True, memorability=0.95, threshold=0.5,
                             reason="user intensity 0.95 >= 0.50", scene_id="scene_20261130_120000_abcdef", turn_id="t1")
    assert memory_lines(result, stored) == [
        "  [stored] scene scene_20261130_120000_abcdef (memorability 0.95 >= 0.50): user intensity 0.95 >= 0.50"]
    recall = result.model_copy(update={"retrieved": RetrievedScene(
        scene_id="scene_x", similarity=0.61, threshold=0.26, injected=True, user_message=NEWS, scene_type="moment")})
    skipped = StorageDecision(stored=False, memorability=0.0, threshold=0.5, reason="suppressed", turn_id="t1")
    lines = memory_lines(recall, skipped)
    assert lines[0].startswith("  [recalled] moment scene_x (similarity 0.61 >= 0.26") and NEWS in lines[0]
    assert lines[1].startswith("  [not stored] suppressed")
    assert "perception not running" in memory_lines(result, None)[0]
    # what perception reports on the bus (status/perception/camera), not a guess from the config
    off = camera_line(CameraStatus(source="7", ok=False, error="no /dev/video7"), perception_online=True)
    assert off.startswith("camera: off") and "identity is by name only" in off
    assert camera_line(CameraStatus(source="watch:shots", ok=True), perception_online=True).startswith("camera: on")
    assert "perception is not running" in camera_line(CameraStatus(source="0", ok=True), perception_online=False)
