"""Entry point: python -m perception [--preview] [--study] [--config-override KEY=VALUE ...].

The bus handlers only enqueue; the frame loop runs on the main thread until SIGTERM / Ctrl-C.
"""

from __future__ import annotations

import logging
from pathlib import Path

from common import topics as t
from common.messages import CameraStatus
from common.runtime import base_parser, start_process
from perception.assemble import build
from perception.camera import Camera, make_source
from perception.preview import preview_unavailable

log = logging.getLogger("nadine.perception")


def main(argv: list[str] | None = None) -> int:
    parser = base_parser("perception")
    parser.add_argument("--preview", action="store_true", help="open the preview window (NADINE_PREVIEW=1)")
    parser.add_argument("--study", action="store_true", help="FER sampling and FER novelty on")
    args = parser.parse_args(argv)
    if args.study:  # FER novelty needs the FER samples, so --study turns both on
        args.config_override += ["perception.fer.enabled=true", "perception.fer.novelty=true"]
    ctx = start_process("perception", args)
    settings = ctx.settings  # start_process has already swept leftovers of a killed writer
    preview = args.preview or settings.perception.camera.preview
    if preview and (reason := preview_unavailable()):
        # start_nadine.sh refuses --preview before starting anything; run directly, the process
        # says so once and serves headless
        log.error("preview window unavailable: %s. Continuing headless.", reason)
        preview = False
    camera = Camera(make_source(settings.perception.camera, Path.cwd()), settings.perception.camera)
    perception = build(settings, ctx.layout, ctx.bus, ctx.clock, preview=preview)
    perception.subscribe()
    # connect only once the models are loaded: the retained `online` status then means "ready"
    ctx.bus.start()
    log.info("perception running: camera %s, data root %s", camera.source.description, ctx.layout.root)
    try:
        perception.run(camera, ctx.stop_event)
    finally:
        camera.close()
        # the retained camera status outlives the process: it must not claim a view nobody serves
        ctx.bus.publish(t.CAMERA_STATUS, CameraStatus(source=camera.source.description, ok=False,
                                                      error="perception is not running"))
        ctx.bus.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
