"""The speech worker: one thread that synthesizes and plays utterances in order.

Fixed from the original robot, which announced both at once: start_speak goes out when the audio begins (after
synthesis), end_speak when it has finished, never earlier than the WAV's length after onset.
A speak request that arrives while Nadine is speaking is QUEUED and spoken in order, the next starting
as the previous ends: a streamed reply comes as one request per sentence, handed on while the model
is still generating the rest. stop_speak interrupts the utterance that is playing (then end_speak) and
drops everything queued behind it; the dialogue sends it when a new user turn barges in.
"""

from __future__ import annotations

import itertools
import logging
import queue
import tempfile
import threading
from pathlib import Path
from typing import Protocol

from common.messages import Speak
from control.audio import Player
from control.tts import TtsBackend, TtsError

log = logging.getLogger("nadine.control.speech")


class SpeechListener(Protocol):
    def speech_started(self) -> None: ...

    def speech_ended(self) -> None: ...


class SpeechWorker:
    def __init__(self, tts: TtsBackend, player: Player, listener: SpeechListener, queue_limit: int) -> None:
        self.tts = tts
        self.player = player
        self.listener = listener
        self._queue: queue.Queue[tuple[int, Speak] | None] = queue.Queue(maxsize=queue_limit)
        self._interrupt = threading.Event()
        self._generation = 0  # bumped by stop(): requests queued before it are dropped
        self._lock = threading.Lock()
        self._workdir = Path(tempfile.mkdtemp(prefix="nadine-tts-"))
        self._thread = threading.Thread(target=self._loop, name="control-speech", daemon=True)
        self._names = itertools.count()
        self.spoken = 0

    def start(self) -> None:
        self._thread.start()

    def say(self, request: Speak) -> None:
        if not request.text.strip():
            log.info("empty speak request ignored")
            return
        with self._lock:
            item = (self._generation, request)
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            log.warning("speech queue full (%d waiting): dropped a %d-word reply", self._queue.qsize(), _words(request))

    def stop_speaking(self) -> None:
        with self._lock:
            self._generation += 1
            self._interrupt.set()

    def close(self) -> None:
        self.stop_speaking()
        try:
            self._queue.put(None, timeout=1.0)
        except queue.Full:
            pass
        if self._thread.is_alive():
            self._thread.join(timeout=5.0)
        for leftover in self._workdir.glob("*"):
            leftover.unlink(missing_ok=True)
        self._workdir.rmdir()

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            generation, request = item
            with self._lock:
                if generation != self._generation:
                    continue  # queued before a stop_speak
                self._interrupt.clear()
            try:
                self._speak(request)
            except Exception:  # one bad utterance must not end speech for the rest of the run
                log.exception("speaking a %d-word reply failed", _words(request))

    def _speak(self, request: Speak) -> None:
        out = self._workdir / f"utt_{next(self._names)}.wav"
        try:
            utt = self.tts.synthesize(request.text, request.locale, out)
        except TtsError as exc:
            log.error("could not synthesize a %d-word reply: %s", _words(request), exc)
            return
        try:
            if self._interrupt.is_set():
                log.info("stop_speak arrived during synthesis: not spoken")
                return
            self.listener.speech_started()
            # what is said is the person's memory read back ("your locker code is 4471"): the log keeps
            # it only at debug level, so a forgotten person leaves none of it in the logs
            log.info("speaking (%s, %.2f s, %d words)", request.locale, utt.duration_s, _words(request))
            log.debug("spoken: %s", request.text)
            finished = self.player.play(utt, self._interrupt)
            self.spoken += 1
            if not finished:
                log.info("speech interrupted by stop_speak")
            self.listener.speech_ended()
        finally:
            out.unlink(missing_ok=True)


def _words(request: Speak) -> int:
    """What a log line may say of a reply: its length. Its words name people (the process logs hold
    no one's name; control never learns the pseudonyms that stand for them)."""
    return len(request.text.split())
