"""The one thread that runs turns: bus handlers only enqueue, so a slow turn (a model call, a capture
round-trip through perception) never blocks the bus dispatcher that delivers its replies."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger("nadine.interaction.worker")


class Worker:
    def __init__(self, name: str = "interaction-turns") -> None:
        self._queue: queue.Queue[tuple[Callable[..., Any], tuple[Any, ...]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def submit(self, fn: Callable[..., Any], *args: Any) -> None:
        self._queue.put((fn, args))

    def stop(self, final: Callable[[], Any] | None = None, timeout: float = 30.0) -> None:
        """Finish what is queued, run `final` on the worker, then end the thread."""
        if final is not None:
            self.submit(final)
        self._queue.put(None)
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            fn, args = item
            try:
                fn(*args)
            except Exception:  # one bad event must not end the conversation loop
                log.exception("%s failed", getattr(fn, "__name__", fn))
