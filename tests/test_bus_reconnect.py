"""The broker dies and comes back under a connected bus: subscriptions survive, QoS 1 arrives."""

from __future__ import annotations

import time

from common import messages as m
from common import topics as t
from common.bus import Bus
from common.config.common_settings import MqttSettings
from common.topics import Topics
from tests.support import Broker, Recorder, free_port, unique_root


def test_kill_and_restart_broker_keeps_subscriptions_and_delivers_qos1():
    broker = Broker().start()
    root = unique_root()
    settings = broker.mqtt_settings(reconnect_max_delay_s=1)
    receiver = Bus("receiver", settings, Topics(root))
    sender = Bus("sender", settings, Topics(root))
    try:
        assert receiver.start(5) and sender.start(5)
        rec = Recorder(receiver, t.AFFECT_STATE)
        time.sleep(0.2)
        broker.kill()
        time.sleep(1.0)
        assert not receiver.connected
        broker.start()
        assert receiver.wait_connected(15) and sender.wait_connected(15)
        msg = m.AffectState(label="happy", arousal=0.5, intensity=0.8, user_message="after restart")
        sender.publish(t.AFFECT_STATE, msg)
        assert rec.wait_for(timeout=10) == msg
    finally:
        receiver.stop()
        sender.stop()
        broker.stop()


def test_starts_while_broker_is_down_then_connects():
    port = free_port()
    root = unique_root()
    bus = Bus("late", MqttSettings(primary_host="127.0.0.1", fallback_host=None, port=port,
                                   reconnect_max_delay_s=1), Topics(root))
    broker = Broker(port=port)
    try:
        assert bus.start(wait_s=0.5) is False  # no broker yet: start returns, retries in background
        broker.start()
        assert bus.wait_connected(15)
    finally:
        bus.stop()
        broker.stop()


def test_fallback_host_is_used_when_primary_does_not_answer(broker):
    settings = MqttSettings(primary_host="127.0.0.2", fallback_host="127.0.0.1", port=broker.port)
    # 127.0.0.2 is loopback too but Mosquitto listens on 127.0.0.1 only, so the primary refuses
    bus = Bus("fallback", settings, Topics(unique_root()))
    try:
        assert bus.start(5)
        assert bus.host == "127.0.0.1"
    finally:
        bus.stop()
