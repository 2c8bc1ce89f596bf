"""Every subscribed topic of the running suite gets random and malformed payloads (hypothesis, bounded
by examples per topic and a time box): no process crashes, nothing is written outside the data root,
memory stays bounded, and afterwards each process still does its job."""

from __future__ import annotations

import json
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from paho.mqtt.enums import CallbackAPIVersion

from common import topics as t
from common.messages import MAX_PAYLOAD_BYTES, AffectState, Speak
from tests.reliability.live import LiveSuite

pytestmark = [pytest.mark.shared_data, pytest.mark.slow]

EXAMPLES = 200
# valid ones of these start real work (a dialogue turn, a forget with a Chroma vacuum): fewer, so
# the processes have drained their queues before the time box ends
EXAMPLES_FOR = {t.USER_INPUT.suffix: 40, t.FORGET_USER.suffix: 40, t.USER_INFO.suffix: 60}
TIME_BOX_S = 60.0
RSS_GROWTH_LIMIT = 1.30  # after vs. warmed-up before
RSS_SLACK_KB = 40_000


class TimeBoxOver(Exception):
    pass


def nasty_strings(outside: Path) -> st.SearchStrategy[str]:
    return st.one_of(
        st.text(max_size=300),
        st.sampled_from([
            "", " ", "..", "../../../etc/passwd", "/etc/passwd", str(outside / "evil.jpg"),
            f"../{outside.name}/evil.jpg", f"../../{outside.parent.name}/{outside.name}/evil2.jpg",
            "260101_0001\n", "a/b", "\x00", "nadine/#", "Unknown", "😀" * 500, "x" * 70_000,
            "{\"user_id\": \"../x\"}", "%s%n%x", "260101_0001",
        ]),
    )


def scalars(outside: Path) -> st.SearchStrategy:
    return st.one_of(
        st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=True, allow_infinity=True), nasty_strings(outside),
    )


def json_values(outside: Path) -> st.SearchStrategy:
    return st.recursive(scalars(outside), lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=20), inner, max_size=5)), max_leaves=20)


def payloads(spec: t.TopicSpec, outside: Path) -> st.SearchStrategy[bytes]:
    fields = list(spec.model.model_fields)
    shaped = st.fixed_dictionaries({}, optional={f: json_values(outside) for f in fields})
    return st.one_of(
        st.binary(max_size=2048),
        json_values(outside).map(lambda v: json.dumps(v, allow_nan=True).encode()),
        shaped.map(lambda d: json.dumps(d, allow_nan=True).encode()),
        nasty_strings(outside).map(lambda s: s.encode("utf-8", "surrogatepass")),
        st.just(b"{" * 100_000),
        st.just(b"x" * (MAX_PAYLOAD_BYTES + 1)),
    )


def fuzz_topic(client: mqtt.Client, topic: str, spec: t.TopicSpec, outside: Path, deadline: float) -> int:
    sent = [0]

    @settings(max_examples=EXAMPLES_FOR.get(spec.suffix, EXAMPLES), deadline=None, database=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(payload=payloads(spec, outside))
    def run(payload: bytes) -> None:
        if sent[0] and time.monotonic() > deadline:  # every topic gets at least one payload
            raise TimeBoxOver
        client.publish(topic, payload, qos=spec.qos).wait_for_publish(5)
        sent[0] += 1

    try:
        run()
    except TimeBoxOver:
        pass
    return sent[0]


@pytest.fixture(scope="module")
def live(broker, shared_data, tmp_path_factory):
    suite = LiveSuite(broker, tmp_path_factory.mktemp("fuzz"))
    suite.camera.show([shared_data / "faces" / "df_a_01.jpg"])
    yield suite
    suite.stop()


def still_working(live: LiveSuite, label: str) -> None:
    """interaction answers a turn, perception decides on an affect event, control speaks."""
    result = live.say(f"Hello there, this is check {label}.", timeout=60)
    assert result.reply
    live.bus.publish(t.AFFECT_STATE, AffectState(label="joy", arousal=0.5, intensity=0.5, user_label="happy",
                                                 user_intensity=0.9, user_message="check", turn_id=f"chk-{label}"))
    live.decision(f"chk-{label}", timeout=30)
    live.rec[t.START_SPEAK].clear()
    live.bus.publish(t.SPEAK, Speak(text=f"check {label}"))
    live.rec[t.START_SPEAK].wait_for(timeout=30)


def test_random_and_malformed_payloads_on_every_topic(live: LiveSuite, tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    still_working(live, "warm-up")
    before = live.rss()

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"fuzzer-{time.time_ns()}")
    client.connect(live.broker.host, live.broker.port)
    client.loop_start()
    deadline = time.monotonic() + TIME_BOX_S
    sent: dict[str, int] = {}
    try:
        # every topic a process subscribes to, plus unmodelled ones under control's wildcard
        specs = [s for s in t.ALL_TOPICS]
        for i, spec in enumerate(specs):
            # each topic gets its share of what is left of the time box, so a slow machine fuzzes every
            # topic with fewer payloads instead of leaving the last ones untried
            share = time.monotonic() + (deadline - time.monotonic()) / (len(specs) - i)
            sent[spec.suffix] = fuzz_topic(client, live.suite.topics(spec), spec, outside, share)
        for junk in ("agent/control/bogus", "agent/control/speak/extra"):
            client.publish(live.suite.topics(junk), b"\x00\xff garbage", qos=1).wait_for_publish(5)
    finally:
        client.loop_stop()
        client.disconnect()

    for name, proc in live.suite.procs.items():
        assert proc.poll() is None, f"{name} died under fuzzing\n{live.suite.log_tail(name)}"
        log_text = (live.suite.log_dir / f"{name}.log").read_text(errors="replace")
        assert "Traceback" not in log_text, f"{name} raised while handling a payload\n{live.suite.log_tail(name)}"
    still_working(live, "after")
    after = live.rss()
    print(f"\nfuzz: {sum(sent.values())} payloads on {len(sent)} topics; RSS kB before {before} after {after}")
    for name in before:
        assert after[name] <= before[name] * RSS_GROWTH_LIMIT + RSS_SLACK_KB, (name, before[name], after[name])
    assert list(outside.iterdir()) == []
    assert all(n > 0 for n in sent.values()), sent


def test_a_capture_request_cannot_overwrite_stored_memory(live: LiveSuite):
    from common.messages import CaptureRequest
    from common.store import ProfileStore

    ProfileStore(live.layout).set_name("260101_0042", "Keeper")
    for target in ("user_ids.json", str(live.layout.user_ids_file), "../user_ids.json",
                   str(live.layout.root / "memory" / "x.jpg")):
        live.bus.publish(t.CAPTURE_CURRENT_VIEW, CaptureRequest(value=target))
    time.sleep(3)
    assert not (live.layout.root / "memory" / "x.jpg").exists()
    assert ProfileStore(live.layout).user_ids().get("260101_0042") == "Keeper"
