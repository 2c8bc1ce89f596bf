"""The MQTT latency benchmark runs and reports both paths (numbers are judged in the README, not here)."""

from scripts.bench.mqtt_latency import run


def test_mqtt_latency_benchmark_smoke():
    r = run(messages=30, qos=1)
    assert r["typed_p50_ms"] > 0 and r["raw_p50_ms"] > 0
    assert r["ratio_p50"] == r["typed_p50_ms"] / r["raw_p50_ms"]
