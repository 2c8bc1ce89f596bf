"""Entry point: python -m control. Speech, gestures and gaze for the robot (or its simulation)."""

from __future__ import annotations

import logging
from pathlib import Path

from common import topics as t
from common.config.loader import PROJECT_ROOT
from common.messages import UserForgotten
from common.runtime import base_parser, start_process
from control.animations import AnimationLibrary
from control.audio import make_player
from control.body import Body
from control.driver import DriverError, make_driver
from control.motion import Motion
from control.service import ControlService, SpeechFeedback
from control.speech import SpeechWorker
from control.tts import TtsError, make_tts

log = logging.getLogger("nadine.control")


def _library_path(configured: str) -> Path:
    path = Path(configured)
    return path if path.is_absolute() else PROJECT_ROOT / path


def main(argv: list[str] | None = None) -> int:
    args = base_parser("control").parse_args(argv)
    ctx = start_process("control", args)
    cfg = ctx.settings.control
    try:
        driver = make_driver(cfg.driver)
        tts = make_tts(cfg.tts)
        player = make_player(cfg.tts.play_audio)
    except (DriverError, TtsError) as exc:
        log.error("control cannot start: %s", exc)
        return 2
    motion = Motion(driver, cfg.motion.frame_period_s)
    body = Body(motion, AnimationLibrary.load(_library_path(cfg.animations.library_path)), cfg.motion)
    speech = SpeechWorker(tts, player, SpeechFeedback(ctx.bus, body), cfg.tts.queue_limit)
    service = ControlService(ctx.bus, body, speech)
    log.info("control: tts %s, %s, driver %s", tts.name, player.description, driver.name)
    motion.start(on_frame=body.idle_tick)
    speech.start()
    service.subscribe()
    # control keeps nothing about a person: it only confirms, so a forget request knows it is done
    ctx.bus.subscribe(t.FORGET_USER, lambda msg: ctx.bus.publish(
        t.USER_FORGOTTEN, UserForgotten(user_id=msg.user_id, process="control")))
    ctx.bus.subscribe(t.FORGET_MEMORY, lambda msg: ctx.bus.publish(
        t.USER_FORGOTTEN, UserForgotten(user_id=msg.user_id, process="control", memory_id=msg.memory_id)))
    ctx.bus.start()
    try:
        ctx.stop_event.wait()
    finally:
        speech.close()
        motion.stop()
        driver.close()
        ctx.bus.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
