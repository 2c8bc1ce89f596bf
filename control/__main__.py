"""Entry point: python -m control. Connects to the bus, announces itself and serves until stopped."""

from __future__ import annotations

import logging

from common.runtime import base_parser, start_process

log = logging.getLogger("nadine.control")


def main(argv: list[str] | None = None) -> int:
    args = base_parser("control").parse_args(argv)
    ctx = start_process("control", args)
    ctx.bus.start()
    log.info("control running (data root %s)", ctx.layout.root)
    try:
        ctx.stop_event.wait()
    finally:
        ctx.bus.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
