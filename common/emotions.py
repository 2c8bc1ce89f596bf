"""The one emotion vocabulary: its labels and how any other label is read into it.

Two label sets meet in Nadine. The understanding step, the affect model, the wire (EmotionSignal in
common/messages.py, AffectState's labels) and the study logs use the understand step's seven appraisal
labels. The facial-emotion backends answer over the paper's eight facial labels (FER2013's), on
which perception's thresholds are keyed. coerce_label() reads any of them, or a synonym a model may
answer with, as an appraisal label; anything unknown is neutral.
"""

from __future__ import annotations

from typing import Literal, get_args

EmotionLabel = Literal["happy", "sad", "angry", "fearful", "disgusted", "surprised", "neutral"]
EMOTION_LABELS: tuple[EmotionLabel, ...] = get_args(EmotionLabel)

# the paper's facial-emotion labels; a label a model lacks gets probability 0
FACIAL_LABELS: tuple[str, ...] = ("neutral", "happy", "sad", "surprise", "fear", "disgust", "anger", "contempt")

# facial labels and synonyms that mean one of the appraisal labels (contempt has none: it stays unknown)
ALIASES: dict[str, EmotionLabel] = {
    "joy": "happy", "happiness": "happy", "excited": "happy", "sadness": "sad", "anger": "angry",
    "fear": "fearful", "afraid": "fearful", "disgust": "disgusted", "surprise": "surprised",
}


def canonical_label(label: object) -> EmotionLabel | None:
    """The appraisal label `label` means, or None when it means none of them."""
    text = str(label or "").strip().lower()
    text = ALIASES.get(text, text)
    return text if text in EMOTION_LABELS else None  # type: ignore[return-value]


def coerce_label(label: object) -> EmotionLabel:
    """For model output: an unknown label reads as neutral rather than failing the turn."""
    return canonical_label(label) or "neutral"
