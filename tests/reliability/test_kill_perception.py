"""kill -9 of the real perception process while it stores scenes in a loop: nothing unreadable, no
committed scene lost, and the next start-up sweep removes what the killed writer left half-done."""

from __future__ import annotations

import os
import random
import shutil
import time
from datetime import datetime
from pathlib import Path

import pytest

from common import topics as t
from common.messages import AffectState, UserInfo
from common.store import DataLayout, ProfileStore, SceneStore
from common.store.atomic import TMP_PREFIX
from tests.support import NadineProcess, Recorder, make_bus, process_env, unique_root

pytestmark = [pytest.mark.shared_data, pytest.mark.slow]

KILLS = 3
FAST = ["perception.faces.announce_period_s=0.5", "perception.selective_memory.decision_wait_s=2.0",
        "perception.camera.fps=20"]


def _start(env: dict[str, str], bus) -> NadineProcess:
    online = Recorder(bus, t.status_spec("perception"))
    proc = NadineProcess("perception", env, sum((["--config-override", o] for o in FAST), []))
    online.wait_for(lambda m: m.value == "online", timeout=60)
    return proc


def _committed(layout: DataLayout, user_id: str) -> dict[str, Path]:
    """scene_id -> image of every scene whose metadata (the commit marker) is readable."""
    store = SceneStore(layout)
    out = {}
    for path in store.metadata_files(user_id):
        meta = store.read(path)
        assert meta is not None, f"unreadable scene metadata {path}"
        assert Path(meta.image_path).is_file(), f"committed scene {meta.scene_id} has no image"
        out[meta.scene_id] = Path(meta.image_path)
    return out


def test_kill_9_while_storing_scenes(broker, shared_data, tmp_path):
    root = unique_root()
    camera = tmp_path / "camera"
    camera.mkdir()
    shutil.copy(shared_data / "faces" / "df_a_01.jpg", camera / "face.jpg")
    layout = DataLayout(tmp_path / "data")
    user_id = ProfileStore(layout).mint_user_id("Kim", datetime.now())
    env = process_env(broker, root, layout.root, tmp_path / "logs", NADINE_CAMERA=f"watch:{camera}")
    bus = make_bus("tester", broker, root)
    detected = Recorder(bus, t.USER_DETECTED)
    stored = Recorder(bus, t.SCENE_STORED)
    rng = random.Random(7)
    committed: dict[str, Path] = {}
    try:
        proc = _start(env, bus)
        detected.wait_for(lambda m: m.user_name == "Unknown", timeout=30)
        bus.publish(t.USER_INFO, UserInfo(user_name="Kim", user_id=user_id))
        detected.wait_for(lambda m: m.user_id == user_id, timeout=30)
        for kill in range(KILLS):
            stored.clear()
            # kill a random moment after the first scene of this round is stored: a loaded machine may
            # take seconds for the first one, so a fixed window would kill before any write began
            give_up = time.monotonic() + 60
            deadline = None
            n = 0
            while deadline is None or time.monotonic() < deadline:  # one affect event per frame or so
                if deadline is None and stored.messages:
                    deadline = time.monotonic() + rng.uniform(0.2, 1.5)
                assert time.monotonic() < give_up, "perception stored nothing within 60 s"
                n += 1
                bus.publish(t.AFFECT_STATE, AffectState(
                    label="happy", arousal=0.6, intensity=0.8, user_label="happy", user_intensity=0.9,
                    user_message=f"moment {kill}-{n}", turn_id=f"k{kill}-{n}"))
                time.sleep(0.03)
            proc.kill9()
            assert stored.messages, "perception stored nothing before the kill"
            before = _committed(layout, user_id)
            assert set(committed) <= set(before), "a committed scene was lost"
            committed = before
            # the writer's leftovers count as stale for the sweep (it spares files younger than 60 s)
            old = time.time() - 120
            for path in layout.root.rglob("*"):
                if path.is_file():
                    os.utime(path, (old, old))
            detected.clear()
            proc = _start(env, bus)
            detected.wait_for(lambda m: m.user_id == user_id, timeout=30)
            leftovers = [p for p in layout.root.rglob(f"{TMP_PREFIX}*")]
            assert leftovers == [], leftovers
            images = {p.stem for p in layout.scenes_dir(user_id).joinpath("images").glob("*.jpg")}
            assert images == set(_committed(layout, user_id)), "an image without metadata survived the sweep"
        proc.stop()
        assert len(committed) >= KILLS
    finally:
        bus.stop()
