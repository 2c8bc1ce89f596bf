"""One emotion vocabulary (common/emotions.py) for understanding, perception and the wire."""

from __future__ import annotations

import pytest

from common.emotions import EMOTION_LABELS, FACIAL_LABELS, canonical_label, coerce_label
from common.messages import EmotionSignal, PayloadError, UserInput
from interaction.turn_understanding import Emotion


def test_facial_labels_and_synonyms_read_into_the_appraisal_labels():
    assert [coerce_label(x) for x in ("fear", "Anger", " surprise ", "joy", "disgust", "sadness")] == [
        "fearful", "angry", "surprised", "happy", "disgusted", "sad"]
    assert coerce_label("contempt") == "neutral" and canonical_label("contempt") is None
    assert coerce_label(None) == "neutral" and canonical_label("bogus") is None
    assert {canonical_label(x) for x in FACIAL_LABELS} - {None} <= set(EMOTION_LABELS)


def test_the_understanding_and_the_wire_share_it():
    assert Emotion(label="fear").label == "fearful"
    assert Emotion(label="bogus").label == "neutral"  # model output: never fails a turn
    assert EmotionSignal(label="fear", intensity=0.5).label == "fearful"
    with pytest.raises(PayloadError, match="happy"):  # on the wire an unknown label is refused, naming the allowed
        UserInput.decode(b'{"text": "hi", "user_emotion": {"label": "bogus", "intensity": 0.5}}')


def test_pad_arousal_bases_are_unchanged_for_every_spelling():
    from common.messages import AffectState
    from perception.selective_memory.policies import arousal_verdict

    got = {}
    for label in ("anger", "angry", "fear", "joy", "disgust", "sadness", "goodbye", "neutral", "contempt", "bogus"):
        affect = AffectState(label=label, arousal=0.5, intensity=1.0)
        got[label] = round(arousal_verdict(affect, "robot", 0.5, has_scenes=True).memorability, 2)
    assert got == {"anger": 0.85, "angry": 0.85, "fear": 0.8, "joy": 0.6, "disgust": 0.55, "sadness": 0.4,
                   "goodbye": 0.3, "neutral": 0.1, "contempt": 0.1, "bogus": 0.1}
