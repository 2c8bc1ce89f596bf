"""control.yaml (root key `control:`): speech, robot driver, animations, gaze."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from common.config.base import Section


class TtsSettings(Section):
    provider: Literal["espeak", "none"] = "espeak"
    voices: dict[str, str] = Field(
        default_factory=lambda: {"en": "en-us", "fr": "fr-fr", "de": "de", "es": "es", "it": "it", "nl": "nl"},
        description="locale (full, e.g. en-GB, or its language, e.g. en) -> espeak-ng voice",
    )
    default_locale: str = Field("en-US", description="voice used when a locale has no entry in voices")
    rate_wpm: int = Field(165, ge=80, le=450)
    play_audio: Literal["auto", "always", "never"] = Field("auto", description="auto: play when a device exists")
    synth_timeout_s: float = Field(20.0, gt=0, description="espeak-ng must finish one utterance within this")
    queue_limit: int = Field(20, ge=1, description="speak requests waiting behind the current one; more are dropped")


class DriverSettings(Section):
    kind: Literal["simulated", "serial"] = "simulated"
    serial_port: str | None = Field(None, description="e.g. /dev/ttyUSB0; the serial driver refuses to start without it")
    baud: int = 115200
    log_rate_hz: float = Field(2.0, gt=0, description="simulated driver: joint/gaze log lines per second at most")


class AnimationSettings(Section):
    library_path: str = Field("control/animations", description="folder of XML animations (<animation_name>)")


class MotionSettings(Section):
    frame_period_s: float = Field(0.03, gt=0, le=1, description="motion loop period (the reference's 30 ms)")
    idle_blink_s: float = Field(8.0, gt=0, description="full blink after this long with every joint idle")
    look_at_priority_s: float = Field(2.0, ge=0, description="gestures leave head and eyes alone this long after a look_at")
    gaze_move_s: float = Field(0.3, gt=0, description="time a look_at takes to reach its target")


class ControlSettings(Section):
    tts: TtsSettings = TtsSettings()
    driver: DriverSettings = DriverSettings()
    animations: AnimationSettings = AnimationSettings()
    motion: MotionSettings = MotionSettings()
