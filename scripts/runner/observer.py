"""Records what the suite says on the bus (who is in view, turn results, storage decisions, scenes,
speech feedback),
in arrival order, so the player can wait for "the first X after this point" without races."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from common import topics as t
from common.bus import Bus

WATCHED = (t.USER_DETECTED, t.TURN_RESULT, t.STORAGE_DECISION, t.SCENE_STORED, t.START_SPEAK, t.END_SPEAK)


class Observer:
    def __init__(self, bus: Bus) -> None:
        self._events: list[tuple[t.TopicSpec, Any]] = []
        self._cond = threading.Condition()
        for spec in WATCHED:
            bus.subscribe(spec, lambda msg, s=spec: self._add(s, msg))

    def _add(self, spec: t.TopicSpec, msg: Any) -> None:
        with self._cond:
            self._events.append((spec, msg))
            self._cond.notify_all()

    def mark(self) -> int:
        with self._cond:
            return len(self._events)

    def since(self, spec: t.TopicSpec, mark: int) -> list[Any]:
        with self._cond:
            return [msg for s, msg in self._events[mark:] if s is spec]

    def wait_for(
        self, spec: t.TopicSpec, predicate: Callable[[Any], bool], mark: int, timeout: float,
        alive: Callable[[], None] | None = None,
    ) -> Any | None:
        """The first matching message at or after `mark`, or None after `timeout`. `alive()` is called
        about every second and may raise (a process died: no point waiting)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for s, msg in self._events[mark:]:
                    if s is spec and predicate(msg):
                        return msg
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._cond.wait(min(remaining, 1.0))
                if alive is not None:
                    alive()
