"""Animation library, motion, gaze latch and drivers as units (no broker)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from common.config.control_settings import DriverSettings, MotionSettings, TtsSettings
from control.animations import AnimationLibrary
from control.body import Body
from control.driver import DriverError, SerialDriver, SimulatedDriver, make_driver
from control.joints import JOINTS
from control.motion import Motion
from control.tts import EspeakTts
from tests.support import PROJECT_ROOT

LIBRARY = PROJECT_ROOT / "control" / "animations"
SHIPPED = {"LOOKUP_Waving", "LOOKUPPostureDefault", "nod", "shake", "blink", "Posture_LookAtInterviewer",
           "Posture_LookAtZoom", "shakehand_TwoArgGesture"}


def make_body() -> Body:
    motion = Motion(SimulatedDriver(DriverSettings()), 0.03)
    return Body(motion, AnimationLibrary.load(LIBRARY), MotionSettings())


def settle(body: Body, seconds: float = 5.0) -> dict[str, float]:
    return body.motion.step(time.monotonic() + seconds)


def test_shipped_library_defines_the_reference_names():
    assert SHIPPED <= set(AnimationLibrary.load(LIBRARY).names())


def test_bad_animation_files_are_skipped_with_a_reason(tmp_path: Path, caplog):
    (tmp_path / "a.xml").write_text("<animation><animation_name>ok</animation_name>"
                                    "<frame t='0.2'><joint name='head_yaw'>10</joint></frame></animation>")
    (tmp_path / "b.xml").write_text("<animation><animation_name>bad")
    (tmp_path / "c.xml").write_text("<animation><animation_name>tail</animation_name>"
                                    "<frame t='0'><joint name='tail'>1</joint></frame></animation>")
    (tmp_path / "d.xml").write_text("<animation><animation_name>ok</animation_name>"
                                    "<frame t='0'><joint name='mouth'>1</joint></frame></animation>")
    lib = AnimationLibrary.load(tmp_path)
    assert lib.names() == ["ok"]
    assert "not well-formed" in caplog.text and "unknown joint 'tail'" in caplog.text
    assert "already defined" in caplog.text


def test_gesture_plays_and_returns_to_rest():
    body = make_body()
    assert body.play_animation("LOOKUP_Waving")
    mid = body.motion.step(time.monotonic() + 0.6)
    assert mid["r_shoulder"] > 60
    assert settle(body)["r_shoulder"] == 0.0
    assert not body.play_animation("moonwalk")


def test_latched_posture_suppresses_look_at_until_default_clears_it():
    body = make_body()
    assert body.look_at_target("Posture_LookAtZoom")
    assert body.latched == "Posture_LookAtZoom"
    assert not body.look_at(0.5, 0.0, 1.0)
    assert settle(body)["head_yaw"] > 10
    body.look_at_target("LOOKUPPostureDefault")
    assert body.latched is None
    settle(body)
    assert body.look_at(-0.5, 0.1, 1.0)
    pose = settle(body)
    assert pose["head_yaw"] < -10 and pose["eye_yaw"] < 0 and pose["head_pitch"] > 0


def test_nod_suppresses_look_at_until_the_head_is_idle_and_is_not_dropped_by_tracking():
    body = make_body()
    assert body.look_at(0.1, 0.0, 1.0)  # the face tracker just moved the head
    body.play_animation("nod")
    assert not body.look_at(0.3, 0.0, 1.0)
    assert body.motion.step(time.monotonic() + 0.25)["head_pitch"] > 5  # the nod plays
    settle(body)
    assert body.look_at(0.3, 0.0, 1.0)


def test_motion_loop_drives_the_driver_and_blinks_when_idle():
    frames: list[dict[str, float]] = []

    class Capture(SimulatedDriver):
        def send(self, frame):
            frames.append(frame)

    motion = Motion(Capture(DriverSettings()), 0.01)
    body = Body(motion, AnimationLibrary.load(LIBRARY), MotionSettings(idle_blink_s=0.1))
    motion.start(on_frame=body.idle_tick)
    time.sleep(0.5)
    motion.stop()
    assert len(frames) > 10
    assert min(f["eyelids"] for f in frames) < 0.9
    assert all(set(f) == {j.name for j in JOINTS} for f in frames)


def test_serial_driver_needs_a_port_and_pyserial():
    with pytest.raises(DriverError, match="needs a port"):
        make_driver(DriverSettings(kind="serial"))
    driver = SerialDriver(DriverSettings(kind="serial", serial_port="/dev/ttyNADINE"))
    try:
        import serial  # noqa: F401
    except ImportError:
        with pytest.raises(DriverError, match="pip install pyserial"):
            driver.start()
    else:
        with pytest.raises(DriverError, match="cannot open serial port /dev/ttyNADINE"):
            driver.start()
    packet = SerialDriver.packet({"head_yaw": 60.0, "mouth": 0.0})
    assert packet[0] == 0xFF and len(packet) == 1 + len(JOINTS) and packet[1] == 254


def test_voice_follows_the_locale():
    tts = EspeakTts(TtsSettings(voices={"en": "en-us", "fr": "fr-fr", "en-GB": "en-gb"}))
    assert tts.voice_for("fr-CA") == "fr-fr"
    assert tts.voice_for("en-GB") == "en-gb"
    assert tts.voice_for("xx-YY") == "en-us"


def test_utterance_starting_with_a_dash_is_spoken_not_parsed(tmp_path):
    utt = EspeakTts(TtsSettings()).synthesize("-v is not an option here", "en-US", tmp_path / "x.wav")
    assert utt.duration_s > 0.5
