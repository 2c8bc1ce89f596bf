"""Writes that wait for a turn's reply (common.store.atomic.writes_deferred): this process reads them at
once, nothing is on disk before they are written, they are written however the block ends (an error,
the process ending), each atomically, and the locks they were made under are held until then without
ever waiting for another lock while keeping one."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from filelock import FileLock, Timeout

from common.store import atomic
from common.store.atomic import (
    atomic_write_json,
    file_lock,
    read_json,
    write_deferred_now,
    write_json_if_changed,
    writes_deferred,
)

ROOT = Path(__file__).resolve().parents[2]


def _lock_free(path: Path) -> bool:
    """Whether another holder (a fresh FileLock: its own descriptor, as another process) gets the lock."""
    lock = FileLock(atomic._lock_path(path, False))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return False
    lock.release()
    return True


def test_a_deferred_write_is_read_here_at_once_and_on_disk_only_when_written(tmp_path):
    path = tmp_path / "user" / "info.json"
    with writes_deferred():
        with file_lock(path):
            atomic_write_json(path, {"job": "nurse"})
        assert path.parent.is_dir() and not path.exists()
        assert read_json(path) == {"job": "nurse"}
        assert not write_json_if_changed(path, {"job": "nurse"})  # the same bytes wait already
        assert not _lock_free(path)  # nobody reads the old file or loses an update over it
        write_deferred_now()
        assert json.loads(path.read_text()) == {"job": "nurse"} and _lock_free(path)
        atomic_write_json(path, {"job": "baker"})  # after a write_deferred_now, writes wait again
        assert json.loads(path.read_text()) == {"job": "nurse"}
    assert json.loads(path.read_text()) == {"job": "baker"} and read_json(path) == {"job": "baker"}
    assert not list(tmp_path.rglob(f"{atomic.TMP_PREFIX}*"))


def test_a_block_that_fails_still_writes_what_waits_and_releases_its_locks(tmp_path):
    path = tmp_path / "info.json"
    with pytest.raises(RuntimeError), writes_deferred():
        with file_lock(path):
            atomic_write_json(path, [1, 2])
        raise RuntimeError("the turn failed after storing")
    assert json.loads(path.read_text()) == [1, 2] and _lock_free(path)


def test_a_lock_that_guarded_no_write_is_released_at_once(tmp_path):
    path = tmp_path / "ids.json"
    with writes_deferred():
        with file_lock(path):
            read_json(path, {})
        assert _lock_free(path)


def test_a_process_that_ends_normally_inside_the_block_writes_what_waits(tmp_path):
    path = tmp_path / "info.json"
    code = ("import sys; from pathlib import Path; from common.store.atomic import atomic_write_json, writes_deferred\n"
            f"with writes_deferred():\n    atomic_write_json(Path({str(path)!r}), {{'told': 'yes'}})\n    sys.exit(0)\n")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)
    assert json.loads(path.read_text()) == {"told": "yes"}


def test_waiting_for_a_lock_first_writes_and_lets_go_of_the_kept_ones(tmp_path):
    """Thread one keeps lock A for a waiting write and then wants B; thread two holds B and wants A:
    thread one writes A's file and lets A go instead of waiting with it, so neither waits for ever."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    b_held, a_kept, done = threading.Event(), threading.Event(), []

    def one() -> None:
        with writes_deferred():
            with file_lock(a):
                atomic_write_json(a, "from one")
            a_kept.set()
            b_held.wait(30)
            with file_lock(b):
                done.append(("one", read_json(a)))

    def two() -> None:
        with file_lock(b):
            b_held.set()
            a_kept.wait(30)
            with file_lock(a):  # waits until one lets A go
                done.append(("two", read_json(a)))

    threads = [threading.Thread(target=one), threading.Thread(target=two)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    assert sorted(done) == [("one", "from one"), ("two", "from one")]  # two read A as written on disk


def test_a_daemon_thread_not_let_finish_its_block_has_its_writes_written_when_the_process_ends(tmp_path):
    path = tmp_path / "info.json"
    code = ("import threading; from pathlib import Path\n"
            "from common.store.atomic import atomic_write_json, writes_deferred\n"
            "staged = threading.Event()\n"
            "def turn():\n    with writes_deferred():\n"
            f"        atomic_write_json(Path({str(path)!r}), {{'told': 'late'}})\n"
            "        staged.set()\n        threading.Event().wait()  # never ends its block\n"
            "threading.Thread(target=turn, daemon=True).start()\nstaged.wait(30)\n")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)
    assert json.loads(path.read_text()) == {"told": "late"}
