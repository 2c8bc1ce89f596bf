"""Whether what a person says carries a pleasant feeling, an unpleasant one or none: the offline reading
of which feeling a reply may name.

A multinomial logistic regression over the features of the intensity model (the sentence's MiniLM vector
and VADER's scores, standardised), fitted on the sentences people rated from -4 to +4 (negative: a
mean rating of -1 or lower, "slightly" on the raters' scale; positive: +1 or higher; none between) and
on plain facts about oneself (none), with its temperature fitted on the dev writers, so its probabilities
are calibrated (scripts/eval/train_feeling_polarity.py). A feeling is named only when its probability
reaches its line, chosen on the dev split of the reply-feeling judge (scripts/eval/named_feeling.py):
below both lines the reply names none and answers what was said instead.
"""

from __future__ import annotations

import functools
import json
import logging
from pathlib import Path
from typing import Any

import numpy as np

from common.embedding.base import TextEmbedder
from common.vision.base import BackendUnavailable
from interaction.offline.emotion_intensity import StandardFeatures

log = logging.getLogger("nadine.interaction.feeling_polarity")

WEIGHTS = Path(__file__).parent / "data" / "feeling_polarity_weights.json"
RETRAIN = "run python -m scripts.eval.train_feeling_polarity --write"
CLASSES = ("negative", "none", "positive")


class PolarityModel:
    """The model stored in `data`: "embedder", "mean", "scale", "coef" (3 x features), "intercept" (3),
    "temperature", "lines" ({"positive", "negative"}: the probability at which each is named), "felt" and
    "read" (the last three chosen on the judge's dev split)."""

    def __init__(self, embedder: TextEmbedder, data: dict[str, Any]) -> None:
        self._features = StandardFeatures(embedder, data, "feeling_polarity", RETRAIN)
        self._coef = np.asarray(data["coef"], dtype=np.float64)
        self._intercept = np.asarray(data["intercept"], dtype=np.float64)
        self._temperature = float(data["temperature"])
        self.lines = {k: float(v) for k, v in data["lines"].items()}
        self.felt = float(data["felt"])  # the least calibrated intensity (|rating| / 4) a named feeling needs
        self.read = str(data["read"])  # "part" or "turn": understand_rules.feeling_text

    def probabilities(self, texts: list[str]) -> np.ndarray:
        """(len(texts), 3): P(negative), P(none), P(positive)."""
        logits = (self._features(texts) @ self._coef.T + self._intercept) / self._temperature
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def named(self, p: np.ndarray) -> str:
        """"positive", "negative" or "none" for one row of probabilities: the likelier feeling once it
        reaches its line."""
        sign = "positive" if p[2] >= p[0] else "negative"
        return sign if p[CLASSES.index(sign)] >= self.lines[sign] else "none"


@functools.cache
def shipped_polarity() -> PolarityModel | None:
    """The shipped weights on the offline embedder, loaded once per process; None (one log line) when
    they cannot load: no feeling is then named."""
    from common.embedding.registry import offline_text_embedder

    try:
        return PolarityModel(offline_text_embedder(), json.loads(WEIGHTS.read_text(encoding="utf-8")))
    except (BackendUnavailable, OSError, KeyError, ValueError) as exc:
        log.error("feeling-polarity model unavailable (%s); no feeling is named", exc)
        return None
