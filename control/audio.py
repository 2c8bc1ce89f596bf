"""Audio output: play a WAV on a real device when one exists, otherwise let its real duration elapse.

Either way `play` returns no earlier than the WAV's length after it began (or at once when stopped),
so end_speak means what it says even on a machine without a sound card.
"""

from __future__ import annotations

import glob
import logging
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Protocol

from control.tts import TtsError, Utterance

log = logging.getLogger("nadine.control.audio")

POLL_S = 0.02


class Player(Protocol):
    description: str

    def play(self, utt: Utterance, stop: threading.Event) -> bool:
        """Blocks until the audio has finished (True) or `stop` was set (False)."""
        ...


class TimedPlayer:
    """No device: playback is the WAV's duration elapsing."""

    description = "no audio device: playback is timed by the WAV's duration"

    def play(self, utt: Utterance, stop: threading.Event) -> bool:
        return not stop.wait(utt.duration_s)


class DevicePlayer:
    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.description = f"playing through {' '.join(command)}"

    def play(self, utt: Utterance, stop: threading.Event) -> bool:
        if utt.wav is None:
            return not stop.wait(utt.duration_s)
        began = time.monotonic()
        proc = subprocess.Popen([*self.command, str(utt.wav)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            # a player can return before the device has drained its buffer: wait out the WAV's length too
            while proc.poll() is None or time.monotonic() - began < utt.duration_s:
                if stop.wait(POLL_S):
                    return False
            if proc.returncode != 0:
                log.warning("%s exited with %d: %s", self.command[0], proc.returncode,
                            (proc.stderr.read() if proc.stderr else b"").decode(errors="replace").strip())
            return True
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(1.0)
                except subprocess.TimeoutExpired:
                    proc.kill()


def _pulse_available() -> bool:
    if os.environ.get("PULSE_SERVER"):
        return True
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    return bool(runtime) and Path(runtime, "pulse", "native").exists()


def find_device_player() -> DevicePlayer | None:
    paplay = shutil.which("paplay")
    if paplay and _pulse_available():
        return DevicePlayer([paplay])
    aplay = shutil.which("aplay")
    if aplay and glob.glob("/dev/snd/pcmC*D*p"):
        return DevicePlayer([aplay, "-q"])
    return None


def make_player(play_audio: str) -> Player:
    if play_audio == "never":
        return TimedPlayer()
    device = find_device_player()
    if device is not None:
        return device
    if play_audio == "always":
        raise TtsError(
            "control.tts.play_audio is 'always' but no audio output was found (paplay with a PulseAudio "
            "server, or aplay with a /dev/snd playback device); install alsa-utils/pulseaudio-utils or use 'auto'"
        )
    return TimedPlayer()
