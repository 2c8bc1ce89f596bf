"""The speech worker in-process: onset/end timing against the real WAV, queueing, stop_speak."""

from __future__ import annotations

import logging
import threading
import time

from common.config.control_settings import TtsSettings
from common.messages import Speak
from control.audio import TimedPlayer
from control.speech import SpeechWorker
from control.tts import EspeakTts, TtsError


class Listener:
    def __init__(self) -> None:
        self.events: list[tuple[str, float]] = []
        self.ended = threading.Semaphore(0)

    def speech_started(self) -> None:
        self.events.append(("start", time.monotonic()))

    def speech_ended(self) -> None:
        self.events.append(("end", time.monotonic()))
        self.ended.release()


class MeasuringTts(EspeakTts):
    def __init__(self) -> None:
        super().__init__(TtsSettings())
        self.durations: list[float] = []

    def synthesize(self, text, locale, out):
        utt = super().synthesize(text, locale, out)
        self.durations.append(utt.duration_s)
        return utt


def test_end_comes_no_earlier_than_the_wav_length_after_onset_and_requests_queue():
    tts, listener = MeasuringTts(), Listener()
    worker = SpeechWorker(tts, TimedPlayer(), listener, queue_limit=5)
    worker.start()
    try:
        worker.say(Speak(text="Hello there, nice to meet you."))
        worker.say(Speak(text="Bonjour, enchantée.", locale="fr-FR"))
        assert listener.ended.acquire(timeout=20) and listener.ended.acquire(timeout=20)
    finally:
        worker.close()
    kinds = [k for k, _ in listener.events]
    assert kinds == ["start", "end", "start", "end"]
    times = [at for _, at in listener.events]
    assert times[1] - times[0] >= tts.durations[0]
    assert times[3] - times[2] >= tts.durations[1]


def test_stop_interrupts_the_current_utterance_and_drops_the_queue():
    tts, listener = MeasuringTts(), Listener()
    worker = SpeechWorker(tts, TimedPlayer(), listener, queue_limit=5)
    worker.start()
    try:
        worker.say(Speak(text="This is a long sentence that Nadine will not be allowed to finish today."))
        worker.say(Speak(text="Nor this one."))
        deadline = time.monotonic() + 10
        while not listener.events and time.monotonic() < deadline:
            time.sleep(0.01)
        worker.stop_speaking()
        assert listener.ended.acquire(timeout=5)
        time.sleep(0.5)
    finally:
        worker.close()
    assert [k for k, _ in listener.events] == ["start", "end"]
    assert listener.events[1][1] - listener.events[0][1] < tts.durations[0] - 1.0


def test_device_player_waits_for_the_wav_length_and_stops_the_player(tmp_path):
    from pathlib import Path

    from control.audio import DevicePlayer
    from control.tts import Utterance

    quick = tmp_path / "quick-player"  # a player that returns before its audio has drained
    quick.write_text("#!/bin/sh\nexit 0\n")
    slow = tmp_path / "slow-player"
    slow.write_text("#!/bin/sh\nexec sleep 30\n")
    for script in (quick, slow):
        script.chmod(0o755)
    utt = Utterance("x", "en-US", Path(tmp_path / "x.wav"), 0.4)
    began = time.monotonic()
    assert DevicePlayer([str(quick)]).play(utt, threading.Event())
    assert time.monotonic() - began >= 0.4
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    began = time.monotonic()
    assert not DevicePlayer([str(slow)]).play(Utterance("x", "en-US", utt.wav, 20.0), stop)
    assert time.monotonic() - began < 3.0


class FailingTts(EspeakTts):
    def __init__(self) -> None:
        super().__init__(TtsSettings())

    def synthesize(self, text, locale, out):
        raise TtsError("the voice is broken")


def test_a_dropped_or_failed_reply_is_logged_without_its_words(caplog):
    """Control never learns who a name belongs to, so its logs cannot hide one behind a pseudonym:
    they say how long a reply was, never what it said."""
    listener = Listener()
    worker = SpeechWorker(FailingTts(), TimedPlayer(), listener, queue_limit=1)
    with caplog.at_level(logging.INFO, logger="nadine.control.speech"):
        # not started: the first request fills the queue and the second is dropped
        worker.say(Speak(text="Lovely to see you again, Wilhelmina."))
        worker.say(Speak(text="Goodbye, Wilhelmina!"))
        worker.start()
        try:
            deadline = time.monotonic() + 10
            while "could not synthesize" not in caplog.text and time.monotonic() < deadline:
                time.sleep(0.01)
        finally:
            worker.close()
    assert "dropped a 2-word reply" in caplog.text and "could not synthesize a 6-word reply" in caplog.text
    assert "wilhelmina" not in caplog.text.lower()
