"""Chat mode: python -m interaction.chat. Type a line, it goes out as USER_INPUT, the reply from
TURN_RESULT is printed, and under it what memory did with the turn: the scene recalled (and why) and
perception's storage decision (stored, as a text-only moment when no camera sees the person, or
not, and why). The rest of the suite runs as usual (start_nadine.sh --chat)."""

from __future__ import annotations

import argparse
import sys
import threading
import uuid
from pathlib import Path

from common import topics as t
from common.bus import Bus
from common.config import ConfigError, load_settings
from common.config.perception_settings import CameraSettings
from common.messages import StorageDecision, TurnResult, UserInput
from common.topics import Topics

REPLY_TIMEOUT_S = 120.0
READY_TIMEOUT_S = 90.0  # interaction loads its models before it subscribes
DECISION_GRACE_S = 3.0  # beyond perception's decision_wait_s (a turn without a view waits that long)


def camera_line(camera: CameraSettings, cwd: Path) -> str:
    """Whether a camera can be on, from the configured source: a webcam index needs its device, a
    file or folder must exist. Without one, who is talking is known only by the name they give."""
    spec = camera.source.strip()
    if spec.isdigit():
        present = Path(f"/dev/video{spec}").exists()
    elif spec.lower() == "realsense":
        present = True  # perception reports in its log whether the device answers
    else:
        path = Path(spec.removeprefix("watch:")).expanduser()
        present = (path if path.is_absolute() else cwd / path).exists()
    if present:
        return f"camera: on ({spec}); Nadine recognises faces and tells people apart by them"
    return (f"camera: off ({spec} not found); identity is by name only: the name you give is who you are to "
            "Nadine (she cannot check it by face, so a name links its memories), and what you say is remembered "
            "as text-only moments")


def memory_lines(result: TurnResult, decision: StorageDecision | None) -> list[str]:
    """What memory did with one turn, as the demo transcript shows it."""
    lines = []
    scene = result.retrieved
    if scene is not None and scene.injected:
        lines.append(f"  [recalled] {scene.scene_type or 'scene'} {scene.scene_id} (similarity "
                     f"{scene.similarity:.2f} >= {scene.threshold:.2f}, by {scene.selected_by or 'similarity'}): "
                     f"\"{scene.user_message or scene.description}\"")
    if result.recall is not None and result.recall.memories:
        for memory in result.recall.memories[:3]:
            lines.append(f"  [recall {result.recall.outcome}] {memory.kind}: \"{memory.text[:160]}\"")
    if decision is None:
        lines.append("  [memory] no storage decision (perception not running?)")
    elif decision.stored:
        lines.append(f"  [stored] scene {decision.scene_id} (memorability {decision.memorability:.2f} >= "
                     f"{decision.threshold:.2f}): {decision.reason}")
    else:
        lines.append(f"  [not stored] {decision.reason} (memorability {decision.memorability:.2f}, "
                     f"threshold {decision.threshold:.2f})")
    return lines


class ChatClient:
    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._replies: dict[str, TurnResult] = {}
        self._decisions: dict[str, StorageDecision] = {}
        self._cond = threading.Condition()
        self.interaction_online = threading.Event()
        bus.subscribe(t.TURN_RESULT, self._on_result)
        bus.subscribe(t.STORAGE_DECISION, self._on_decision)
        # retained status: a message sent before interaction subscribes would be lost, so wait for it
        bus.subscribe(t.status_spec("interaction"), self._on_status)

    def _on_status(self, msg) -> None:
        if msg.value == "online":
            self.interaction_online.set()
        else:
            self.interaction_online.clear()

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

    def decision(self, turn_id: str | None, timeout: float) -> StorageDecision | None:
        """Perception's storage decision for the turn (every affect event gets exactly one)."""
        with self._cond:
            self._cond.wait_for(lambda: turn_id in self._decisions, timeout)
            return self._decisions.pop(turn_id, None)

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
    print(camera_line(settings.perception.camera, Path.cwd()), flush=True)
    print("Type to talk with Nadine; an empty line or Ctrl-D ends the chat.", file=sys.stderr)
    decision_wait = settings.perception.selective_memory.decision_wait_s + DECISION_GRACE_S
    try:
        while True:
            if interactive:
                print("you> ", end="", flush=True)
            line = sys.stdin.readline()
            if not line or not line.strip():
                break
            result = client.say(line.strip())
            if result is None:
                print(f"(no reply from interaction within {REPLY_TIMEOUT_S:.0f} s)", file=sys.stderr)
                continue
            print(f"nadine> {result.reply}", flush=True)
            for line in memory_lines(result, client.decision(result.turn_id, decision_wait)):
                print(line, flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        bus.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
