"""The clock every process uses for timestamps.

Wall time plus an offset that a conversation script can move forward (`gap_hours`), shared through
<data>/runtime/clock.json so perception, interaction and control agree on "now".
"""

from __future__ import annotations

import threading
import time
from datetime import date, datetime, timedelta
from pathlib import Path

from common.store.atomic import atomic_write_json, read_json

_CHECK_EVERY_S = 0.2


class Clock:
    def __init__(self, runtime_dir: Path | None) -> None:
        self._file = runtime_dir / "clock.json" if runtime_dir else None
        self._offset_s = 0.0
        self._checked = 0.0
        self._mtime = -1.0
        self._lock = threading.Lock()

    def _refresh(self) -> None:
        if self._file is None:
            return
        mono = time.monotonic()
        if mono - self._checked < _CHECK_EVERY_S:
            return
        self._checked = mono
        try:
            mtime = self._file.stat().st_mtime
        except FileNotFoundError:
            self._offset_s = 0.0
            return
        if mtime != self._mtime:
            data = read_json(self._file, default={}) or {}
            offset = data.get("offset_s", 0.0) if isinstance(data, dict) else 0.0
            self._offset_s = float(offset) if isinstance(offset, int | float) else 0.0
            self._mtime = mtime

    def now(self) -> datetime:
        with self._lock:
            self._refresh()
            return datetime.now() + timedelta(seconds=self._offset_s)

    def advance(self, hours: float) -> None:
        """Move the shared clock forward (conversation-script gap_hours)."""
        if self._file is None:
            raise RuntimeError("this clock has no shared runtime folder")
        with self._lock:
            data = read_json(self._file, default={}) or {}
            offset = float(data.get("offset_s", 0.0)) + hours * 3600.0
            atomic_write_json(self._file, {"offset_s": offset})
            self._checked = 0.0


# The day people speak of turns over while they sleep, not at midnight: what was told at half past
# midnight is "last night", and "yesterday" by the next evening (the playthrough's second session, 22
# hours on, found nothing "yesterday" when the first had been just after midnight).
DAY_TURNS = timedelta(hours=4)


def spoken_day(when: datetime) -> date:
    """The day `when` belongs to as people speak of it ("today", "yesterday")."""
    return (when - DAY_TURNS).date()

