"""The one message observer of the runner and the tests: records what the suite says on the bus, in
arrival order (with the arrival time), so a caller can wait for "the first X after this point" without
races. The runner watches several topics at once; tests' Recorder (tests/support.py) is a view of it
on one topic."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from common import topics as t
from common.bus import Bus

WATCHED = (t.USER_DETECTED, t.TURN_RESULT, t.STORAGE_DECISION, t.SCENE_STORED, t.START_SPEAK, t.END_SPEAK)


class Observer:
    def __init__(self, bus: Bus, specs: Iterable[t.TopicSpec] = WATCHED) -> None:
        self._events: list[tuple[t.TopicSpec, Any, float]] = []
        self._cond = threading.Condition()
        for spec in specs:
            bus.subscribe(spec, lambda msg, s=spec: self._add(s, msg))

    def _add(self, spec: t.TopicSpec, msg: Any) -> None:
        arrived = time.monotonic()
        with self._cond:
            self._events.append((spec, msg, arrived))
            self._cond.notify_all()

    def mark(self) -> int:
        with self._cond:
            return len(self._events)

    def since(self, spec: t.TopicSpec, mark: int) -> list[Any]:
        with self._cond:
            return [msg for s, msg, _ in self._events[mark:] if s is spec]

    def arrivals(self, spec: t.TopicSpec, mark: int) -> list[float]:
        """time.monotonic() at which each message of `spec` at or after `mark` arrived."""
        with self._cond:
            return [at for s, _, at in self._events[mark:] if s is spec]

    def wait_for(
        self, spec: t.TopicSpec, predicate: Callable[[Any], bool], mark: int, timeout: float,
        alive: Callable[[], None] | None = None,
    ) -> Any | None:
        """The first matching message at or after `mark`, or None after `timeout`. `alive()` is called
        about every second and may raise (a process died: no point waiting)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for s, msg, _ in self._events[mark:]:
                    if s is spec and predicate(msg):
                        return msg
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._cond.wait(min(remaining, 1.0))
                if alive is not None:
                    alive()
