"""Refused confirmations in the running suite: after "please forget everything about me" -> "Absolutely
not!" and "forget what I said about my sister" -> "Of course not.", a byte scan of the data root finds
every file of before still there with the same bytes and every trace of the person (name, id, face
images, vectors, the memory's words); nobody was forgotten, and the person is recognised by face in
the next session with the memory still known."""

from __future__ import annotations

import hashlib

import pytest

from common import topics as t
from common.store import ProfileStore
from tests.reliability.live import LiveSuite
from tests.reliability.test_forget_e2e import meet, user_needles
from tests.reliability.traces import find_traces

pytestmark = [pytest.mark.shared_data, pytest.mark.slow]

SISTER = b"allergic to peanuts"


def snapshot(root) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def live(broker, tmp_path_factory):
    suite = LiveSuite(broker, tmp_path_factory.mktemp("confirm"))
    yield suite
    suite.stop()


def test_refusals_keep_every_byte_and_the_person(live: LiveSuite, shared_data):
    faces = shared_data / "faces"
    carla = meet(live, faces / "df_c_01.jpg", "Carla", "I finally finished my first marathon, I'm so proud!")
    live.camera.show([faces / "df_c_02.jpg"])
    live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_id == carla, timeout=30)
    kept = live.say("Please remember that my sister is allergic to peanuts.")
    assert kept.memory_intent == "remember" and kept.user_id == carla
    needles = {**user_needles(live, carla, "Carla"), "memory": [SISTER]}
    assert {label for _, label in find_traces(live.layout.root, needles)} >= set(needles)
    before = snapshot(live.layout.root)
    live.rec[t.USER_FORGOTTEN].clear()

    ask = live.say("Please forget everything about me.")
    assert "yes or no" in ask.reply and ask.user_id == carla
    refused = live.say("Absolutely not!")
    assert refused.intent == "forget_cancelled" and "keep" in refused.reply

    question = live.say("Forget what I said about my sister.")
    assert question.reply.startswith("Do you want me to forget") and "peanuts" in question.reply
    refused_one = live.say("Of course not.")
    assert refused_one.intent == "forget_one_cancelled" and "keep" in refused_one.reply

    after = snapshot(live.layout.root)
    changed = sorted(p for p, digest in before.items() if after.get(p) != digest)
    assert changed == [], changed
    assert {label for _, label in find_traces(live.layout.root, needles)} >= set(needles)
    assert ProfileStore(live.layout).user_ids().get(carla) == "Carla"

    live.camera.show([])
    live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_id is None and m.user_name is None, timeout=30)
    live.rec[t.USER_DETECTED].clear()
    live.camera.show([faces / "df_c_03.jpg"])
    live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_id == carla, timeout=30)
    again = live.say("Hello Nadine, it's me again.")
    assert again.user_id == carla and again.user_name == "Carla"
    assert "peanuts" in live.say("What do you know about me?").reply
    # every process handled the turns above (each answered this session), and none forgot anyone
    assert live.rec[t.USER_FORGOTTEN].messages == []
