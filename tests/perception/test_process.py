"""`python -m perception` driven only through MQTT and the data folder, with the shared face photos
swapped in a watched folder as the camera (the way the conversation-script runner drives it)."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from common import topics as t
from common.logs import log_pseudonym
from common.messages import AffectState, CaptureRequest, ForgetUser, UserInfo
from common.store import FIRST_MEETING_ANCHOR, DataLayout, ProfileStore, SceneStore
from common.store.faces import FaceStore
from common.topics import Topics
from tests.support import Broker, NadineProcess, Recorder, make_bus, process_env, unique_root

pytestmark = pytest.mark.shared_data

FAST = [
    "perception.faces.no_face_timeout_s=1.5", "perception.faces.announce_period_s=1.0",
    "perception.faces.registration_wait_s=2.0", "perception.selective_memory.decision_wait_s=2.0",
    "perception.camera.retry_s=0.5", "perception.fer.interval_s=0.5",
]


class Rig:
    """One perception process, its watched camera folder, data root and a test bus with recorders."""

    def __init__(self, broker: Broker, tmp: Path, faces: Path, env_extra: dict[str, str], args: list[str]) -> None:
        self.broker, self.faces = broker, faces
        self.root = unique_root()
        self.camera = tmp / "camera"
        self.camera.mkdir()
        self.data = tmp / "data"
        self.layout = DataLayout(self.data)
        self.bus = make_bus("tester", broker, self.root)
        self.rec = {spec: Recorder(self.bus, spec) for spec in (
            t.USER_DETECTED, t.FACE_STORED, t.SCENE_STORED, t.STORAGE_DECISION, t.VIEW_CAPTURED,
            t.USER_FORGOTTEN)}
        online = Recorder(self.bus, t.status_spec("perception"))
        env = process_env(broker, self.root, self.data, tmp / "logs", NADINE_CAMERA=f"watch:{self.camera}",
                          **env_extra)
        self.proc = NadineProcess("perception", env, [*sum((["--config-override", o] for o in FAST), []), *args])
        online.wait_for(lambda m: m.value == "online", timeout=60)

    def show(self, name: str | None) -> None:
        """Put one shared photo in front of the robot (None: nobody)."""
        for old in self.camera.iterdir():
            old.unlink()
        if name is not None:
            staged = self.camera.parent / f".staged{Path(name).suffix}"
            shutil.copy(self.faces / name, staged)
            os.replace(staged, self.camera / name)

    def expect(self, spec, pred=lambda m: True, timeout: float = 10.0):
        return self.rec[spec].wait_for(pred, timeout)

    def clear(self) -> None:
        for r in self.rec.values():
            r.clear()

    def mint(self, name: str) -> str:
        return ProfileStore(self.layout).mint_user_id(name, datetime.now())

    def stop(self) -> None:
        code = self.proc.stop()
        self.bus.stop()
        assert code == 0, self.proc.log_text()[-3000:]


@pytest.fixture(scope="module")
def rig(broker: Broker, shared_data: Path, tmp_path_factory) -> Iterator[Rig]:
    r = Rig(broker, tmp_path_factory.mktemp("perception"), shared_data / "faces", {}, ["--study"])
    yield r
    r.stop()


def who(m) -> tuple:
    return (m.user_id, m.user_name)


def affect(turn: str, intensity: float, message: str, suppress: bool = False) -> AffectState:
    return AffectState(label="joy", arousal=0.4, intensity=0.3, user_label="happy", user_intensity=intensity,
                       user_message=message, suppress_storage=suppress, turn_id=turn)


def test_register_recognise_and_store(rig: Rig):
    rig.show("df_a_01.jpg")
    rig.expect(t.USER_DETECTED, lambda m: who(m) == (None, "Unknown"), timeout=15)

    uid = rig.mint("Alice")
    rig.bus.publish(t.USER_INFO, UserInfo(user_name="Alice", user_id=uid))
    stored = rig.expect(t.FACE_STORED)
    assert (stored.user_id, stored.status) == (uid, "face_stored_new_user")
    first = rig.expect(t.SCENE_STORED, lambda m: m.scene_type == "first_meeting")
    assert first.user_message == FIRST_MEETING_ANCHOR.format(user_name="Alice") and first.memorability == 1.0
    rig.expect(t.USER_DETECTED, lambda m: who(m) == (uid, "Alice"))

    faces = FaceStore(rig.layout).images(uid)
    assert len(faces) == 1 and FaceStore(rig.layout).embedding_path(faces[0], "dlib").exists()
    scenes = SceneStore(rig.layout)
    meta = scenes.list(uid)[0]
    assert meta.scene_type == "first_meeting" and meta.emotion_label == "neutral"
    assert scenes.load_embedding(uid, meta.scene_id) is not None
    assert Path(meta.image_path).read_bytes()[:2] == b"\xff\xd8"  # the raw frame as JPEG
    data = json.loads(next((rig.layout.scenes_dir(uid) / "metadata").glob("*.json")).read_text())
    assert set(data) == {"scene_id", "timestamp", "image_path", "memorability", "emotion_label", "intensity",
                         "description", "user_message", "scene_type", "reason", "caption_source"}

    # a second user_info within the cooldown stores no second face
    rig.clear()
    rig.bus.publish(t.USER_INFO, UserInfo(user_name="Alice", user_id=uid))
    time.sleep(1.5)
    assert not rig.rec[t.FACE_STORED].messages and len(FaceStore(rig.layout).images(uid)) == 1

    # the same person in other photos is recognised; a different person is not
    for photo in ("df_a_03.jpg", "df_a_05.jpg"):
        rig.clear()
        rig.show(photo)
        rig.expect(t.USER_DETECTED, lambda m: m.user_id == uid and m.confidence > 90)
    rig.clear()
    rig.show("df_b_01.jpg")
    rig.expect(t.USER_DETECTED, lambda m: who(m) == (None, "Unknown"))
    rig.show("df_a_02.jpg")
    rig.expect(t.USER_DETECTED, lambda m: m.user_id == uid)

    # one scene per affect event at or above the threshold, carrying the utterance
    rig.clear()
    rig.bus.publish(t.AFFECT_STATE, affect("t1", 0.9, "I defended my PhD today!"))
    decision = rig.expect(t.STORAGE_DECISION, lambda m: m.turn_id == "t1")
    assert decision.stored and decision.user_id == uid and decision.scene_id
    scene = rig.expect(t.SCENE_STORED, lambda m: m.turn_id == "t1")
    assert (scene.scene_type, scene.user_message, scene.scene_id) == ("moment", "I defended my PhD today!",
                                                                     decision.scene_id)
    rig.bus.publish(t.AFFECT_STATE, affect("t2", 0.2, "The weather is fine."))
    rig.bus.publish(t.AFFECT_STATE, affect("t3", 0.95, "Do you remember my PhD?", suppress=True))
    d2 = rig.expect(t.STORAGE_DECISION, lambda m: m.turn_id == "t2")
    d3 = rig.expect(t.STORAGE_DECISION, lambda m: m.turn_id == "t3")
    assert not d2.stored and "below threshold" in d2.reason
    assert not d3.stored and "suppressed" in d3.reason
    time.sleep(0.5)
    assert [m.turn_id for m in rig.rec[t.STORAGE_DECISION].messages] == ["t1", "t2", "t3"]
    moments = [m for m in SceneStore(rig.layout).list(uid) if m.scene_type == "moment"]
    assert [m.user_message for m in moments] == ["I defended my PhD today!"]

    # the study FER sampler logs the tracked known user
    samples = [json.loads(x) for x in (rig.layout.study_logs_dir / "fer_samples.jsonl").read_text().splitlines()]
    assert any(s["user_id"] == uid and s["dominant_emotion"] in s["scores"] for s in samples)


def test_bad_inputs_are_refused(rig: Rig, tmp_path: Path):
    rig.show("df_a_04.jpg")
    before = sorted(p for p in rig.data.rglob("*") if p.is_file() and "study_logs" not in p.parts)
    # a corrupt newest image is skipped: the previous picture stays in view
    (rig.camera / "zz_corrupt.jpg").write_bytes(b"\xff\xd8 this is not a jpeg")
    rig.clear()
    rig.expect(t.USER_DETECTED, lambda m: m.user_id is not None, timeout=5)
    # path tricks and unknown ids in user_info
    for bad in ("../x", "..", "a/b", "unknown_9999"):
        rig.bus.publish(t.USER_INFO, UserInfo(user_name="Mallory", user_id=bad))
    # capture outside the data root is refused, inside is written
    outside = tmp_path / "outside.jpg"
    rig.bus.publish(t.CAPTURE_CURRENT_VIEW, CaptureRequest(value=str(outside)))
    refused = rig.expect(t.VIEW_CAPTURED, lambda m: m.path == str(outside))
    assert not refused.ok and "outside" in refused.error and not outside.exists()
    rig.bus.publish(t.CAPTURE_CURRENT_VIEW, CaptureRequest(value="../escape.jpg"))
    assert not rig.expect(t.VIEW_CAPTURED, lambda m: m.path == "../escape.jpg").ok
    inside = rig.layout.captures_dir / "view.png"
    rig.bus.publish(t.CAPTURE_CURRENT_VIEW, CaptureRequest(value=str(inside)))
    assert rig.expect(t.VIEW_CAPTURED, lambda m: m.path == str(inside)).ok
    assert inside.read_bytes()[:4] == b"\x89PNG"
    # malformed affect payloads are dropped; the next good one is still decided
    raw = mqtt.Client(CallbackAPIVersion.VERSION2)
    raw.connect(rig.broker.host, rig.broker.port)
    raw.loop_start()
    topic = Topics(rig.root)(t.AFFECT_STATE)
    for payload in (b"not json", b'{"label": "joy"}', b'{"label": "joy", "arousal": 0, "intensity": 7}'):
        raw.publish(topic, payload, qos=1).wait_for_publish(5)
    raw.loop_stop()
    raw.disconnect()
    rig.bus.publish(t.AFFECT_STATE, affect("t4", 0.1, "ok"))
    rig.expect(t.STORAGE_DECISION, lambda m: m.turn_id == "t4")
    time.sleep(2.5)  # past registration_wait_s for the unknown id
    assert [m.turn_id for m in rig.rec[t.STORAGE_DECISION].messages] == ["t4"]
    after = sorted(p for p in rig.data.rglob("*") if p.is_file() and "study_logs" not in p.parts)
    assert set(after) - set(before) == {inside} and set(before) <= set(after)  # nothing stored lost
    assert not (rig.data.parent / "x").exists() and not (rig.layout.profiles_dir / "unknown_9999").exists()
    log = rig.proc.log_text()
    assert "zz_corrupt.jpg is not a readable image" in log
    assert "user_info refused: invalid user id '../x'" in log
    assert "unknown user id 'unknown_9999'" in log
    assert "dropped message on" in log
    assert rig.proc.proc.poll() is None


def test_nobody_in_view(rig: Rig):
    rig.show("df_a_01.jpg")
    rig.expect(t.USER_DETECTED, lambda m: m.user_id is not None, timeout=5)
    rig.clear()
    rig.show(None)
    rig.expect(t.USER_DETECTED, lambda m: who(m) == (None, None) and m.confidence == 0.0, timeout=5)
    rig.bus.publish(t.AFFECT_STATE, affect("t5", 0.9, "Anyone there?"))
    d = rig.expect(t.STORAGE_DECISION, lambda m: m.turn_id == "t5")
    assert not d.stored and "not in view" in d.reason
    # an unknown face: never stored
    rig.show("df_c_01.jpg")
    rig.expect(t.USER_DETECTED, lambda m: who(m) == (None, "Unknown"))
    rig.bus.publish(t.AFFECT_STATE, affect("t6", 0.9, "Hello stranger"))
    d = rig.expect(t.STORAGE_DECISION, lambda m: m.turn_id == "t6")
    assert not d.stored and d.reason == "unknown user"


def test_forget_user(rig: Rig):
    (uid,) = [u for u, name in ProfileStore(rig.layout).user_ids().items() if name == "Alice"]
    rig.show("df_a_03.jpg")
    rig.expect(t.USER_DETECTED, lambda m: m.user_id == uid)
    rig.clear()
    rig.bus.publish(t.FORGET_USER, ForgetUser(user_id="../etc"))
    rig.bus.publish(t.FORGET_USER, ForgetUser(user_id=uid))
    done = rig.expect(t.USER_FORGOTTEN)
    assert (done.user_id, done.process) == (uid, "perception") and done.removed["faces"] == 1
    assert done.removed["scenes"] == 2  # first_meeting + one moment
    rig.expect(t.USER_DETECTED, lambda m: who(m) == (None, "Unknown"))
    assert not rig.layout.user_dir(uid).exists() and uid not in ProfileStore(rig.layout).user_ids()
    assert uid not in (rig.layout.study_logs_dir / "fer_samples.jsonl").read_text()
    assert len(rig.rec[t.USER_FORGOTTEN].messages) == 1


def test_visual_memory_disabled_and_headless_preview(broker: Broker, shared_data: Path, tmp_path: Path):
    r = Rig(broker, tmp_path, shared_data / "faces", {"NADINE_ENABLE_VISUAL_MEMORY": "0"}, ["--preview"])
    try:
        r.show("df_e_01.jpg")
        r.expect(t.USER_DETECTED, lambda m: m.user_name == "Unknown", timeout=15)
        uid = r.mint("Eve")
        r.bus.publish(t.USER_INFO, UserInfo(user_name="Eve", user_id=uid))
        assert r.expect(t.FACE_STORED).status == "face_stored_new_user"
        r.expect(t.USER_DETECTED, lambda m: m.user_id == uid)
        r.bus.publish(t.AFFECT_STATE, affect("t1", 1.0, "Best day ever!"))
        d = r.expect(t.STORAGE_DECISION, lambda m: m.turn_id == "t1")
        assert not d.stored and d.reason == "visual memory disabled"
        time.sleep(0.5)
        assert not r.rec[t.SCENE_STORED].messages and not r.layout.scenes_dir(uid).exists()
        # --preview with the headless OpenCV build: one clear line, then headless
        assert r.proc.log_text().count("preview window unavailable") == 1
    finally:
        r.stop()


def test_a_known_name_never_files_another_face_in_its_gallery(rig: Rig):
    """user_info naming someone with stored faces, while a face that does not match them is in view
    (an impostor giving their name): perception files nothing under that id."""
    rig.clear()
    rig.show("df_c_01.jpg")
    rig.expect(t.USER_DETECTED, lambda m: who(m) == (None, "Unknown"), timeout=15)
    dora = rig.mint("Dora")
    rig.bus.publish(t.USER_INFO, UserInfo(user_name="Dora", user_id=dora))
    assert rig.expect(t.FACE_STORED, lambda m: m.user_id == dora).status == "face_stored_new_user"
    gallery = FaceStore(rig.layout).images(dora)

    rig.clear()
    rig.show("df_d_01.jpg")  # somebody else
    rig.expect(t.USER_DETECTED, lambda m: who(m) == (None, "Unknown"), timeout=15)
    rig.bus.publish(t.USER_INFO, UserInfo(user_name="Dora", user_id=dora))
    time.sleep(3.0)  # registration_wait_s is 2 s here
    assert not rig.rec[t.FACE_STORED].messages
    assert FaceStore(rig.layout).images(dora) == gallery
    log = (rig.data.parent / "logs" / "perception.log").read_text()
    # process logs carry a pseudonym for the id (common/logs.py), never the id itself
    assert f"user_info for {log_pseudonym(rig.layout, dora)} ignored: the face in view does not match their stored faces" in log
    assert dora not in log
    # Dora herself in another photo is still Dora
    rig.show("df_c_02.jpg")
    rig.expect(t.USER_DETECTED, lambda m: m.user_id == dora, timeout=15)
