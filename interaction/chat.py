"""Chat mode: python -m interaction.chat. Type a line, it goes out as USER_INPUT, the reply from
TURN_RESULT is printed, and under it what memory did with the turn (common/turn_notes.py): what was
recalled and the scores that decided it, what a memory request did, what was stored (first-meeting
scene, moment, text-only without a camera view) or not and why. The first line says what camera
perception has, as it reports it on the bus; it joins a running suite (start_nadine.sh --chat starts one)."""

from __future__ import annotations

import argparse
import sys
import threading
import uuid

from common import topics as t
from common.bus import Bus
from common.config import ConfigError, load_settings
from common.messages import CameraStatus, SceneStored, StorageDecision, TurnResult, UserInput
from common.topics import Topics
from common.turn_notes import turn_notes

REPLY_TIMEOUT_S = 120.0
READY_TIMEOUT_S = 90.0  # interaction loads its models before it subscribes
CAMERA_TIMEOUT_S = 10.0  # perception publishes its camera status after its first frame attempt
DECISION_GRACE_S = 3.0  # beyond perception's decision_wait_s (a camera that sees nobody waits that long)
QUIT_COMMANDS = ("/quit", "/exit")
HELP = ("Type to talk with Nadine; an empty line is skipped. /quit (or Ctrl-D) ends the chat. Under each reply: "
        "what memory did with the turn.")


def camera_line(status: CameraStatus | None, perception_online: bool) -> str:
    """Who can see what, as perception reports it on the bus (retained status/perception/camera)."""
    if not perception_online or status is None:
        return ("camera: unknown (perception is not running); identity is by name only until it reports a camera")
    if status.ok:
        return f"camera: on ({status.source}); Nadine recognises faces and tells people apart by them"
    return (f"camera: off ({status.source}: {status.error or 'not delivering'}); identity is by name only: the name "
            "you give is who you are to Nadine (she cannot check it by face, so a name links its memories), and "
            "what you say is remembered as text-only moments")


def memory_lines(result: TurnResult, decision: StorageDecision | None,
                 scenes: list[SceneStored] | None = None) -> list[str]:
    """What memory did with one turn, indented under the reply."""
    return [f"  {line}" for line in turn_notes(result, decision, scenes or [])]


def circuit_line(before: set[str], now: set[str]) -> str | None:
    """Said once when a language model stops answering (replies are offline) and once when it is back."""
    opened, closed = sorted(now - before), sorted(before - now)
    if opened:
        return f"(the language model at {', '.join(opened)} does not answer: replies are offline until it does)"
    if closed:
        return f"(the language model at {', '.join(closed)} answers again: replies use it again)"
    return None


class ChatClient:
    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._replies: dict[str, TurnResult] = {}
        self._decisions: dict[str, StorageDecision] = {}
        self._scenes: dict[str, list[SceneStored]] = {}
        self._cond = threading.Condition()
        self.interaction_online = threading.Event()
        self.perception_online = False
        self.perception_known = threading.Event()  # its retained status arrived (online or offline)
        self.camera: CameraStatus | None = None
        self.camera_known = threading.Event()
        bus.subscribe(t.TURN_RESULT, self._on_result)
        bus.subscribe(t.STORAGE_DECISION, self._on_decision)
        bus.subscribe(t.SCENE_STORED, self._on_scene)
        bus.subscribe(t.CAMERA_STATUS, self._on_camera)
        # retained status: a message sent before interaction subscribes would be lost, so wait for it
        bus.subscribe(t.status_spec("interaction"), self._on_status)
        bus.subscribe(t.status_spec("perception"), self._on_perception)

    def _on_status(self, msg) -> None:
        if msg.value == "online":
            self.interaction_online.set()
        else:
            self.interaction_online.clear()

    def _on_perception(self, msg) -> None:
        self.perception_online = msg.value == "online"
        self.perception_known.set()

    def _on_camera(self, msg: CameraStatus) -> None:
        self.camera = msg
        self.camera_known.set()

    def _on_result(self, msg: TurnResult) -> None:
        with self._cond:
            if msg.turn_id:
                self._replies[msg.turn_id] = msg
                self._cond.notify_all()

    def _on_decision(self, msg: StorageDecision) -> None:
        with self._cond:
            if msg.turn_id:
                self._decisions[msg.turn_id] = msg
                self._cond.notify_all()

    def _on_scene(self, msg: SceneStored) -> None:
        with self._cond:
            if msg.turn_id:
                self._scenes.setdefault(msg.turn_id, []).append(msg)

    def decision(self, turn_id: str | None, timeout: float) -> tuple[StorageDecision | None, list[SceneStored]]:
        """Perception's storage decision for the turn (every affect event gets exactly one), and the
        scenes stored for it (the first-meeting scene comes before the turn's decision)."""
        with self._cond:
            self._cond.wait_for(lambda: turn_id in self._decisions, timeout)
            return self._decisions.pop(turn_id, None), self._scenes.pop(turn_id or "", [])

    def say(self, text: str, timeout: float = REPLY_TIMEOUT_S) -> TurnResult | None:
        turn_id = f"chat-{uuid.uuid4().hex[:10]}"
        self.bus.publish(t.USER_INPUT, UserInput(text=text, turn_id=turn_id))
        with self._cond:
            self._cond.wait_for(lambda: turn_id in self._replies, timeout)
            return self._replies.pop(turn_id, None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m interaction.chat", description=__doc__)
    parser.add_argument("--config-override", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    try:
        settings = load_settings(overrides=args.config_override)
    except ConfigError as exc:
        print(f"chat: {exc}", file=sys.stderr)
        return 2
    bus = Bus("chat", settings.common.mqtt, Topics(settings.common.topic_root))
    client = ChatClient(bus)
    if not bus.start():
        print("chat: no MQTT broker answers; is the suite running (./start_nadine.sh)?", file=sys.stderr)
    if not client.interaction_online.wait(READY_TIMEOUT_S):
        print(f"chat: interaction is not online after {READY_TIMEOUT_S:.0f} s; see logs/interaction.log",
              file=sys.stderr)
        bus.stop()
        return 1
    interactive = sys.stdin.isatty()
    # both retained, each on its own subscription: the camera's may be handled before perception's status
    client.perception_known.wait(CAMERA_TIMEOUT_S)
    client.camera_known.wait(CAMERA_TIMEOUT_S if client.perception_online else 0)
    if not client.camera_known.is_set() and client.perception_online:
        # perception is up and reports its camera once it has tried it, later on a busy machine
        client.camera_known.wait(READY_TIMEOUT_S)
    print(camera_line(client.camera, client.perception_online), flush=True)
    print(HELP, file=sys.stderr)
    decision_wait = settings.perception.selective_memory.decision_wait_s + DECISION_GRACE_S
    circuits: set[str] = set()
    try:
        while True:
            if interactive:
                print("you> ", end="", flush=True)
            line = sys.stdin.readline()
            if not line or line.strip().lower() in QUIT_COMMANDS:
                break
            if not line.strip():
                continue
            result = client.say(line.strip())
            if result is None:
                print(f"(no reply from interaction within {REPLY_TIMEOUT_S:.0f} s)", file=sys.stderr)
                continue
            now_open = set(result.extra.get("llm_circuits_open") or [])
            if (change := circuit_line(circuits, now_open)) is not None:
                print(change, flush=True)
            circuits = now_open
            print(f"nadine> {result.reply}", flush=True)
            for note in memory_lines(result, *client.decision(result.turn_id, decision_wait)):
                print(note, flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        bus.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
