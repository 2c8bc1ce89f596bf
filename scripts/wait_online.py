"""Wait until Nadine's processes report online (retained nadine/status/<process>), for
`start_nadine.sh --detach`, which returns only then (or says which did not come up).

    python -m scripts.wait_online [--timeout S] [PROCESS ...]   default: perception interaction control

Exit 0 when all are online, 1 naming the ones that are not after the timeout (or exited, see
--pids), 2 when no broker answers or the config is invalid, 3 when all are online but perception is
degraded (its camera cannot be opened: the line says which and why).
"""

from __future__ import annotations

import argparse
import sys
import time

from common.bus import Bus
from common.config import ConfigError, load_settings
from common.supervisor.online import CAMERA_WAIT_S, CameraWatch, degraded, wait_online
from common.topics import PROCESSES, Topics


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
