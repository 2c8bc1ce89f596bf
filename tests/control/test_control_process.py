"""python -m control against a real broker: speech feedback timing, stop_speak, bad input, drivers."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from common import topics as t
from common.config.control_settings import TtsSettings
from common.messages import Animation, LookAt, LookAtTarget, Speak, StopSpeak
from control.tts import EspeakTts
from tests.support import PROJECT_ROOT, NadineProcess, Recorder, make_bus, process_env, unique_root

# Arrival times are taken here, after the broker: small MQTT packets can each be held up to ~40 ms
# (Nagle / delayed ACK), so the two feedback messages' gap is measured with that much slack.
JITTER_S = 0.1
SENTENCE = "Hello Eileen, it is lovely to see you again. How have you been since we last met?"


@pytest.fixture(scope="module")
def control(broker, tmp_path_factory):
    root = unique_root()
    tmp = tmp_path_factory.mktemp("control")
    env = process_env(broker, root, tmp / "data", tmp / "logs", NADINE_TTS="espeak", NADINE_ROBOT_DRIVER="simulated")
    bus = make_bus("tester", broker, root)
    status = Recorder(bus, t.status_spec("control"))
    proc = NadineProcess("control", env)
    try:
        status.wait_for(lambda m: m.value == "online", timeout=30)
        yield proc, bus
    finally:
        bus.stop()
        assert proc.stop() == 0, proc.log_text()[-2000:]


@pytest.fixture
def feedback(control):
    proc, bus = control
    start, end = Recorder(bus, t.START_SPEAK), Recorder(bus, t.END_SPEAK)
    time.sleep(0.2)  # let the subscriptions reach the broker
    return bus, start, end


def wav_length(text: str, tmp_path: Path) -> float:
    return EspeakTts(TtsSettings()).synthesize(text, "en-US", tmp_path / "ref.wav").duration_s


def test_speak_feedback_waits_for_the_whole_wav(feedback, tmp_path):
    bus, start, end = feedback
    length = wav_length(SENTENCE, tmp_path)
    assert length > 3.0
    bus.publish(t.SPEAK, Speak(text=SENTENCE, locale="en-US"))
    start.wait_for(timeout=10)
    end.wait_for(timeout=length + 10)
    assert [m.value for m in start.messages] == ["start_speak"]
    assert [m.value for m in end.messages] == ["end_speak"]
    assert end.arrivals[0] - start.arrivals[0] >= length - JITTER_S


def test_plain_text_speak_and_queueing_keep_order(feedback, tmp_path):
    bus, start, end = feedback
    first, second = "One moment please.", "Now I am ready."
    bus._client.publish(bus.topics(t.SPEAK), first.encode(), qos=1)  # plain text, as [L] sends it
    bus.publish(t.SPEAK, Speak(text=second, locale="fr-FR"))
    end.wait_for(lambda m: len(end.messages) >= 2, timeout=20)
    events = sorted([(at, "start") for at in start.arrivals] + [(at, "end") for at in end.arrivals])
    assert [kind for _, kind in events] == ["start", "end", "start", "end"]
    assert end.arrivals[0] - start.arrivals[0] >= wav_length(first, tmp_path) - JITTER_S


def test_stop_speak_interrupts_then_sends_end_speak(feedback, tmp_path):
    bus, start, end = feedback
    length = wav_length(SENTENCE, tmp_path)
    bus.publish(t.SPEAK, Speak(text=SENTENCE))
    start.wait_for(timeout=10)
    bus.publish(t.STOP_SPEAK, StopSpeak(value=""))
    end.wait_for(timeout=5)
    assert end.arrivals[0] - start.arrivals[0] < length - 1.0


def test_unknown_animation_and_bad_payloads_are_logged_and_control_keeps_serving(control, feedback):
    proc, _ = control
    bus, start, end = feedback
    bus.publish(t.ANIMATION, Animation(value="moonwalk"))
    bus._client.publish(bus.topics(t.LOOK_AT), b'{"x": "left"}', qos=0)
    bus.publish(t.LOOK_AT_TARGET, LookAtTarget(value="Posture_Nowhere"))
    for name in ("nod", "LOOKUP_Waving", "shakehand_TwoArgGesture"):
        bus.publish(t.ANIMATION, Animation(value=name))
    bus.publish(t.LOOK_AT_TARGET, LookAtTarget(value="Posture_LookAtInterviewer"))
    bus.publish(t.LOOK_AT, LookAt(x=0.2, y=0.0, z=1.0))
    bus.publish(t.LOOK_AT_TARGET, LookAtTarget(value="LOOKUPPostureDefault"))
    bus.publish(t.SPEAK, Speak(text="Still here."))
    end.wait_for(timeout=15)
    assert proc.proc.poll() is None
    log = proc.log_text()
    assert "unknown animation 'moonwalk' ignored" in log
    assert "unknown gaze posture 'Posture_Nowhere' ignored" in log
    assert "dropped message on" in log and "agent/control/look_at" in log
    assert "gaze posture Posture_LookAtInterviewer (latched)" in log
    assert "gaze posture LOOKUPPostureDefault (latch cleared)" in log
    assert "joints " in log  # the simulated driver shows the moves


def _run_control(tmp_path: Path, **env_extra: str) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "NADINE_LOG_DIR": str(tmp_path / "logs"),
           "NADINE_DATA_DIR": str(tmp_path / "data"), "NADINE_MQTT_FALLBACK_HOST": "", **env_extra}
    return subprocess.run([sys.executable, "-m", "control"], cwd=PROJECT_ROOT, env=env, capture_output=True,
                          text=True, timeout=30)


def test_serial_driver_without_port_refuses_with_the_fix(tmp_path):
    out = _run_control(tmp_path, NADINE_ROBOT_DRIVER="serial")
    assert out.returncode == 2
    assert "serial robot driver needs a port" in out.stderr
    assert "NADINE_SERIAL_PORT" in out.stderr


def test_missing_espeak_refuses_with_the_fix(tmp_path):
    out = _run_control(tmp_path, PATH=str(tmp_path))  # no espeak-ng on this PATH
    assert out.returncode == 2
    assert "espeak-ng is not installed" in out.stderr and "NADINE_TTS=none" in out.stderr
