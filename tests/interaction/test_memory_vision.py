"""Vision agent over a real Mosquitto: CAPTURE_CURRENT_VIEW answered by a perception stand-in that
writes a real JPEG file, the offline captioner answering, observation scenes stored by the rules."""

from __future__ import annotations

import logging
import shutil
import threading
import time
from pathlib import Path

import pytest

from common import topics as t
from common.bus import Bus
from common.messages import CaptureRequest, UserInput, ViewCaptured
from common.store.scenes import SceneStore
from common.topics import Topics
from interaction.memory.local_services import LocalMemoryServices
from tests.interaction.memory_fixtures import jpeg, layout_and_clock, make_settings

MAYA = "251008_0001"
OFFLINE_VISION = "interaction.llm.agents.vision_description=offline"


class PerceptionStandIn:
    """Answers capture requests the way perception does: write the frame, then publish view_captured."""

    def __init__(self, bus, source: Path, ok: bool = True) -> None:
        self.bus, self.source, self.ok = bus, source, ok
        self.requests: list[str] = []
        bus.subscribe(t.CAPTURE_CURRENT_VIEW, self._on_capture)

    def _on_capture(self, msg: CaptureRequest) -> None:
        self.requests.append(msg.value)
        if self.ok:
            shutil.copyfile(self.source, msg.value)
            self.bus.publish(t.VIEW_CAPTURED, ViewCaptured(path=msg.value, ok=True))
        else:
            self.bus.publish(t.VIEW_CAPTURED, ViewCaptured(path=msg.value, ok=False, error="camera closed"))


@pytest.fixture
def frame(tmp_path) -> Path:
    path = tmp_path / "frame.jpg"
    path.write_bytes(jpeg(seed=3, size=240))
    return path


def _services(tmp_path, bus, *overrides):
    layout, clock = layout_and_clock(tmp_path / "data")
    settings = make_settings(tmp_path / "data", OFFLINE_VISION, *overrides)
    return LocalMemoryServices(settings, layout, clock, bus), layout


def test_look_answers_and_stores_an_observation_scene(tmp_path, bus_factory, frame):
    perception = PerceptionStandIn(bus_factory("perception"), frame)
    services, layout = _services(tmp_path, bus_factory("interaction"))
    question = "What do you think of my new shirt?"
    answer = services.look(question, MAYA, is_recall=False)
    assert answer and not answer.startswith("Sorry") and perception.requests
    assert Path(perception.requests[0]).parent == layout.captures_dir
    scenes = SceneStore(layout).list(MAYA)
    assert len(scenes) == 1
    scene = scenes[0]
    assert (scene.scene_type, scene.user_message, scene.description) == ("observation", question, answer)
    assert Path(scene.image_path).read_bytes() == frame.read_bytes()
    assert SceneStore(layout).load_embedding(MAYA, scene.scene_id) is None  # no image embedding
    hit = services.retrieve(MAYA, "Do you remember my new shirt?", is_recall=True).scene
    assert hit.scene_id == scene.scene_id and hit.injected


@pytest.mark.parametrize("question,user_id,is_recall", [
    ("What do you see?", MAYA, False),  # nothing specific pointed at
    ("Look at my shirt!", MAYA, True),  # a recall turn
    ("Look at my shirt!", None, False),  # nobody identified
])
def test_look_does_not_store_when_the_rules_say_no(tmp_path, bus_factory, frame, question, user_id, is_recall):
    PerceptionStandIn(bus_factory("perception"), frame)
    services, layout = _services(tmp_path, bus_factory("interaction"))
    assert services.look(question, user_id, is_recall)
    assert SceneStore(layout).list(MAYA) == []


def test_visual_memory_off_stores_nothing(tmp_path, bus_factory, frame):
    PerceptionStandIn(bus_factory("perception"), frame)
    services, layout = _services(tmp_path, bus_factory("interaction"), "common.enable_visual_memory=false")
    assert not services.look("Look at my shirt!", MAYA, False).startswith("Sorry")
    assert SceneStore(layout).list(MAYA) == []


def test_capture_failure_and_timeout_answer_sorry_and_store_nothing(tmp_path, bus_factory, frame):
    PerceptionStandIn(bus_factory("perception"), frame, ok=False)
    services, layout = _services(tmp_path, bus_factory("interaction"), "interaction.vision_capture_timeout_s=0.5")
    assert services.look("Look at my shirt!", MAYA, False).startswith("Sorry")
    silent, layout2 = _services(tmp_path / "other", bus_factory("lonely"), "interaction.vision_capture_timeout_s=0.5")
    start = time.monotonic()
    assert silent.look("Look at my shirt!", MAYA, False).startswith("Sorry")
    assert time.monotonic() - start < 2.0
    assert SceneStore(layout).list(MAYA) == [] and SceneStore(layout2).list(MAYA) == []


def test_capture_on_the_dispatcher_thread_is_refused(tmp_path, broker, root, bus_factory, frame, caplog, request):
    PerceptionStandIn(bus_factory("perception"), frame)
    results, done = [], threading.Event()

    def handler(msg):
        results.append(services.vision.capture())
        done.set()

    # subscribed before it connects: start() returns once the broker acknowledged the subscriptions,
    # so the publish below cannot overtake them on a loaded machine
    bus = Bus("interaction", broker.mqtt_settings(), Topics(root))
    bus.subscribe(t.USER_INPUT, handler)
    services, _ = _services(tmp_path, bus)
    assert bus.start(wait_s=10)
    request.addfinalizer(bus.stop)
    with caplog.at_level(logging.ERROR):
        bus_factory("client").publish(t.USER_INPUT, UserInput(text="look at this"))
        assert done.wait(5)
    assert results == [None] and "dispatcher thread" in caplog.text
