"""How strongly, and which way, a sentence expresses feeling: the offline reading behind what is worth keeping.

Two ridge regressions over the sentence's MiniLM vector and VADER's five scores (standardised), fitted on
sentences that people rated from -4 (extremely negative) to +4 (extremely positive), split by writer
(scripts/eval/train_emotion_intensity.py fits and reports them):
- intensity: |mean rating| / 4. The raters judged tweets, opinion pieces and reviews, seldom a person
  telling their own news plainly ("I was laid off this morning"), so the dev conversation scripts' turns
  are rows too, one worth keeping as strongly felt, one not as not felt, and so are plain facts about
  oneself ("I work at Siemens", not felt); their weight is chosen on those turns read out of fold. Its
  raw output is calibrated by isotonic regression on the dev writers (0.7 means raters put such a
  sentence at 70 % of the way to the scale's extreme), then stretched
  piecewise linearly so that the storage decision point chosen on dev (the dev writers and the dev
  conversation scripts) lands on the storage threshold: `cut` maps to `threshold`, 0 to 0 and 1 to 1.
  Order is kept, so the ranking reported against the raters is the ranking used.
- valence: mean rating / 4, whose sign says whether the feeling is pleasant once it is at least
  `sign_margin` from 0 (chosen on dev: the sign is then right for 95 % of the sentences raters felt).
Inference is one embedding (shared with the other readers of the turn) and two dot products in numpy.
"""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from common.embedding.base import TextEmbedder
from common.vision.base import BackendUnavailable

log = logging.getLogger("nadine.interaction.emotion_intensity")

WEIGHTS = Path(__file__).parent / "data" / "emotion_intensity_weights.json"
RETRAIN = "run python -m scripts.eval.train_emotion_intensity --write"
VADER_SCORES = ("compound", "pos", "neg", "neu")  # and |compound|, the strength whichever its sign


@dataclass(frozen=True)
class Reading:
    intensity: float  # 0-1, on the storage threshold's scale
    rated: float  # 0-1, the calibrated intensity on the raters' scale (|rating| / 4)
    valence: float  # -1 (extremely negative) .. 1 (extremely positive)


@functools.cache
def vader() -> SentimentIntensityAnalyzer:
    return SentimentIntensityAnalyzer()


def vader_scores(texts: list[str]) -> np.ndarray:
    """(len(texts), 5) VADER's compound, positive, negative and neutral shares, and |compound|."""
    # one reading per text gives all four scores (VADER reads the whole text for each)
    scores = [[read[k] for k in VADER_SCORES] for read in map(vader().polarity_scores, texts)]
    return np.array([[*s, abs(s[0])] for s in scores], dtype=np.float32).reshape(len(texts), len(VADER_SCORES) + 1)


def features(embedder: TextEmbedder, texts: list[str]) -> np.ndarray:
    """The unstandardised features: the MiniLM vector followed by VADER's scores."""
    return np.hstack([embedder.embed(texts), vader_scores(texts)])


class StandardFeatures:
    """The features of texts, standardised by the mean and scale stored beside a model's weights;
    the weights must have been fitted on this embedder's vectors (else BackendUnavailable)."""

    def __init__(self, embedder: TextEmbedder, data: dict[str, Any], backend: str, retrain: str) -> None:
        if data["embedder"] != embedder.name:
            raise BackendUnavailable(backend, f"weights were trained on {data['embedder']}, not {embedder.name}",
                                     retrain)
        self._embedder = embedder
        self._mean = np.asarray(data["mean"], dtype=np.float64)
        self._scale = np.asarray(data["scale"], dtype=np.float64)

    def __call__(self, texts: list[str]) -> np.ndarray:
        return (features(self._embedder, texts).astype(np.float64) - self._mean) / self._scale


def stretch(calibrated: np.ndarray, cut: float, threshold: float) -> np.ndarray:
    """Piecewise linear through (0, 0), (cut, threshold), (1, 1)."""
    return np.interp(calibrated, [0.0, cut, 1.0], [0.0, threshold, 1.0])


class EmotionIntensityModel:
    """The model stored in `data` (the weights JSON): "embedder", "mean", "scale", "intensity" and
    "valence" ({"coef", "intercept"}), "calibration" ({"x", "y"}: the isotonic steps), "cut",
    "threshold" and "sign_margin"."""

    def __init__(self, embedder: TextEmbedder, data: dict[str, Any]) -> None:
        self._features = StandardFeatures(embedder, data, "emotion_intensity", RETRAIN)
        self._coef = np.asarray([data["intensity"]["coef"], data["valence"]["coef"]], dtype=np.float32)
        self._intercept = np.asarray([data["intensity"]["intercept"], data["valence"]["intercept"]], dtype=np.float32)
        self._calibration = (np.asarray(data["calibration"]["x"]), np.asarray(data["calibration"]["y"]))
        self._cut = float(data["cut"])
        self._threshold = float(data["threshold"])
        self.sign_margin = float(data.get("sign_margin", 0.0))

    def raw(self, texts: list[str]) -> np.ndarray:
        """(len(texts), 2): the regressions' uncalibrated intensity and valence."""
        return self._features(texts).astype(np.float32) @ self._coef.T + self._intercept

    def calibrated(self, raw_intensity: np.ndarray) -> np.ndarray:
        return np.interp(raw_intensity, *self._calibration)

    def read(self, texts: list[str]) -> list[Reading]:
        raw = self.raw(texts)
        rated = self.calibrated(raw[:, 0])
        intensity = stretch(rated, self._cut, self._threshold)
        return [Reading(round(float(i), 3), round(float(c), 3), round(float(np.clip(v, -1.0, 1.0)), 3))
                for i, c, v in zip(intensity, rated, raw[:, 1], strict=True)]


@functools.cache
def shipped_model() -> EmotionIntensityModel | None:
    """The shipped weights on the offline embedder, loaded once per process; None (one log line) when
    they cannot load: every turn then reads as neutral, so nothing is kept on a guess."""
    from common.embedding.registry import offline_text_embedder

    try:
        return EmotionIntensityModel(offline_text_embedder(), json.loads(WEIGHTS.read_text(encoding="utf-8")))
    except (BackendUnavailable, OSError, KeyError, ValueError) as exc:
        log.error("emotion-intensity model unavailable (%s); turns read as neutral", exc)
        return None
