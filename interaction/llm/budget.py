"""Time budgets: a turn's model calls share one deadline per phase (understanding, response, episode)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping


class Deadline:
    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.seconds = seconds
        self.ends_at = clock() + seconds

    def remaining(self) -> float:
        return max(0.0, self.ends_at - self._clock())


class TurnBudget:
    """One Deadline per phase, started by the phase's first model call and forgotten at the next turn."""

    def __init__(self, seconds: Mapping[str, float]) -> None:
        self.seconds = dict(seconds)
        self._deadlines: dict[str, Deadline] = {}

    def reset(self) -> None:
        self._deadlines.clear()

    def deadline(self, phase: str) -> Deadline:
        if phase not in self._deadlines:
            self._deadlines[phase] = Deadline(self.seconds[phase])
        return self._deadlines[phase]
