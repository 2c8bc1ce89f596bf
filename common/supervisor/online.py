"""Waiting for Nadine's processes to report online (their retained <root>/status/<process>) and for
perception's camera status, for `start_nadine.sh --detach` (through scripts/wait_online.py)."""

from __future__ import annotations

import os
import threading
import time

from common import topics as t
from common.bus import Bus
from common.messages import CameraStatus

CAMERA_WAIT_S = 10.0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a crashed child of the launcher's shell is a zombie until reaped: kill(0) still succeeds
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return True


def wait_online(bus: Bus, processes: list[str], timeout: float, pids: dict[str, int] | None = None) -> list[str]:
    """The processes not online when `timeout` ran out (or as soon as one of `pids` has exited)."""
    online: set[str] = set()
    changed = threading.Condition()

    def on_status(name: str, msg) -> None:  # noqa: ANN001 - ProcessStatus
        with changed:
            (online.add if msg.value == "online" else online.discard)(name)
            changed.notify_all()

    for name in processes:
        bus.subscribe(t.status_spec(name), lambda msg, name=name: on_status(name, msg))
    deadline = time.monotonic() + timeout
    with changed:
        while True:
            missing = [p for p in processes if p not in online]
            dead = [p for p in missing if pids and p in pids and not _alive(pids[p])]
            if not missing or dead or time.monotonic() >= deadline:
                return missing
            changed.wait(min(0.5, max(0.0, deadline - time.monotonic())))


class CameraWatch:
    """Perception's camera status as reported after it came online (a retained one left by an earlier
    perception is dropped when the status changes). Subscribe before the bus starts."""

    def __init__(self, bus: Bus) -> None:
        self._status: CameraStatus | None = None
        self._changed = threading.Condition()
        bus.subscribe(t.status_spec("perception"), self._on_process)
        # after the status: the broker hands retained messages over in subscription order
        bus.subscribe(t.CAMERA_STATUS, self._on_camera)

    def _on_process(self, msg) -> None:  # noqa: ANN001 - ProcessStatus
        with self._changed:
            self._status = None

    def _on_camera(self, msg: CameraStatus) -> None:
        with self._changed:
            self._status = msg
            self._changed.notify_all()

    def wait(self, timeout: float) -> CameraStatus | None:
        with self._changed:
            self._changed.wait_for(lambda: self._status is not None, timeout)
            return self._status


def degraded(camera: CameraStatus | None) -> str | None:
    """Why an online perception cannot see (its camera cannot be opened), or None."""
    if camera is None:
        return "perception has not reported its camera"
    if not camera.ok:
        return f"perception has no camera: {camera.source}: {camera.error or 'not delivering'}"
    return None
