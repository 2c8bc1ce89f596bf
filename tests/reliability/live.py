"""The whole suite (common.supervisor.suite.Suite) on a test broker, with a watched camera folder fed by the
runner's CameraFeeder and a test bus that talks to it the way the script runner does."""

from __future__ import annotations

import uuid
from pathlib import Path

from common import topics as t
from common.messages import EmotionSignal, TurnResult, UserInput
from common.store import DataLayout
from common.supervisor.suite import Suite
from scripts.runner.camera import CameraFeeder
from tests.support import Broker, Recorder, make_bus, unique_root

FAST = (
    "perception.faces.no_face_timeout_s=1.5", "perception.faces.announce_period_s=1.0",
    "perception.faces.registration_wait_s=3.0", "perception.selective_memory.decision_wait_s=3.0",
    "perception.camera.retry_s=0.5", "interaction.presence_grace_s=0",
)
WATCHED = (t.USER_DETECTED, t.FACE_STORED, t.SCENE_STORED, t.STORAGE_DECISION, t.TURN_RESULT, t.EPISODE_SAVED,
           t.USER_FORGOTTEN, t.START_SPEAK)


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class LiveSuite:
    def __init__(self, broker: Broker, tmp: Path, overrides: tuple[str, ...] = (), env: dict | None = None,
                 mqtt_extra: dict | None = None, root: str | None = None) -> None:
        self.root = root or unique_root()
        self.data = tmp / "data"
        self.layout = DataLayout(self.data)
        self.camera = CameraFeeder(tmp / "camera")
        self.suite = Suite(self.data, tmp / "logs", [f"perception.camera.source=watch:{tmp / 'camera'}", *FAST,
                                                     *overrides],
                           env={"NADINE_TTS": "none", **(env or {})}, topic_root=self.root,
                           broker=(broker.host, broker.port))
        self.broker = broker
        self.suite.start(online_timeout_s=120)
        self.bus = make_bus("tester", broker, self.root)
        self.rec = {spec: Recorder(self.bus, spec) for spec in WATCHED}

    def pids(self) -> dict[str, int]:
        return {name: p.pid for name, p in self.suite.procs.items()}

    def rss(self) -> dict[str, int]:
        return {name: rss_kb(pid) for name, pid in self.pids().items()}

    def say(self, text: str, timeout: float = 30.0, emotion: tuple[str, float] | None = None, **pins) -> TurnResult:
        turn_id = uuid.uuid4().hex[:12]
        signal = EmotionSignal(label=emotion[0], intensity=emotion[1]) if emotion else None
        self.bus.publish(t.USER_INPUT, UserInput(text=text, turn_id=turn_id, user_emotion=signal, **pins))
        return self.rec[t.TURN_RESULT].wait_for(lambda m: m.turn_id == turn_id, timeout)

    def decision(self, turn_id: str, timeout: float = 45.0):
        return self.rec[t.STORAGE_DECISION].wait_for(lambda m: m.turn_id == turn_id, timeout)

    def stop(self) -> None:
        self.camera.close()
        self.bus.stop()
        self.suite.stop()
