"""One instance per model and arguments per process, also when several threads ask at once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache, wraps
from typing import TypeVar

T = TypeVar("T")


def load_once(factory: Callable[..., T]) -> Callable[..., T]:
    """Cache the factory's result per argument tuple. Construction is serialised so that two threads
    starting up together load a model once; a factory that raises is retried on the next call."""
    cached = lru_cache(maxsize=None)(factory)
    lock = threading.Lock()

    @wraps(factory)
    def get(*args):
        with lock:
            return cached(*args)

    return get
