"""Every payload model: encode/decode round trip through the real broker, and malformed payloads."""

from __future__ import annotations

import json

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from common import messages as m
from common import topics as t
from common.messages import PayloadError
from tests.support import Recorder

SAMPLES: dict[str, m.Message] = {
    t.USER_DETECTED.suffix: m.UserDetected(user_name="Maya", confidence=87.5, user_id="251008_0001"),
    t.FACE_STORED.suffix: m.FaceStored(user_name="Maya", user_id="251008_0001", status="face_stored"),
    t.SCENE_STORED.suffix: m.SceneStored(
        user_id="251008_0001", user_name="Maya", memorability=0.9, emotion_label="happy", intensity=0.9,
        description="a person smiling", user_message="I defended my PhD!", scene_type="moment",
    ),
    t.STORAGE_DECISION.suffix: m.StorageDecision(
        user_id="251008_0001", stored=False, memorability=0.2, threshold=0.5, reason="below threshold"
    ),
    t.VIEW_CAPTURED.suffix: m.ViewCaptured(path="/data/nadine_view/x.jpg", ok=True),
    t.LOOK_AT.suffix: m.LookAt(x=0.1, y=-0.2, z=1.3),
    t.USER_INFO.suffix: m.UserInfo(user_name="Maya", user_id="251008_0001"),
    t.CAPTURE_CURRENT_VIEW.suffix: m.CaptureRequest(value="/data/nadine_view/x.jpg"),
    t.AFFECT_STATE.suffix: m.AffectState(
        label="happy", arousal=0.6, intensity=0.7, user_label="happy", user_intensity=0.9,
        user_message="I defended my PhD!", suppress_storage=False,
    ),
    t.SPEAK.suffix: m.Speak(text="Hello Maya", locale="en-US"),
    t.ANIMATION.suffix: m.Animation(value="LOOKUP_Waving"),
    t.LOOK_AT_TARGET.suffix: m.LookAtTarget(value="Posture_LookAtZoom"),
    t.STOP_SPEAK.suffix: m.StopSpeak(value=""),
    t.START_SPEAK.suffix: m.SpeakFeedback(value="start_speak"),
    t.END_SPEAK.suffix: m.SpeakFeedback(value="end_speak"),
    t.FORGET_USER.suffix: m.ForgetUser(user_id="251008_0001"),
    t.FORGET_MEMORY.suffix: m.ForgetMemory(user_id="251008_0001", kind="moment", memory_id="scene_20251008_101500_a1b2c3"),
    t.USER_FORGOTTEN.suffix: m.UserForgotten(user_id="251008_0001", process="perception", removed={"scenes": 3}),
    t.USER_INPUT.suffix: m.UserInput(
        text="Do you remember?", turn_id="s1t2", is_recall=True,
        user_emotion=m.EmotionSignal(label="happy", intensity=0.4),
    ),
    t.EPISODE_SAVED.suffix: m.EpisodeSaved(user_id="251008_0001", session_id="a1b2c3d4e5f6", saved=True,
                                           reason="farewell", turn_id="s1t7"),
    t.CAMERA_STATUS.suffix: m.CameraStatus(source="missing.mp4", ok=False, error="video file missing.mp4 does not exist"),
    t.TURN_RESULT.suffix: m.TurnResult(
        text="hi", reply="Hello!", intent="first_greeting", is_recall=False, latency_s=0.1,
        retrieved=m.RetrievedScene(scene_id="scene_20260101_101010_abcdef", similarity=0.4, threshold=0.2,
                                   injected=True),
    ),
}


def test_every_topic_has_a_sample():
    assert {s.suffix for s in t.ALL_TOPICS} == set(SAMPLES)


@pytest.mark.parametrize("spec", t.ALL_TOPICS, ids=lambda s: s.suffix)
def test_round_trip_through_broker(spec, bus_factory):
    sender, receiver = bus_factory("sender"), bus_factory("receiver")
    rec = Recorder(receiver, spec)
    receiver.wait_connected(5)
    import time
    time.sleep(0.2)  # let the subscription reach the broker
    sender.publish(spec, SAMPLES[spec.suffix])
    assert rec.wait_for(timeout=5) == SAMPLES[spec.suffix]


def test_status_round_trip(bus_factory, root):
    watcher = bus_factory("watcher")
    rec = Recorder(watcher, t.status_spec("perception"))
    proc_bus = bus_factory("perception")
    assert rec.wait_for(lambda msg: msg.value == "online").value == "online"
    proc_bus.stop()
    assert rec.wait_for(lambda msg: msg.value == "offline").value == "offline"


def test_plain_string_wire_formats_are_plain():
    assert m.CaptureRequest(value="/tmp/a.jpg").encode() == b"/tmp/a.jpg"
    assert m.Animation(value="nod").encode() == b"nod"
    assert m.LookAtTarget(value="LOOKUPPostureDefault").encode() == b"LOOKUPPostureDefault"
    assert m.SpeakFeedback(value="end_speak").encode() == b"end_speak"


