"""A running `python -m interaction` driven the way perception and a user would drive it."""

from __future__ import annotations

import itertools
from pathlib import Path

from common import topics as t
from common.bus import Bus
from common.clock import Clock
from common.messages import EmotionSignal, SceneStored, TurnResult, UserDetected, UserInput
from common.store import DataLayout, ProfileStore, SceneMetadata, SceneStore, new_scene_id
from tests.support import Broker, NadineProcess, Recorder, make_bus, process_env, unique_root

_turns = itertools.count(1)


def tiny_jpeg() -> bytes:
    import cv2
    import numpy as np

    ok, buf = cv2.imencode(".jpg", np.full((32, 32, 3), 128, np.uint8))
    assert ok
    return buf.tobytes()


class Interaction:
    def __init__(self, broker: Broker, tmp: Path, args: list[str] | None = None, online_s: float = 60.0,
                 **env: str) -> None:
        self.root = unique_root()
        self.data = tmp / "data"
        self.layout = DataLayout(self.data)
        self.bus: Bus = make_bus("tester", broker, self.root)
        self.rec = {spec: Recorder(self.bus, spec) for spec in (
            t.TURN_RESULT, t.AFFECT_STATE, t.SPEAK, t.USER_INFO, t.ANIMATION, t.EPISODE_SAVED)}
        online = Recorder(self.bus, t.status_spec("interaction"))
        # nobody() means the person left for good unless a test sets a presence grace period
        env = {"NADINE_PRESENCE_GRACE_S": "0", **env}
        self.proc = NadineProcess("interaction", process_env(broker, self.root, self.data, tmp / "logs", **env), args)
        online.wait_for(lambda m: m.value == "online", timeout=online_s)

    def say(self, text: str, timeout: float = 30.0, **pins) -> TurnResult:
        turn_id = f"t{next(_turns)}"
        if isinstance(pins.get("user_emotion"), dict):
            pins["user_emotion"] = EmotionSignal(**pins["user_emotion"])
        self.bus.publish(t.USER_INPUT, UserInput(text=text, turn_id=turn_id, **pins))
        return self.rec[t.TURN_RESULT].wait_for(lambda m: m.turn_id == turn_id, timeout)

    def affect_of(self, turn: TurnResult):
        return self.rec[t.AFFECT_STATE].wait_for(lambda m: m.turn_id == turn.turn_id)

    def detect(self, user_id: str | None, user_name: str | None) -> None:
        self.bus.publish(t.USER_DETECTED, UserDetected(user_name=user_name, confidence=90.0 if user_id else 0.0,
                                                        user_id=user_id))

    def nobody(self) -> None:
        """Perception's all-null message: the person left, the session closes."""
        self.detect(None, None)

    def raw(self, spec: t.TopicSpec, payload: bytes) -> None:
        self.bus._client.publish(self.bus.topics(spec), payload, qos=1)

    def make_user(self, name: str, **facts) -> str:
        store = ProfileStore(self.layout)
        clock = Clock(self.layout.runtime_dir)
        uid = store.mint_user_id(name, clock.now())
        store.update(uid, {"user_name": name, **facts}, clock.now())
        return uid

    def make_scene(self, user_id: str, user_message: str, description: str) -> SceneMetadata:
        """Store a moment scene as perception would, and announce it (SCENE_STORED)."""
        now = Clock(self.layout.runtime_dir).now()
        meta = SceneMetadata(scene_id=new_scene_id(now), timestamp=now.isoformat(timespec="seconds"),
                             image_path="", memorability=0.9, emotion_label="happy", intensity=0.9,
                             description=description, user_message=user_message, scene_type="moment")
        meta = SceneStore(self.layout).write(user_id, meta, tiny_jpeg())
        self.bus.publish(t.SCENE_STORED, SceneStored(
            user_id=user_id, user_name="", memorability=0.9, emotion_label="happy", intensity=0.9,
            description=description, user_message=user_message, scene_type="moment", scene_id=meta.scene_id,
            image_path=meta.image_path))
        return meta

    def stop(self) -> None:
        self.proc.stop()
        self.bus.stop()
