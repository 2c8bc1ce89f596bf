"""Text-to-speech backends: text + locale -> a WAV file and its duration.

`espeak` runs espeak-ng (Debian) with the voice configured for the locale; `none` produces no audio
(the utterance lasts 0 s, for machines without espeak-ng or for fast test runs).
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from common.config.control_settings import TtsSettings

log = logging.getLogger("nadine.control.tts")


class TtsError(RuntimeError):
    """The backend cannot start or cannot synthesize; the message says why and what to change."""


@dataclass(frozen=True)
class Utterance:
    text: str
    locale: str
    wav: Path | None
    duration_s: float


class TtsBackend(Protocol):
    name: str

    def synthesize(self, text: str, locale: str, out: Path) -> Utterance: ...


def wav_duration(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / float(w.getframerate())


class EspeakTts:
    name = "espeak"

    def __init__(self, settings: TtsSettings) -> None:
        binary = shutil.which("espeak-ng")
        if binary is None:
            raise TtsError(
                "espeak-ng is not installed: sudo apt-get install espeak-ng (./scripts/bootstrap.sh does it), "
                "or run without speech: NADINE_TTS=none"
            )
        self.binary = binary
        self.settings = settings

    def voice_for(self, locale: str) -> str:
        voices = {k.lower(): v for k, v in self.settings.voices.items()}
        for key in (locale.lower(), locale.split("-")[0].lower()):
            if key in voices:
                return voices[key]
        fallback = self.settings.default_locale
        log.warning("no espeak-ng voice configured for locale %r; using %s", locale, fallback)
        return voices.get(fallback.lower()) or voices.get(fallback.split("-")[0].lower()) or "en-us"

    def synthesize(self, text: str, locale: str, out: Path) -> Utterance:
        cmd = [self.binary, "-v", self.voice_for(locale), "-s", str(self.settings.rate_wpm), "-w", str(out), "--stdin"]
        try:
            # text on stdin: an utterance starting with "-" must never be read as an option
            done = subprocess.run(cmd, input=text.encode("utf-8"), capture_output=True,
                                  timeout=self.settings.synth_timeout_s, check=False)
        except subprocess.TimeoutExpired:
            raise TtsError(f"espeak-ng took longer than {self.settings.synth_timeout_s} s") from None
        if done.returncode != 0 or not out.exists():
            raise TtsError(f"espeak-ng failed ({done.returncode}): {done.stderr.decode(errors='replace').strip()}")
        try:
            duration = wav_duration(out)
        except (wave.Error, EOFError) as exc:
            raise TtsError(f"espeak-ng wrote an unreadable WAV: {exc}") from None
        return Utterance(text, locale, out, duration)


class SilentTts:
    name = "none"

    def __init__(self, settings: TtsSettings) -> None:
        pass

    def synthesize(self, text: str, locale: str, out: Path) -> Utterance:
        return Utterance(text, locale, None, 0.0)


BACKENDS: dict[str, type[EspeakTts] | type[SilentTts]] = {"espeak": EspeakTts, "none": SilentTts}


def make_tts(settings: TtsSettings) -> TtsBackend:
    return BACKENDS[settings.provider](settings)
