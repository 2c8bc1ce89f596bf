"""Which thread runs a handler: quick handlers run on paho's network thread (no hop), a handler that
was slow once goes to the dispatcher thread for good, handlers stay serial and in arrival order, and a
malformed payload is dropped on either path."""

from __future__ import annotations

import threading
import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from common import bus as bus_module
from common import topics as t
from common.messages import AffectState, Speak

DISPATCHER_PREFIX = "bus-"
# generous: a trivial handler must not count as slow on a loaded machine; "slow" sleeps past it
BUDGET_S = 0.5


def affect(label: str) -> AffectState:
    return AffectState(label=label, arousal=0.1, intensity=0.1)


def _wait(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_quick_handlers_skip_the_hop_and_a_slow_one_leaves_the_network_thread(bus_factory, monkeypatch):
    monkeypatch.setattr(bus_module, "INLINE_BUDGET_S", BUDGET_S)
    receiver, sender = bus_factory("receiver"), bus_factory("sender")
    threads: list[str] = []

    def handler(msg: AffectState) -> None:
        threads.append(threading.current_thread().name)
        if msg.label == "slow":
            time.sleep(BUDGET_S * 1.2)

    receiver.subscribe(t.AFFECT_STATE, handler)
    time.sleep(0.2)
    for label in ("first", "slow", "after-slow"):
        before = len(threads)
        sender.publish(t.AFFECT_STATE, affect(label))
        _wait(lambda n=before: len(threads) > n)
        assert receiver.drain(5)
    sender.publish(t.AFFECT_STATE, affect("quick"))  # only on the dispatcher now, however quick
    _wait(lambda: len(threads) == 4)
    # first call: not yet timed, so the dispatcher; second: timed quick, so the network thread;
    # it was slow there, so the third and fourth go back to the dispatcher
    assert threads[0].startswith(DISPATCHER_PREFIX)
    assert not threads[1].startswith(DISPATCHER_PREFIX)
    assert threads[2].startswith(DISPATCHER_PREFIX) and threads[3].startswith(DISPATCHER_PREFIX)


def test_handlers_stay_serial_and_in_order_across_both_paths(bus_factory, monkeypatch):
    monkeypatch.setattr(bus_module, "INLINE_BUDGET_S", BUDGET_S)
    receiver, sender = bus_factory("receiver"), bus_factory("sender")
    seen: list[str] = []
    running = threading.Lock()
    overlaps = []

    def record(label: str) -> None:
        if not running.acquire(blocking=False):
            overlaps.append(label)
            return
        try:
            if label == "affect-0":  # slow once: affect goes to the dispatcher, speak stays quick
                time.sleep(BUDGET_S * 1.2)
            seen.append(label)
        finally:
            running.release()

    threads: set[str] = set()
    receiver.subscribe(t.AFFECT_STATE, lambda m: record(m.label))
    receiver.subscribe(t.SPEAK, lambda m: (threads.add(threading.current_thread().name), record(m.text)))
    time.sleep(0.2)
    expected = []
    for i in range(40):
        sender.publish(t.SPEAK, Speak(text=f"speak-{i}"))
        sender.publish(t.AFFECT_STATE, affect(f"affect-{i}"))
        expected += [f"speak-{i}", f"affect-{i}"]
        if i == 0:
            _wait(lambda: len(seen) == 2)  # the slow first pair is behind us
        time.sleep(0.01)  # some speak messages find the dispatcher idle and take the inline path
    _wait(lambda: len(seen) == len(expected))
    assert overlaps == []
    assert seen == expected
    assert any(not name.startswith(DISPATCHER_PREFIX) for name in threads)  # both paths were used


def test_a_malformed_payload_is_dropped_on_the_network_thread_path(bus_factory, broker, root, monkeypatch):
    monkeypatch.setattr(bus_module, "INLINE_BUDGET_S", BUDGET_S)
    receiver, sender = bus_factory("receiver"), bus_factory("sender")
    seen: list[str] = []
    receiver.subscribe(t.AFFECT_STATE, lambda m: seen.append(threading.current_thread().name))
    time.sleep(0.2)
    for _ in range(2):  # the second call is the first that may run on the network thread
        sender.publish(t.AFFECT_STATE, affect("ok"))
    _wait(lambda: len(seen) == 2)
    raw = mqtt.Client(CallbackAPIVersion.VERSION2)
    raw.connect(broker.host, broker.port)
    raw.loop_start()
    raw.publish(f"{root}/{t.AFFECT_STATE.suffix}", b'{"label": 3}', qos=1).wait_for_publish(5)
    raw.loop_stop()
    raw.disconnect()
    sender.publish(t.AFFECT_STATE, affect("ok"))
    _wait(lambda: len(seen) == 3)
    assert not seen[2].startswith(DISPATCHER_PREFIX)  # it did take the inline path
    assert receiver.dropped[f"{root}/{t.AFFECT_STATE.suffix}"] == 1