def test_speak_accepts_plain_text_and_json():
    assert m.Speak.decode(b"Hello there") == m.Speak(text="Hello there", locale="en-US")
    assert m.Speak.decode(json.dumps({"text": "Bonjour", "locale": "fr-FR"}).encode()).locale == "fr-FR"
    assert json.loads(m.Speak(text="Hi").encode()) == {"text": "Hi", "locale": "en-US"}


def test_null_user_detected_keeps_explicit_nulls():
    wire = json.loads(m.UserDetected(user_name=None, confidence=0.0, user_id=None).encode())
    assert wire == {"user_name": None, "confidence": 0.0, "user_id": None}


def test_old_affect_state_without_phd_fields_is_accepted():
    msg = m.AffectState.decode(b'{"label": "joy", "arousal": 0.4, "intensity": 0.5}')
    assert msg.user_intensity is None and msg.suppress_storage is False


@pytest.mark.parametrize(
    "model,payload,reason",
    [
        (m.AffectState, b"not json", "JSON"),
        (m.AffectState, b'["a list"]', "object"),
        (m.AffectState, b'{"label": "happy", "arousal": "high", "intensity": 0.5}', "arousal"),
        (m.AffectState, b'{"label": "happy", "arousal": 0.1}', "intensity"),
        (m.AffectState, b'{"label": "happy", "arousal": 0.1, "intensity": 7}', "intensity"),
        (m.UserDetected, b'{"user_name": 5, "confidence": 50, "user_id": null}', "user_name"),
        (m.UserInfo, b'{"user_name": "", "user_id": "x"}', "user_name"),
        (m.FaceStored, b'{"user_name": "a", "user_id": "b", "status": "weird"}', "status"),
        (m.ForgetUser, b"{}", "user_id"),
        (m.CaptureRequest, b"\xff\xfe\x00", "UTF-8"),
        (m.CaptureRequest, b"   ", "empty"),
        (m.Speak, b"\xff\xfe", "UTF-8"),
        (m.Speak, b'{"text": 3}', "text"),
        (m.UserInput, b"x" * (m.MAX_PAYLOAD_BYTES + 1), "exceeds"),
    ],
)
def test_malformed_payloads_are_refused_with_a_reason(model, payload, reason):
    with pytest.raises(PayloadError) as err:
        model.decode(payload)
    assert reason.lower() in str(err.value).lower()


def _raw_publish(broker, topic: str, payload: bytes) -> None:
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.connect(broker.host, broker.port)
    client.loop_start()
    client.publish(topic, payload, qos=1).wait_for_publish(5)
    client.loop_stop()
    client.disconnect()


@pytest.mark.parametrize(
    "spec,bad",
    [
        (t.USER_DETECTED, b"{"), (t.FACE_STORED, b'{"user_name": 1}'), (t.AFFECT_STATE, b"[]"),
        (t.USER_INFO, b'{"user_id": "x"}'), (t.CAPTURE_CURRENT_VIEW, b"\xff\xff"),
        (t.SPEAK, b'{"text": null}'), (t.VIEW_CAPTURED, b'{"ok": "yes"}'), (t.FORGET_USER, b"null"),
        (t.USER_INPUT, b'{"text": "' + b"a" * 1_100_000 + b'"}'), (t.SCENE_STORED, b"{}"),
    ],
    ids=lambda v: v.suffix if hasattr(v, "suffix") else "",
)
def test_bus_drops_malformed_payload_and_keeps_serving(spec, bad, bus_factory, broker, root):
    bus = bus_factory("victim")
    rec = Recorder(bus, spec)
    import time
    time.sleep(0.2)
    _raw_publish(broker, f"{root}/{spec.suffix}", bad)
    bus_factory("sender").publish(spec, SAMPLES[spec.suffix])
    assert rec.wait_for(timeout=5) == SAMPLES[spec.suffix]
    assert bus.drain(5)
    assert len(rec.messages) == 1  # the handler never saw the bad one
    assert bus.dropped[f"{root}/{spec.suffix}"] == 1


def test_handler_exception_does_not_stop_dispatch(bus_factory):
    bus = bus_factory("victim")
    seen = []

    def flaky(msg):
        seen.append(msg)
        if len(seen) == 1:
            raise RuntimeError("boom")

    bus.subscribe(t.ANIMATION, flaky)
    import time
    time.sleep(0.2)
    sender = bus_factory("sender")
    sender.publish(t.ANIMATION, m.Animation(value="nod"))
    sender.publish(t.ANIMATION, m.Animation(value="shake"))
    deadline = time.monotonic() + 5
    while len(seen) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [s.value for s in seen] == ["nod", "shake"]
    assert sum(bus.handler_errors.values()) == 1


def test_wrong_model_for_topic_is_a_programming_error(bus_factory):
    with pytest.raises(TypeError):
        bus_factory().publish(t.SPEAK, m.Animation(value="nod"))
