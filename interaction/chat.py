"""Chat mode: python -m interaction.chat. Type a line, it goes out as USER_INPUT, the reply from
TURN_RESULT is printed. The rest of the suite runs as usual (start_nadine.sh --chat)."""

from __future__ import annotations

import argparse
import sys
import threading
import uuid

from common import topics as t
from common.bus import Bus
from common.config import ConfigError, load_settings
from common.messages import TurnResult, UserInput
from common.topics import Topics

REPLY_TIMEOUT_S = 120.0
READY_TIMEOUT_S = 90.0  # interaction loads its models before it subscribes


class ChatClient:
    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._replies: dict[str, TurnResult] = {}
        self._cond = threading.Condition()
        self.interaction_online = threading.Event()
        bus.subscribe(t.TURN_RESULT, self._on_result)
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
    print("Without a camera the name you give is who you are to Nadine: she cannot check it by face, so "
          "a name links its memories. Type to talk with Nadine; an empty line or Ctrl-D ends the chat.",
          file=sys.stderr)
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
    except KeyboardInterrupt:
        pass
    finally:
        bus.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
