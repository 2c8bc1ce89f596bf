"""The speech worker in-process: onset/end timing against the real WAV, queueing, stop_speak."""

from __future__ import annotations

import threading
import time

from common.config.control_settings import TtsSettings
from common.messages import Speak
from control.audio import TimedPlayer
from control.speech import SpeechWorker
from control.tts import EspeakTts


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
