"""A subscription added once the bus is connected is in force when subscribe() returns: the broker has
acknowledged it, so a message published right after reaches the handler (no sleep needed)."""

from __future__ import annotations

import threading

from common import topics as t
from common.messages import Speak


def test_subscribe_while_connected_returns_after_the_brokers_acknowledgement(bus_factory):
    bus = bus_factory("listener")
    order: list[str] = []
    acknowledged = bus._client.on_subscribe

    def noting(*args) -> None:
        acknowledged(*args)
        order.append("acknowledged")

    bus._client.on_subscribe = noting
    bus.subscribe(t.SPEAK, lambda msg: None)
    order.append("returned")
    assert order == ["acknowledged", "returned"]


def test_a_message_published_right_after_subscribe_reaches_the_handler(bus_factory):
    listener, speaker = bus_factory("listener"), bus_factory("speaker")
    heard = threading.Event()
    listener.subscribe_tree("agent/control/#", lambda spec, msg: heard.set())
    speaker.publish(t.SPEAK, Speak(text="Hello there."), wait_s=5).wait_for_publish(5)
    assert heard.wait(5)
