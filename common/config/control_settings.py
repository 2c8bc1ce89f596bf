"""control.yaml (root key `control:`): speech, robot driver, animations, gaze."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from common.config.base import Section


class TtsSettings(Section):
    provider: Literal["espeak", "none"] = "espeak"
    voices: dict[str, str] = Field(
        default_factory=lambda: {"en": "en-us", "fr": "fr-fr", "de": "de", "es": "es", "it": "it", "nl": "nl"},
        description="locale language -> espeak-ng voice",
    )
    rate_wpm: int = Field(165, ge=80, le=450)
    play_audio: Literal["auto", "always", "never"] = Field("auto", description="auto: play when a device exists")


class DriverSettings(Section):
    kind: Literal["simulated", "serial"] = "simulated"
    serial_port: str | None = Field(None, description="e.g. /dev/ttyUSB0; the serial driver refuses to start without it")
    baud: int = 115200
    log_rate_hz: float = Field(2.0, gt=0, description="simulated driver: joint/gaze log lines per second at most")


class AnimationSettings(Section):
    library_path: str = Field("control/animations", description="folder of XML animations (<animation_name>)")


class ControlSettings(Section):
    tts: TtsSettings = TtsSettings()
    driver: DriverSettings = DriverSettings()
    animations: AnimationSettings = AnimationSettings()
