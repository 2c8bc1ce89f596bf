"""kill -9 in the middle of writes leaves nothing unreadable; concurrent profile writers lose nothing; a
turn's folder syncs wait for its end but always come."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from common.runtime import startup_sweep
from common.store import DataLayout, ProfileStore, SceneStore, atomic
from common.store.atomic import TMP_PREFIX, sweep_leftovers
from tests.reliability.writers import SHARED_USER
from tests.support import PROJECT_ROOT

USER = "260101_0007"


def writer(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.reliability.writers", *args], cwd=PROJECT_ROOT, **kw)


def leftovers(root: Path) -> list[Path]:
    return list(root.rglob(f"{TMP_PREFIX}*"))


def age(paths: list[Path], seconds: float = 3600) -> None:
    old = time.time() - seconds
    for p in paths:
        os.utime(p, (old, old))


def test_kill_9_while_storing_scenes_leaves_only_whole_scenes(tmp_path):
    layout = DataLayout(tmp_path)
    store = SceneStore(layout)
    rng = random.Random(3)
    for _ in range(6):
        proc = writer("scenes", str(tmp_path), USER, stdout=subprocess.PIPE)
        assert proc.stdout is not None
        proc.stdout.read(1)  # at least one scene stored
        time.sleep(rng.uniform(0.05, 0.4))
        proc.kill()
        proc.wait(5)
        proc.stdout.close()
        # readers see only complete scenes: image and embedding readable, metadata valid
        for meta in store.list(USER):
            assert Path(meta.image_path).read_bytes().startswith(b"\xff\xd8")
            assert store.load_embedding(USER, meta.scene_id) is not None
    assert len(store.list(USER)) >= 6

    # the start-up sweep removes what the kills left (once it is older than a live write could be)
    scene_dirs = layout.scenes_dir(USER)
    age(leftovers(tmp_path) + list(scene_dirs.rglob("*.jpg")) + list(scene_dirs.rglob("*.npy")))
    committed = {m.scene_id for m in store.list(USER)}
    startup_sweep(layout)
    assert leftovers(tmp_path) == []
    images = {p.stem for p in (scene_dirs / "images").glob("*.jpg")}
    embeddings = {p.name.removesuffix("_embedding.npy") for p in (scene_dirs / "embeddings").glob("*.npy")}
    assert images == committed and embeddings == committed


def test_kill_9_during_episodic_saves_leaves_chroma_readable(tmp_path):
    """interaction's episodic memory (real Chroma + MiniLM) killed mid-save, again and again."""
    import sqlite3

    from tests.reliability.writers import episodic_memory

    rng = random.Random(5)
    for _ in range(4):
        proc = writer("episodes", str(tmp_path), USER, stdout=subprocess.PIPE)
        assert proc.stdout is not None
        proc.stdout.read(1)  # at least one save went through
        time.sleep(rng.uniform(0.0, 0.3))
        proc.kill()
        proc.wait(5)
        proc.stdout.close()
    con = sqlite3.connect(tmp_path / "memory" / "chroma" / "chroma.sqlite3")
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    con.close()
    memory = episodic_memory(str(tmp_path))
    found = memory.query(USER, "sailing", "episode", n=500)
    assert len(found) >= 4 and all(m.text.startswith("Observation: visit") for m in found)
    # a session is saved as two documents in one add: never one without the other
    conversations = memory.query(USER, "sailing", "conversation", n=500)
    assert {m.session for m in conversations} == {m.session for m in found}


def test_sweep_spares_files_being_written(tmp_path):
    live = tmp_path / "memory" / f"{TMP_PREFIX}abc.json"
    live.parent.mkdir(parents=True)
    live.write_text("{")
    assert sweep_leftovers(tmp_path) == 0 and live.exists()


def test_a_started_process_sweeps_leftovers(tmp_path, broker, root):
    from tests.support import NadineProcess, process_env

    stale = tmp_path / "data" / "memory" / "user_profiles" / f"{TMP_PREFIX}forget-dead"
    (stale / "faces").mkdir(parents=True)
    (stale / "faces" / "face.jpg").write_bytes(b"x")
    half = tmp_path / "data" / f"{TMP_PREFIX}x.json"
    half.write_text('{"half')
    age([stale, half])
    proc = NadineProcess("control", process_env(broker, root, tmp_path / "data", tmp_path / "logs"))
    try:
        deadline = time.monotonic() + 20
        while (stale.exists() or half.exists()) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not stale.exists() and not half.exists(), proc.log_text()
    finally:
        proc.stop()


def test_concurrent_profile_writers_lose_no_update(tmp_path):
    n, tags = 150, ["aa", "bb", "cc"]
    go = tmp_path / "go"
    procs = [writer("profiles", str(tmp_path), tag, str(n), str(go), stdout=subprocess.PIPE, text=True)
             for tag in tags]
    ready = [Path(f"{go}.{tag}.ready") for tag in tags]
    while not all(r.exists() for r in ready):  # every writer imported and waiting at the start line
        assert all(p.poll() is None for p in procs), "a writer ended before the start"
        time.sleep(0.01)
    for r in ready:
        r.unlink()
    go.touch()
    minted = []
    for proc in procs:
        # a bound, not a wait: 450 fsynced updates under a loaded machine's disk took over 120 s
        out, _ = proc.communicate(timeout=900)
        assert proc.returncode == 0
        minted += json.loads(out)

    store = ProfileStore(DataLayout(tmp_path))
    ids = store.user_ids()
    for tag in tags:
        for i in range(n):
            assert ids[f"{tag}{i:04d}"] == f"name {tag} {i}"
    hobbies = store.load(SHARED_USER).hobbies
    assert sorted(hobbies) == sorted(f"{tag}-{i}" for tag in tags for i in range(n))
    assert len(minted) == len(set(minted)) == len(tags) * len(range(0, n, 10))
    assert all(i in ids for i in minted)
    assert leftovers(tmp_path) == []


def test_deferred_folder_syncs_run_once_per_folder_when_the_outer_block_ends(tmp_path, monkeypatch):
    synced: list[Path] = []
    monkeypatch.setattr(atomic, "_fsync_dir", synced.append)
    with atomic.folder_syncs_deferred():
        atomic.atomic_write_json(tmp_path / "a" / "x.json", 1)
        atomic.atomic_write_json(tmp_path / "a" / "y.json", 2)
        with atomic.folder_syncs_deferred():
            atomic.atomic_write_json(tmp_path / "b" / "z.json", 3)
        assert synced == []
        assert json.loads((tmp_path / "a" / "x.json").read_text()) == 1  # readers see it at once: only the sync waits
    assert synced == [tmp_path / "a", tmp_path / "b"]
    atomic.atomic_write_json(tmp_path / "c.json", 4)
    assert synced[-1] == tmp_path


def test_a_json_file_that_would_not_change_is_not_rewritten(tmp_path):
    path = tmp_path / "p.json"
    assert atomic.write_json_if_changed(path, {"a": 1})
    inode = path.stat().st_ino
    assert not atomic.write_json_if_changed(path, {"a": 1}) and path.stat().st_ino == inode
    assert atomic.write_json_if_changed(path, {"a": 2}) and json.loads(path.read_text()) == {"a": 2}
