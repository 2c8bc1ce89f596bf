"""Wait until Nadine's processes report online (retained nadine/status/<process>), for
`start_nadine.sh --detach`, which returns only then (or says which did not come up).

    python -m scripts.wait_online [--timeout S] [PROCESS ...]   default: perception interaction control

Exit 0 when all are online, 1 naming the ones that are not after the timeout (or exited, see
--pids), 2 when no broker answers or the config is invalid, 3 when all are online but perception is
degraded (its camera cannot be opened: the line says which and why).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time

from common import topics as t
from common.bus import Bus
from common.config import ConfigError, load_settings
from common.messages import CameraStatus
from common.topics import Topics

PROCESSES = ("perception", "interaction", "control")
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.wait_online", description=__doc__.split("\n\n")[0])
    parser.add_argument("processes", nargs="*", default=list(PROCESSES))
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait (models load first)")
    parser.add_argument("--pids", default="", help="name=pid,... : stop waiting as soon as one has exited")
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"wait_online: {exc}", file=sys.stderr)
        return 2
    pids = {k: int(v) for k, _, v in (p.partition("=") for p in args.pids.split(",") if p) if v.isdigit()}
    bus = Bus("wait-online", settings.common.mqtt, Topics(settings.common.topic_root))
    camera_watch = CameraWatch(bus) if "perception" in args.processes else None
    try:
        if not bus.start(wait_s=10):
            print(f"wait_online: no MQTT broker answers on {settings.common.mqtt.primary_host}:"
                  f"{settings.common.mqtt.port}", file=sys.stderr)
            return 2
        started = time.monotonic()
        missing = wait_online(bus, args.processes, args.timeout, pids)
        # perception reports its camera right after its first frame attempt
        camera = camera_watch.wait(max(CAMERA_WAIT_S, args.timeout - (time.monotonic() - started))) \
            if camera_watch is not None and not missing else None
    finally:
        bus.stop()
    if missing:
        print(f"not online after {args.timeout:.0f} s: {', '.join(missing)} (see their logs)", file=sys.stderr)
        return 1
    print(f"online: {', '.join(args.processes)}", file=sys.stderr)
    if camera_watch is not None and (problem := degraded(camera)):
        print(f"degraded: {problem}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
