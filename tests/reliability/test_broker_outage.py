"""The broker stops for 10 s in the middle of a conversation: every process reconnects and
resubscribes, the conversation goes on, and no QoS 1 message published after the reconnect is lost."""

from __future__ import annotations

import time

import pytest

from common import topics as t
from common.topics import PROCESSES
from tests.reliability.live import LiveSuite
from tests.support import Broker, Recorder

pytestmark = [pytest.mark.shared_data, pytest.mark.slow]

OUTAGE_S = 10.0
TURNS_AFTER = 15


def test_conversation_survives_a_broker_outage(shared_data, tmp_path):
    broker = Broker().start()
    live = None
    try:
        live = LiveSuite(broker, tmp_path)
        status = {name: Recorder(live.bus, t.status_spec(name)) for name in PROCESSES}
        live.camera.show([shared_data / "faces" / "df_a_01.jpg"])
        live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_name == "Unknown", timeout=30)
        assert live.say("Hello! My name is Maya.").reply
        live.rec[t.FACE_STORED].wait_for(timeout=30)
        moment = "I just won the city chess tournament, I'm thrilled!"
        stored = live.say(moment, emotion=("happy", 0.95))
        assert live.decision(stored.turn_id).stored

        for rec in status.values():
            rec.clear()
        broker.stop()
        time.sleep(OUTAGE_S)
        broker.start()
        for rec in status.values():
            rec.wait_for(lambda m: m.value == "online", timeout=30)
        for name, proc in live.suite.procs.items():
            assert proc.poll() is None, live.suite.log_tail(name)
        assert live.bus.wait_connected(15)

        recall = live.say("Do you remember what I told you last time?", is_recall=True)
        assert recall.user_name == "Maya"
        assert recall.retrieved is not None and recall.retrieved.user_message == moment
        # every turn after the reconnect: a reply (interaction), a storage decision (perception got
        # the affect state), a start of speech (control got the speak)
        live.rec[t.START_SPEAK].clear()
        turn_ids = [live.say(f"Tell me something nice, number {i}.", emotion=("happy", 0.2)).turn_id
                    for i in range(TURNS_AFTER)]
        for turn_id in turn_ids:
            assert not live.decision(turn_id).stored  # below threshold: one decision each, none lost
        deadline = time.monotonic() + 30
        while len(live.rec[t.START_SPEAK].messages) < TURNS_AFTER and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(live.rec[t.START_SPEAK].messages) >= TURNS_AFTER
    finally:
        if live is not None:
            live.stop()
        broker.stop()
