"""FER sampler (study logging): facial emotion of the tracked known user every interval_s, one
JSON line per sample, for aligning the facial signal with study turns offline. It only appends to its
log and never influences storage."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path

import numpy as np

from common.clock import Clock
from common.store.atomic import file_lock

log = logging.getLogger("nadine.perception.fer")


class FerSampler:
    def __init__(self, log_path: Path, interval_s: float, clock: Clock,
                 novelty: Callable[[str, np.ndarray], float | None] | None = None) -> None:
        self.log_path = log_path
        self.interval_s = interval_s
        self.clock = clock
        self.novelty = novelty  # (user_id, frame) -> novelty of the frame vs the user's scenes
        self._last: dict[str, float] = {}
        log.info("FER sampling every %.1f s to %s%s", interval_s, log_path, " with novelty" if novelty else "")

    def on_frame(self, user_id: str | None, probs: dict[str, float] | None, rgb: np.ndarray, now: float) -> dict | None:
        if user_id is None or not probs or now - self._last.get(user_id, -1e9) < self.interval_s:
            return None
        self._last[user_id] = now
        dominant = max(probs, key=probs.get)
        sample = {
            "timestamp": self.clock.now().isoformat(timespec="milliseconds"),
            "user_id": user_id,
            "dominant_emotion": dominant,
            "confidence": round(float(probs[dominant]), 4),
            "scores": {k: round(float(v), 4) for k, v in probs.items()},
        }
        if self.novelty is not None:
            n = self.novelty(user_id, rgb)
            if n is not None:
                sample["novelty"] = round(n, 4)
        try:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            with file_lock(self.log_path, outside=True), self.log_path.open("a", encoding="utf-8") as fh:  # vs. forget's rewrite
                fh.write(json.dumps(sample) + "\n")
        except OSError as exc:
            log.warning("FER sample not written to %s: %s", self.log_path, exc)
        return sample
