"""python -m scripts.memory list / show / forget, on a data root filled by the real stores and the
real episodic memory (Chroma + MiniLM), with and without processes answering on the bus."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from datetime import datetime

import numpy as np
import pytest

from common import topics as t
from common.clock import Clock
from common.messages import ForgetUser, UserForgotten
from common.store import DataLayout, ProfileStore
from tests.reliability.populate import plant_pair
from tests.reliability.traces import find_traces, vector_needles
from tests.support import PROJECT_ROOT, Recorder, stop_chroma

pytest.importorskip("interaction.memory.episodic")


def cli(*args: str, env: dict | None = None, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scripts.memory", *args], cwd=PROJECT_ROOT, env=env,
                          input=stdin, capture_output=True, text=True, timeout=120)


def save_episodes(layout: DataLayout, users) -> None:
    """Each user gets one saved session through interaction's own episodic memory."""
    from common.config.interaction_settings import ChromaSettings
    from common.embedding.chroma import NadineEmbeddingFunction
    from common.embedding.registry import offline_text_embedder
    from interaction.memory.chroma_store import make_client
    from interaction.memory.contracts import EpisodicSave, TranscriptTurn
    from interaction.memory.episodic import EpisodicMemory

    client = make_client(ChromaSettings(), layout.chroma_dir)
    episodic = EpisodicMemory(client, NadineEmbeddingFunction(offline_text_embedder()), Clock(None))
    for u in users:
        turns = [TranscriptTurn("user", f"I am {u.name} and I love sailing", datetime(2026, 1, 1, 12))]
        summary = EpisodicSave(observation=f"{u.name} visited", thought="nice", action="chat",
                               result=f"{u.name} loves sailing")
        assert episodic.save(u.user_id, u.name, turns, summary)
        got = client.get_collection(u.user_id).get(include=["embeddings"])
        u.vectors.extend(np.asarray(e) for e in got["embeddings"])
    # the sessions were interaction's to save, in a process of its own: this one keeps no Chroma system
    # open on the folder (its HNSW segments would write their index back whenever they are collected,
    # after a forget under test has removed them)
    stop_chroma()


@pytest.fixture
def planted(tmp_path):
    layout, maya, bob, _ = plant_pair(tmp_path, 11)
    save_episodes(layout, [maya, bob])
    return layout, maya, bob


def test_list_and_show(planted):
    layout, maya, _ = planted
    out = cli("--data-dir", str(layout.root), "list")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[1].split()[:4] == ["260101_0001", "Maya", "2", "1"]
    shown = json.loads(cli("--data-dir", str(layout.root), "show", maya.user_id, "--json").stdout)
    assert shown["user_name"] == "Maya" and shown["profile"]["hobbies"] == ["chess"]
    assert len(shown["scenes"]) == 2 and len(shown["faces"]) == 1


def test_forget_without_processes_erases_every_byte(planted):
    layout, maya, bob = planted
    out = cli("--data-dir", str(layout.root), "forget", maya.user_id, "--yes", "--no-bus")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    # the session summary, its transcript and the one user turn (issue 12: turns are documents too)
    assert report["local"]["text_memories"] == 3 and report["local"]["scenes"] == 2
    assert find_traces(layout.root, maya.needles()) == []
    assert find_traces(layout.root, {"bob": vector_needles(bob.vectors[-1])})  # Bob's episode stays
    assert ProfileStore(layout).user_ids() == {bob.user_id: "Bob"}


def test_forget_asks_for_confirmation_and_refuses_bad_ids(planted):
    layout, maya, _ = planted
    out = cli("--data-dir", str(layout.root), "forget", maya.user_id, "--no-bus", stdin="nope\n")
    assert out.returncode == 1 and "not confirmed" in out.stderr
    assert maya.user_id in ProfileStore(layout).user_ids()
    out = cli("--data-dir", str(layout.root), "forget", "../260101_0001", "--yes", "--no-bus")
    assert out.returncode == 2 and "invalid user id" in out.stderr
    out = cli("--data-dir", str(layout.root), "forget", maya.user_id, "--no-bus", stdin=f"{maya.user_id}\n")
    assert out.returncode == 0 and maya.user_id not in ProfileStore(layout).user_ids()


