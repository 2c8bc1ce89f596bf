"""The word lists' reading of the user's emotion: what the offline understanding used before the fitted
intensity model (interaction/offline/emotion_intensity.py), kept as the baseline that the model is
reported against (scripts.eval.train_emotion_intensity, scripts.eval.worth_keeping).

Label from the emotion words (negated ones skipped), else from VADER's sign; intensity from VADER's
|compound| with a floor of 0.5 once one emotion word is found, raised by each further emotion word,
intensifiers before them and exclamation marks. None of its constants were fitted.
"""

from __future__ import annotations

import re

from interaction import cues
from interaction.offline.emotion_intensity import vader
from interaction.offline.understand_rules import EMOTION_PATTERNS, FELT_NOW, negated
from interaction.turn_understanding import Emotion

INTENSIFIERS = ("very", "so", "really", "extremely", "incredibly", "super", "totally", "absolutely", "truly",
                "deeply", "completely", "utterly", "terribly", "awfully", "such")
_INTENSIFIER_BEFORE = re.compile(r"\b(" + "|".join(INTENSIFIERS) + r")\W+(?:\w+\W+)?$", re.IGNORECASE)


def word_list_emotion(text: str) -> Emotion:
    compound = vader().polarity_scores(text)["compound"]
    hits: dict[str, float] = {}
    boosts = 0
    for label, pattern in EMOTION_PATTERNS.items():
        for found in pattern.finditer(text):
            before = text[: found.start()]
            if negated(before):
                continue
            hits[label] = hits.get(label, 0.0) + 1.0
            boosts += bool(_INTENSIFIER_BEFORE.search(before))
    exclaim = min(text.count("!"), 3) * 0.05
    if hits and cues.is_question(text) and not FELT_NOW.search(text):
        hits = {}
    if hits:
        label = max(hits, key=lambda k: hits[k])
        intensity = max(abs(compound), 0.5) + 0.15 * (hits[label] - 1) + 0.1 * boosts + exclaim
    elif cues.is_question(text):
        label, intensity = "neutral", abs(compound) * 0.3
    elif compound >= 0.35:
        label, intensity = "happy", abs(compound) * 0.8 + exclaim
    elif compound <= -0.35:
        label, intensity = "sad", abs(compound) * 0.8 + exclaim
    else:
        label, intensity = "neutral", abs(compound) * 0.3
    return Emotion(label=label, intensity=round(min(1.0, intensity), 3))
