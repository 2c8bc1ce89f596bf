"""Round-trip latency of a typed message through common.bus against raw paho, same broker, same run.

    .venv/bin/python -m scripts.bench.mqtt_latency [--messages 2000] [--qos 1]

A "round trip" is publish -> broker -> subscriber handler for one AffectState payload. The typed path
encodes with pydantic, and on receipt decodes and validates before the handler runs (on paho's network
thread once the handler has proved quick, see common/bus.py); the raw path hands bytes to paho and timestamps in paho's on_message. Both clients are
in this process, alternating in rounds so machine noise hits both alike. Printed: p50/p95 of each and
the ratio typed / raw (target: at most 1.2x at p50, typed p50 under 1 ms on loopback).
"""

from __future__ import annotations

import argparse
import json
import threading
import time
import uuid

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from common import topics as t
from common.bus import Bus
from common.messages import AffectState
from common.supervisor.broker import Broker
from common.topics import Topics
from scripts.eval.stats import percentile

PAYLOAD = AffectState(
    label="happy", arousal=0.6, intensity=0.7, user_label="happy", user_intensity=0.9,
    user_message="I just defended my PhD thesis today, I'm so happy!", suppress_storage=False,
)


class _Waiter:
    def __init__(self) -> None:
        self.event = threading.Event()
        self.t_recv = 0.0

    def hit(self) -> None:
        self.t_recv = time.perf_counter()
        self.event.set()

    def round_trip(self, send) -> float:
        self.event.clear()
        t0 = time.perf_counter()
        send()
        if not self.event.wait(5):
            raise RuntimeError("message lost during the benchmark")
        return self.t_recv - t0


def run(messages: int, qos: int) -> dict:
    broker = Broker().start()
    root = f"bench{uuid.uuid4().hex[:8]}/nadine"
    topics = Topics(root)
    settings = broker.mqtt_settings()
    spec = t.TopicSpec(t.AFFECT_STATE.suffix, AffectState, qos)
    try:
        typed_sender, typed_receiver = Bus("bench-send", settings, topics), Bus("bench-recv", settings, topics)
        typed_waiter = _Waiter()
        typed_receiver.subscribe(spec, lambda msg: typed_waiter.hit())
        assert typed_sender.start(5) and typed_receiver.start(5)

        raw_waiter = _Waiter()
        raw_topic = f"{root}/raw/affect"
        raw_sender = mqtt.Client(CallbackAPIVersion.VERSION2)
        raw_receiver = mqtt.Client(CallbackAPIVersion.VERSION2)
        raw_receiver.on_message = lambda c, u, m: raw_waiter.hit()
        for client in (raw_sender, raw_receiver):
            client.connect(broker.host, broker.port)
            client.loop_start()
        raw_receiver.subscribe(raw_topic, qos)
        raw_bytes = PAYLOAD.encode()
        time.sleep(0.3)

        typed, raw = [], []
        warmup = 50
        for i in range(messages + warmup):
            a = typed_waiter.round_trip(lambda: typed_sender.publish(spec, PAYLOAD))
            b = raw_waiter.round_trip(lambda: raw_sender.publish(raw_topic, raw_bytes, qos=qos))
            if i >= warmup:
                typed.append(a * 1000)
                raw.append(b * 1000)
        for client in (raw_sender, raw_receiver):
            client.loop_stop()
            client.disconnect()
        typed_sender.stop()
        typed_receiver.stop()
    finally:
        broker.stop()
    result = {
        "messages": messages, "qos": qos,
        "typed_p50_ms": percentile(typed, 50), "typed_p95_ms": percentile(typed, 95),
        "raw_p50_ms": percentile(raw, 50), "raw_p95_ms": percentile(raw, 95),
    }
    result["ratio_p50"] = result["typed_p50_ms"] / result["raw_p50_ms"]
    result["ratio_p95"] = result["typed_p95_ms"] / result["raw_p95_ms"]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--qos", type=int, choices=(0, 1), default=1)
    args = parser.parse_args(argv)
    r = run(args.messages, args.qos)
    print(f"round trip, {r['messages']} messages, QoS {r['qos']}, loopback Mosquitto")
    print(f"{'path':<22}{'p50 ms':>10}{'p95 ms':>10}")
    print(f"{'common.bus (typed)':<22}{r['typed_p50_ms']:>10.3f}{r['typed_p95_ms']:>10.3f}")
    print(f"{'raw paho (bytes)':<22}{r['raw_p50_ms']:>10.3f}{r['raw_p95_ms']:>10.3f}")
    print(f"{'ratio typed/raw':<22}{r['ratio_p50']:>10.2f}{r['ratio_p95']:>10.2f}   (target p50 <= 1.2, typed p50 < 1 ms)")
    print(json.dumps(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