def test_forget_waits_for_every_online_process(planted, broker, root, bus_factory):
    """Stand-ins for the running processes (outside the CLI under test) answer as the real ones do."""
    layout, maya, _ = planted
    answered = threading.Event()
    pseudonyms: set[str | None] = set()
    responders = {}
    for name in ("perception", "control"):
        bus = bus_factory(name)  # its retained status says `online`

        def answer(msg: ForgetUser, bus=bus, name=name) -> None:
            pseudonyms.add(msg.pseudonym)
            bus.publish(t.USER_FORGOTTEN, UserForgotten(user_id=msg.user_id, process=name, removed={"x": 1}))
            answered.set()

        bus.subscribe(t.FORGET_USER, answer)
        responders[name] = bus
    env = dict(os.environ, NADINE_MQTT_HOST=broker.host, NADINE_MQTT_PORT=str(broker.port),
               NADINE_MQTT_FALLBACK_HOST="", NADINE_TOPIC_ROOT=root)
    out = cli("--data-dir", str(layout.root), "forget", maya.user_id, "--yes", env=env)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report["processes"]) == {"perception", "control"} and report["missing"] == []
    assert find_traces(layout.root, maya.needles()) == []
    # every process is handed the one pseudonym the CLI wrote into the study logs
    (pseudonym,) = pseudonyms
    logs = b"".join(p.read_bytes() for p in layout.study_logs_dir.rglob("*") if p.is_file())
    assert pseudonym and pseudonym.encode() in logs

    responders["control"].stop()  # says `offline`: not waited for any more
    silent = bus_factory("interaction")  # online but never answers
    out = cli("--data-dir", str(layout.root), "forget", "260101_0002", "--yes", "--timeout", "2", env=env)
    assert out.returncode == 1 and json.loads(out.stdout)["missing"] == ["interaction"]
    assert silent.connected


BAD_MEMORY_IDS = [
    ("moment", "../../user_info"), ("moment", "scene_20260101_120000\n"), ("fact", "passwords:x"),
    ("fact", "hobbies:"), ("fact", "hobbies"), ("episode", "a\x1bb"), ("explicit_memory", "x" * 301),
]


def test_bad_memory_ids_are_refused_before_the_bus(planted, broker, root, bus_factory):
    from common.store.memory_ids import InvalidMemoryId, validate_memory_id

    layout, maya, _ = planted
    watcher = bus_factory("watcher")
    sent = Recorder(watcher, t.FORGET_MEMORY)
    env = dict(os.environ, NADINE_MQTT_HOST=broker.host, NADINE_MQTT_PORT=str(broker.port),
               NADINE_MQTT_FALLBACK_HOST="", NADINE_TOPIC_ROOT=root)
    for kind, memory_id in BAD_MEMORY_IDS:
        with pytest.raises(InvalidMemoryId):
            validate_memory_id(kind, memory_id)
        out = cli("--data-dir", str(layout.root), "forget-memory", maya.user_id, kind, memory_id, env=env)
        assert out.returncode == 2 and "invalid" in out.stderr, (kind, memory_id, out.stderr)
    assert watcher.sync(10) and sent.messages == []  # whatever the broker had for us has arrived: nothing


def test_good_memory_ids_pass():
    from common.store.memory_ids import validate_memory_id

    for kind, memory_id in (("moment", "scene_20260101_120000_a1b2c3"), ("fact", "location:New York"),
                            ("episode", "session 2026-01-01 12:00"), ("explicit_memory", "explicit_1")):
        assert validate_memory_id(kind, memory_id) == memory_id
