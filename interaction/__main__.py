"""Entry point: python -m interaction. Connects to the bus, announces itself and serves until stopped."""

from __future__ import annotations

import logging

from common.runtime import base_parser, start_process

log = logging.getLogger("nadine.interaction")


def main(argv: list[str] | None = None) -> int:
    args = base_parser("interaction").parse_args(argv)
    ctx = start_process("interaction", args)
    ctx.bus.start()
    log.info("interaction running (data root %s)", ctx.layout.root)
    try:
        ctx.stop_event.wait()
    finally:
        ctx.bus.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
