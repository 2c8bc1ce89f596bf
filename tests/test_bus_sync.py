"""Bus.sync(): once it returns, every message the broker held for the bus's subscriptions, the retained
process statuses included, has been handled, even by a handler slow enough to leave the network thread.
This is how the forget tools learn who is online without a sleep."""

from __future__ import annotations

import threading
import time

from common import topics as t
from common.bus import Bus
from common.config.common_settings import MqttSettings
from common.topics import Topics
from tests.support import free_port, unique_root

PROCESSES = ("perception", "interaction", "control")


def test_sync_returns_once_the_retained_statuses_were_handled(broker, root, bus_factory):
    for name in PROCESSES:
        # its own sync: the broker has stored its retained `online` once the echo is back
        assert bus_factory(name).sync(5)
    seen: dict[str, str] = {}
    lock = threading.Lock()

    def on_status(spec: t.TopicSpec, msg) -> None:
        time.sleep(0.3)  # slow: handled on the dispatcher thread, after sync's echo arrived
        with lock:
            seen[spec.suffix] = msg.value

    tool = Bus("tool", broker.mqtt_settings(), Topics(root))
    tool.subscribe_tree("status/+", on_status)
    try:
        assert tool.start(5)
        assert tool.sync(10)
        with lock:
            assert {s: v for s, v in seen.items() if s != "status/tool"} == {f"status/{p}": "online" for p in PROCESSES}
        assert tool.sync(10)  # again, on the same subscription
    finally:
        tool.stop()


def test_sync_is_false_when_no_broker_answers():
    bus = Bus("late", MqttSettings(primary_host="127.0.0.1", fallback_host=None, port=free_port()),
              Topics(unique_root()))
    try:
        assert bus.start(wait_s=0.2) is False
        assert bus.sync(0.3) is False
    finally:
        bus.stop()
