"""Forget a user in the running suite: every process answers, every byte of that user is gone from
the data root (SQLite free pages and HNSW folders included), another user is untouched, and the
person is a stranger when they come back."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections import Counter

import numpy as np
import pytest

from common import topics as t
from common.logs import log_pseudonym
from common.store import ProfileStore
from tests.reliability.live import LiveSuite
from tests.reliability.traces import find_traces, image_needles, name_needles, vector_needles
from tests.support import PROJECT_ROOT

pytestmark = [pytest.mark.shared_data, pytest.mark.slow]

STUDY_AUDIO_TIMEOUT_S = 2.0


def chroma_vectors(chroma_dir, user_id: str) -> list[np.ndarray]:
    """The user's document vectors as Chroma logged them (read-only, closed right away)."""
    con = sqlite3.connect(f"file:{chroma_dir / 'chroma.sqlite3'}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT vector, metadata FROM embeddings_queue").fetchall()
    finally:
        con.close()
    return [np.frombuffer(vec, dtype=np.float32) for vec, meta in rows
            if vec and json.loads(meta or "{}").get("user_id") == user_id]


def user_needles(live: LiveSuite, user_id: str, name: str, chroma_dir=None) -> dict[str, list[bytes]]:
    """chroma_dir: where the episodes are (a `chroma run` server's folder); the data root's by default."""
    user_dir = live.layout.user_dir(user_id)
    images = [p.read_bytes() for p in user_dir.rglob("*.jpg")]
    vectors = [np.load(p) for p in user_dir.rglob("*.npy")] + chroma_vectors(chroma_dir or live.layout.chroma_dir, user_id)
    assert images and len(vectors) > len(images), "the conversation did not leave faces, scenes and episodes"
    return {
        f"name:{name}": name_needles(name),
        f"id:{user_id}": [user_id.lower().encode()],
        "image": [n for img in images for n in image_needles(img)],
        "vector": [n for v in vectors for n in vector_needles(v)],
    }


def meet(live: LiveSuite, photo, name: str, moment: str) -> str:
    live.rec[t.USER_DETECTED].clear()  # an earlier face's "Unknown" must not stand for this one's
    live.camera.show([photo])
    live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_name == "Unknown", timeout=30)
    live.rec[t.USER_DETECTED].clear()
    intro = live.say(f"Hello! My name is {name}.")
    live.rec[t.FACE_STORED].wait_for(lambda m: m.user_name == name, timeout=30)
    stored = live.say(moment, emotion=("happy", 0.95))
    assert live.decision(stored.turn_id).stored
    bye = live.say("I have to go now. Goodbye, Nadine!")
    live.rec[t.EPISODE_SAVED].wait_for(lambda m: m.turn_id == bye.turn_id, timeout=60)  # saved after the reply
    return intro.user_id or stored.user_id


@pytest.fixture(scope="module")
def live(broker, tmp_path_factory):
    suite = LiveSuite(broker, tmp_path_factory.mktemp("forget"),
                      env={"NADINE_STUDY_LOG": "1", "NADINE_STUDY_AUDIO_TIMEOUT": str(STUDY_AUDIO_TIMEOUT_S)})
    yield suite
    suite.stop()


def test_forget_everywhere_then_a_stranger(live: LiveSuite, shared_data):
    faces = shared_data / "faces"
    maya = meet(live, faces / "df_a_01.jpg", "Maya", "I just defended my PhD thesis today, I'm so happy!")
    bob = meet(live, faces / "df_b_01.jpg", "Bob", "My daughter was born this morning, I'm over the moon!")
    live.camera.show([])
    live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_id is None and m.user_name is None, timeout=30)
    needles = user_needles(live, maya, "Maya")
    assert {label for _, label in find_traces(live.layout.root, needles)} >= set(needles)

    env = dict(os.environ, NADINE_MQTT_HOST=live.broker.host, NADINE_MQTT_PORT=str(live.broker.port),
               NADINE_MQTT_FALLBACK_HOST="", NADINE_TOPIC_ROOT=live.root, NADINE_DATA_DIR=str(live.data))
    out = subprocess.run([sys.executable, "-m", "scripts.memory", "forget", maya, "--yes"], cwd=PROJECT_ROOT,
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report["processes"]) == {"perception", "interaction", "control"}
    # whichever process got there first erased the shared files; together they erased everything
    total = Counter()
    for removed in [*report["processes"].values(), report["local"]]:
        total.update(removed)
    assert total["faces"] >= 1 and total["scenes"] >= 2 and total["text_memories"] >= 2 and total["user_ids"] == 1

    assert find_traces(live.layout.root, needles) == []
    # the process logs (outside the data root) never held anyone's name or id, Maya's or Bob's; Bob's
    # pseudonym is there, so lines about him were logged and a leak would have shown
    logs = b"".join(p.read_bytes().lower() for p in live.suite.log_dir.rglob("*.log"))
    for needle in (b"maya", maya.encode(), b"bob", bob.encode()):
        assert needle not in logs, needle
    assert log_pseudonym(live.layout, bob).encode() in logs
    assert ProfileStore(live.layout).user_ids() == {bob: "Bob"}
    assert (live.layout.user_dir(bob) / "memorable_scenes").is_dir()

    live.rec[t.USER_DETECTED].clear()
    live.camera.show([faces / "df_a_02.jpg"])
    live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_name == "Unknown", timeout=30)
    again = live.say("Hello Nadine, do you remember me?")
    assert again.user_id != maya and again.user_name != "Maya"
    assert again.retrieved is None or "PhD" not in (again.retrieved.user_message or "")


def test_spoken_forget_after_a_confirmation(live: LiveSuite, shared_data):
    faces = shared_data / "faces"
    carla = meet(live, faces / "df_c_01.jpg", "Carla", "I finally finished my first marathon, I'm so proud!")
    live.camera.show([faces / "df_c_02.jpg"])
    live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_id == carla, timeout=30)
    needles = user_needles(live, carla, "Carla")

    ask = live.say("Nadine, please forget me and delete my data.")
    assert "yes or no" in ask.reply and ask.user_id == carla
    assert carla in ProfileStore(live.layout).user_ids()  # nothing happens before the answer
    live.rec[t.USER_FORGOTTEN].clear()
    done = live.say("Yes.")
    assert done.intent == "forget_confirmed"
    for process in ("perception", "interaction", "control"):
        live.rec[t.USER_FORGOTTEN].wait_for(lambda m, p=process: m.user_id == carla and m.process == p, timeout=30)
    live.rec[t.USER_DETECTED].clear()
    live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_name == "Unknown", timeout=30)  # a stranger now
    time.sleep(STUDY_AUDIO_TIMEOUT_S + 2.0)  # the study record of the "yes" turn, scrubbed by the late pass
    assert find_traces(live.layout.root, needles) == []
