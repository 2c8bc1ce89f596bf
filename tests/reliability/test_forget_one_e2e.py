"""Forget one memory in the running suite, by voice and by the CLI over the bus: after the yes, a byte
scan of the data root finds none of the memory's distinctive words (scene files, Chroma documents, its
log and free pages, the saved sessions that quoted it), the person's other memories are intact, and a
recall question about it gets nothing. (A no keeps every byte: test_confirmation_e2e.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from common import topics as t
from common.store import SceneStore
from tests.reliability.live import LiveSuite
from tests.reliability.test_forget_e2e import meet
from tests.reliability.traces import find_traces, text_needles
from tests.support import PROJECT_ROOT

pytestmark = [pytest.mark.shared_data, pytest.mark.slow]

BROTHER = "My brother Tobias got engaged to Lena last night, I'm so happy for them!"
CAR = "Please remember that I left my car at the airport, level 3, row K."
ENGAGED = text_needles("Tobias", "engaged to Lena")
PARKED = text_needles("row K", "level 3")


@pytest.fixture(scope="module")
def live(broker, tmp_path_factory):
    suite = LiveSuite(broker, tmp_path_factory.mktemp("forget-one"))
    yield suite
    suite.stop()


def come_back(live: LiveSuite, photo, user_id: str) -> None:
    live.camera.show([])
    live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_id is None and m.user_name is None, timeout=30)
    live.rec[t.USER_DETECTED].clear()
    live.camera.show([photo])
    live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_id == user_id, timeout=30)


def goodbye(live: LiveSuite) -> None:
    bye = live.say("Bye, Nadine!")
    live.rec[t.EPISODE_SAVED].wait_for(lambda m: m.turn_id == bye.turn_id, timeout=60)


def cli(live: LiveSuite, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NADINE_MQTT_HOST=live.broker.host, NADINE_MQTT_PORT=str(live.broker.port),
               NADINE_MQTT_FALLBACK_HOST="", NADINE_TOPIC_ROOT=live.root, NADINE_DATA_DIR=str(live.data))
    return subprocess.run([sys.executable, "-m", "scripts.memory", *args], cwd=PROJECT_ROOT, env=env,
                          capture_output=True, text=True, timeout=180)


def test_forgotten_by_voice_and_by_the_cli_nothing_of_it_is_left(live: LiveSuite, shared_data):
    faces = shared_data / "faces"
    dora = meet(live, faces / "df_d_01.jpg", "Dora", BROTHER)  # a moment, and a session that quotes it
    come_back(live, faces / "df_d_02.jpg", dora)
    assert live.say(CAR).memory_intent == "remember"
    assert live.say("Please remember that my gym locker is number 112.").memory_intent == "remember"
    goodbye(live)
    found = {label for _, label in find_traces(live.layout.root, {**ENGAGED, **PARKED})}
    assert found == set(ENGAGED) | set(PARKED), found

    come_back(live, faces / "df_d_03.jpg", dora)
    asked = live.say("Forget what I told you about my brother.")
    assert asked.reply.startswith("Do you want me to forget") and "Lena" in asked.reply, asked.reply
    assert live.say("Yes.").intent == "forget_one_confirmed"
    assert find_traces(live.layout.root, ENGAGED) == []
    assert [m.scene_type for m in SceneStore(live.layout).list(dora)] == ["first_meeting"]

    shown = json.loads(cli(live, "show", dora, "--json").stdout)
    (car,) = [m for m in shown["explicit_memories"] if "row K" in m["text"]]
    live.rec[t.USER_FORGOTTEN].clear()
    out = cli(live, "forget-memory", dora, "explicit_memory", car["id"])
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["processes"]["interaction"]["text_memories"] == 1, report
    assert report["processes"]["interaction"]["session_documents"] >= 2, report  # its summary and transcript
    assert find_traces(live.layout.root, PARKED) == []

    recall = live.say("Do you remember where I parked at the airport?")
    assert "row K" not in recall.reply and "level 3" not in recall.reply, recall.reply
    assert "Lena" not in live.say("What did I tell you about my brother?").reply
    assert "112" in live.say("What's my gym locker number?").reply  # the other memory stays
    goodbye(live)  # the session that asked is saved without the requests and their answers
    assert find_traces(live.layout.root, {**ENGAGED, **PARKED}) == []
    assert find_traces(live.layout.root, text_needles("Forget what I told you")) == []
