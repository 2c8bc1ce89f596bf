"""file_lock excludes threads of one process as it excludes processes (test_crash_safety covers those):
an unlocked read-modify-write of a counter loses updates between threads, the locked one none."""

from __future__ import annotations

import threading
import time

from common.store.atomic import atomic_write_json, file_lock, read_json


def _bump(path, rounds: int, locked: bool) -> None:
    for _ in range(rounds):
        if locked:
            with file_lock(path):
                value = read_json(path, 0)
                time.sleep(0.0005)  # widen the read-modify-write window
                atomic_write_json(path, value + 1)
        else:
            value = read_json(path, 0)
            time.sleep(0.0005)
            atomic_write_json(path, value + 1)


def _run(path, locked: bool, threads: int = 4, rounds: int = 25) -> int:
    workers = [threading.Thread(target=_bump, args=(path, rounds, locked)) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=60)
    return read_json(path, 0)


def test_threads_holding_the_lock_lose_no_update(tmp_path):
    assert _run(tmp_path / "counter.json", locked=True) == 4 * 25
    assert (tmp_path / "counter.json.lock").exists()


def test_without_the_lock_the_same_threads_lose_updates(tmp_path):
    # the control that shows the locked test can fail
    assert _run(tmp_path / "counter.json", locked=False) < 4 * 25
