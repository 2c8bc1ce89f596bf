"""The MQTT latency benchmark runs and reports both paths (numbers are judged in the README, not here;
a lost message makes the run raise)."""

from scripts.bench.mqtt_latency import run


def test_mqtt_latency_benchmark_smoke():
    r = run(messages=30, qos=1)
    assert r["messages"] == 30 and r["qos"] == 1
    for key in ("typed_p50_ms", "typed_p95_ms", "raw_p50_ms", "raw_p95_ms"):
        assert 0 < r[key] < 5000, key
