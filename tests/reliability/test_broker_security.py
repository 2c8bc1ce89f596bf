"""The secured broker example: passwords, per-process ACLs, TLS with a throwaway CA."""

from __future__ import annotations

import time

import paho.mqtt.client as mqtt
import pytest

from common import messages as m
from common import topics as t
from common.bus import Bus
from common.topics import Topics
from tests.reliability.secure_broker import EXAMPLE, SecureBroker, make_ca
from tests.support import Recorder, unique_root


@pytest.fixture(scope="module")
def secure(tmp_path_factory):
    root = unique_root()
    broker = SecureBroker(tmp_path_factory.mktemp("secure-broker"), root).start()
    yield broker, root
    broker.stop()


def connect(made: list[Bus], name: str, settings, root: str, wait_s: float = 5) -> tuple[Bus, bool]:
    bus = Bus(name, settings, Topics(root))
    made.append(bus)
    return bus, bus.start(wait_s=wait_s)


def affect(text: str) -> m.AffectState:
    return m.AffectState(label="happy", arousal=0.5, intensity=0.8, user_message=text)


@pytest.mark.parametrize("user,password", [("perception", "wrong"), ("nobody", "pw"), (None, None)])
def test_wrong_or_missing_credentials_are_refused(secure, buses, user, password):
    broker, root = secure
    _, ok = connect(buses, "intruder", broker.settings(user, password), root, wait_s=2)
    assert not ok


def test_each_process_publishes_only_inside_its_acl(secure, buses):
    broker, root = secure
    operator, ok_op = connect(buses, "operator", broker.settings("operator"), root)
    control, ok_c = connect(buses, "control", broker.settings("control"), root)
    interaction, ok_i = connect(buses, "interaction", broker.settings("interaction"), root)
    assert ok_op and ok_c and ok_i
    seen_by_operator = Recorder(operator, t.AFFECT_STATE)
    seen_by_control = Recorder(control, t.AFFECT_STATE)  # control may not even read affect/state
    speak = Recorder(control, t.SPEAK)
    time.sleep(0.3)

    control.publish(t.AFFECT_STATE, affect("forged by control")).wait_for_publish(2)
    interaction.publish(t.AFFECT_STATE, affect("from interaction")).wait_for_publish(2)
    interaction.publish(t.SPEAK, m.Speak(text="hello")).wait_for_publish(2)

    assert seen_by_operator.wait_for(lambda msg: msg.user_message == "from interaction").intensity == 0.8
    assert speak.wait_for().text == "hello"  # inside control's ACL: delivered
    time.sleep(0.5)
    assert [x.user_message for x in seen_by_operator.messages] == ["from interaction"]
    assert seen_by_control.messages == []


def test_status_and_last_will_are_allowed(secure, buses):
    broker, root = secure
    operator, _ = connect(buses, "operator", broker.settings("operator"), root)
    statuses: list[tuple[str, str]] = []
    operator.subscribe_tree("status/+", lambda spec, msg: statuses.append((spec.suffix, msg.value)))
    _, ok = connect(buses, "perception", broker.settings("perception"), root)
    assert ok
    deadline = time.monotonic() + 5
    while ("status/perception", "online") not in statuses and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ("status/perception", "online") in statuses


def test_tls_connects_with_the_test_ca_and_refuses_another(secure, buses, tmp_path):
    broker, root = secure
    receiver, ok_r = connect(buses, "operator", broker.settings("operator", tls=True), root)
    sender, ok_s = connect(buses, "interaction", broker.settings("interaction", tls=True), root)
    assert ok_r and ok_s
    rec = Recorder(receiver, t.AFFECT_STATE)
    time.sleep(0.2)
    sender.publish(t.AFFECT_STATE, affect("over TLS"))
    assert rec.wait_for().user_message == "over TLS"

    stranger_ca = make_ca(tmp_path, "stranger")
    _, ok = connect(buses, "operator", broker.settings("operator", tls=True, ca=stranger_ca), root, wait_s=2)
    assert not ok


@pytest.mark.slow
@pytest.mark.shared_data
def test_the_real_processes_work_inside_their_acl(secure, buses, tmp_path, shared_data):
    """Each process with its own credentials: a whole introduction and a stored moment go through."""
    from common.messages import EmotionSignal, UserInput
    from scripts.runner.camera import CameraFeeder
    from tests.support import NadineProcess, process_env

    broker, root = secure
    camera = CameraFeeder(tmp_path / "camera")
    procs = []
    try:
        operator, _ = connect(buses, "operator", broker.settings("operator"), root)
        rec = {spec: Recorder(operator, spec) for spec in (t.TURN_RESULT, t.FACE_STORED, t.STORAGE_DECISION,
                                                            t.START_SPEAK, t.USER_DETECTED)}
        online = {name: Recorder(operator, t.status_spec(name)) for name in ("perception", "interaction", "control")}
        for name in online:
            env = process_env(broker.broker, root, tmp_path / "data", tmp_path / "logs", NADINE_TTS="none",
                              NADINE_CAMERA=f"watch:{tmp_path / 'camera'}", NADINE_MQTT_USERNAME=name,
                              NADINE_MQTT_PASSWORD=broker.pw[name])
            procs.append(NadineProcess(name, env, ["--config-override", "perception.faces.no_face_timeout_s=1.5"]))
        for rec_online in online.values():
            rec_online.wait_for(lambda m: m.value == "online", timeout=90)
        camera.show([shared_data / "faces" / "df_a_01.jpg"])
        rec[t.USER_DETECTED].wait_for(lambda m: m.user_name == "Unknown", timeout=30)
        operator.publish(t.USER_INPUT, UserInput(text="Hello! My name is Maya.", turn_id="acl-1"))
        assert rec[t.TURN_RESULT].wait_for(lambda m: m.turn_id == "acl-1", timeout=30).reply
        rec[t.FACE_STORED].wait_for(timeout=30)  # interaction -> user_info -> perception -> face_stored
        operator.publish(t.USER_INPUT, UserInput(text="I won the chess final today!", turn_id="acl-2",
                                                 user_emotion=EmotionSignal(label="happy", intensity=0.95)))
        assert rec[t.STORAGE_DECISION].wait_for(lambda m: m.turn_id == "acl-2", timeout=60).stored
        rec[t.START_SPEAK].wait_for(timeout=30)  # interaction -> speak -> control -> start_speak
    finally:
        camera.close()
        for proc in procs:
            proc.stop()


def test_the_acl_example_covers_every_topic():
    """Every topic of common/topics.py is published by some process and read by some process,
    except what only the lab's tools (the operator user) type or read."""
    rules = [line.split() for line in (EXAMPLE.parent / "mosquitto.acl.example").read_text().splitlines()
             if line.startswith("topic ") and not line.rstrip().endswith("nadine/#")]

    def granted(access: str, suffix: str) -> bool:
        return any(a in (access, "readwrite") and mqtt.topic_matches_sub(pattern, f"nadine/{suffix}")
                   for _, a, pattern in rules)

    typed_by_tools = {t.USER_INPUT}
    # the chat, inspector, start script and monitors (EPISODE_SAVED: that a conversation's episode is kept)
    read_by_tools = {t.TURN_RESULT, t.USER_FORGOTTEN, t.CAMERA_STATUS, t.EPISODE_SAVED}
    for spec in t.ALL_TOPICS:
        assert spec in typed_by_tools or granted("write", spec.suffix), f"no process may publish {spec.suffix}"
        assert spec in read_by_tools or granted("read", spec.suffix), f"no process may read {spec.suffix}"
