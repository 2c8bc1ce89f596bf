"""The broker dies and comes back under a connected bus: subscriptions survive, QoS 1 arrives; a state
message published while the bus is reconnecting waits for the reconnection, within its bound."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from common import messages as m
from common import topics as t
from common.bus import Bus, BusNotConnected
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


def _lost_the_broker(bus: Bus, timeout: float = 15.0) -> bool:
    """True once the bus has noticed the broker is gone (paho notices on its own loop thread)."""
    deadline = time.monotonic() + timeout
    while bus.connected and time.monotonic() < deadline:
        time.sleep(0.05)
    return not bus.connected


def test_a_publish_while_the_broker_restarts_waits_for_the_reconnection():
    broker = Broker().start()
    sender = Bus("sender", broker.mqtt_settings(reconnect_max_delay_s=1), Topics(unique_root()))
    try:
        assert sender.start(5)
        # the sender hears its own topic: its subscription is back before a publish may go out
        rec = Recorder(sender, t.AFFECT_STATE)
        broker.kill()
        assert _lost_the_broker(sender)
        msg = m.AffectState(label="happy", arousal=0.5, intensity=0.8, user_message="sent during the restart")
        with ThreadPoolExecutor(1) as pool:
            published = pool.submit(sender.publish, t.AFFECT_STATE, msg, wait_s=30)
            broker.start()
            info = published.result(timeout=30)
        info.wait_for_publish(10)  # used to raise "The client is not currently connected"
        assert info.is_published()
        assert rec.wait_for(timeout=10) == msg
    finally:
        sender.stop()
        broker.stop()


def test_a_publish_gives_up_with_a_clear_error_when_the_broker_stays_down():
    broker = Broker().start()
    sender = Bus("sender", broker.mqtt_settings(reconnect_max_delay_s=1), Topics(unique_root()))
    try:
        assert sender.start(5)
        broker.kill()
        assert _lost_the_broker(sender)
        msg = m.AffectState(label="happy", arousal=0.5, intensity=0.8, user_message="never sent")
        with pytest.raises(BusNotConnected, match=rf"no connection to the MQTT broker 127.0.0.1:{broker.port} "
                                                  r"within 0.5 s; .*affect/state was not sent"):
            sender.publish(t.AFFECT_STATE, msg, wait_s=0.5)
    finally:
        sender.stop()
        broker.stop()
