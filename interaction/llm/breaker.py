"""A circuit breaker per endpoint: closed -> open after consecutive failures or timeouts -> one probe
after the cool-down -> closed again on success.

Hand-written rather than pybreaker: pybreaker runs every call under one lock (a hung call would
block the vision agent's call to the same endpoint) and counts all failures alike, while a timeout
here costs a whole turn budget and should open the circuit sooner than a quick refusal."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from common.config.interaction_settings import CircuitBreakerSettings

log = logging.getLogger("nadine.interaction.llm")


class CircuitBreaker:
    def __init__(self, name: str, settings: CircuitBreakerSettings,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.settings = settings
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._timeouts = 0
        self._opened_at: float | None = None
        self._probing = False

    @property
    def is_open(self) -> bool:
        return self._opened_at is not None

    def allow(self) -> bool:
        """True when a call may go out: closed, or open with the cool-down over and no probe in flight."""
        with self._lock:
            if self._opened_at is None:
                return True
            if self._probing or self._clock() - self._opened_at < self.settings.cooldown_s:
                return False
            self._probing = True
            return True

    def release(self) -> None:
        """An allowed call was not made after all: a probe slot goes back."""
        with self._lock:
            self._probing = False

    def success(self) -> None:
        with self._lock:
            if self._opened_at is not None:
                log.info("LLM endpoint %s answers again; circuit closed", self.name)
            self._failures = self._timeouts = 0
            self._opened_at, self._probing = None, False

    def failure(self, timeout: bool) -> None:
        with self._lock:
            self._failures += 1
            self._timeouts = self._timeouts + 1 if timeout else 0
            if self._opened_at is not None:  # the probe failed: stay open for another cool-down
                self._opened_at, self._probing = self._clock(), False
                return
            s = self.settings
            if self._failures >= s.failures_to_open or self._timeouts >= s.timeouts_to_open:
                self._opened_at = self._clock()
                why = f"{self._timeouts} timeout(s)" if self._timeouts >= s.timeouts_to_open else \
                    f"{self._failures} consecutive failures"
                # an error: the terminal that started the suite hears it once (common.logs)
                log.error("LLM endpoint %s does not answer (%s): circuit open, replies are offline; next try in %.0f s",
                          self.name, why, s.cooldown_s)
