"""Storage policies against hand-computed values of the paper's equations (seed 003 §3.2, eq. 1-4)
and the reference's intensity / pad_arousal tables (§3.4)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from common.config.perception_settings import SelectiveMemorySettings
from common.messages import AffectState
from perception.selective_memory.policies import (
    affect_signal,
    arousal_verdict,
    boost_happy,
    emotional_salience,
    intensity_verdict,
    novelty,
    salience,
    vision_verdict,
)

CFG = SelectiveMemorySettings(happy_boost_factor=1.0)  # boost tested on its own below
THRESHOLDS = CFG.emotion_thresholds
STORED = [np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])]


def probs(**kw: float) -> dict[str, float]:
    base = dict.fromkeys(("neutral", "happy", "sad", "surprise", "fear", "disgust", "anger", "contempt"), 0.0)
    base.update(kw)
    return base


def test_eq1_salience():
    assert salience(0.8, 0.5) == pytest.approx(0.6)
    assert salience(0.4, 0.5) == 0.0
    assert salience(0.75, 0.7) == pytest.approx(0.05 / 0.3)
    assert salience(1.0, 1.0) == 0.0  # neutral's threshold 1.0 can never fire


def test_eq2_max_over_active_emotions_even_when_not_dominant():
    # neutral dominates, but fear exceeds its own threshold: still salient (paper: non-dominant counts)
    e, label = emotional_salience(probs(neutral=0.95, fear=0.9), THRESHOLDS)
    assert label == "fear" and e == pytest.approx((0.9 - 0.8) / 0.2)
    e, label = emotional_salience(probs(happy=0.8, sad=0.75), THRESHOLDS)
    assert label == "happy" and e == pytest.approx(0.6)
    assert emotional_salience(probs(neutral=1.0), THRESHOLDS) == (0.0, "neutral")


def test_eq3_novelty_is_min_cosine_distance():
    current = np.array([1.0, 1.0, 0.0])
    assert novelty(current, STORED) == pytest.approx(1 - 1 / math.sqrt(2))
    assert novelty(np.array([0.0, 0.0, 1.0]), STORED) == pytest.approx(1.0)
    assert novelty(current, []) is None
    assert novelty(current, [np.ones(5)]) is None  # another encoder's vectors are not comparable


@pytest.mark.parametrize(
    ("p", "embedding", "expected"),
    [
        (probs(happy=0.8), [1.0, 1.0, 0.0], True),  # e > 0, not novel
        (probs(neutral=0.9, happy=0.1), [0.0, 0.0, 1.0], True),  # e = 0, n = 1 > T_n
        (probs(neutral=0.9, happy=0.1), [1.0, 1.0, 0.0], False),  # e = 0, n = 0.29 <= 0.45
        (probs(neutral=0.5, sad=0.69), [1.0, 0.2, 0.0], False),  # just under sad's 0.7
    ],
)
def test_eq4_paper_rule(p, embedding, expected):
    v = vision_verdict(p, np.array(embedding), STORED, CFG, has_scenes=True)
    e, _ = emotional_salience(p, THRESHOLDS)
    n = novelty(np.array(embedding), STORED)
    assert v.store is (e > 0 or n > CFG.novelty_threshold) is expected
    n_sal = min(1.0, max(0.0, (n - 0.45) / 0.55))
    assert v.memorability == pytest.approx(0.8 * e + 0.2 * n_sal)
    assert v.metadata["emotion_salience"] == pytest.approx(e)
    assert v.metadata["novelty_salience"] == pytest.approx(n_sal)


def test_first_scene_is_always_stored():
    v = vision_verdict(probs(neutral=1.0), np.array([1.0, 0.0, 0.0]), [], CFG, has_scenes=False)
    assert v.store and "first scene" in v.reason


def test_weighted_rule_uses_memorability_threshold():
    cfg = SelectiveMemorySettings(happy_boost_factor=1.0, vision_rule="weighted")
    # e = 0.2 (happy 0.6) -> memorability 0.16 < 0.4: the paper's rule would store, the weighted one not
    v = vision_verdict(probs(happy=0.6), np.array([1.0, 1.0, 0.0]), STORED, cfg, has_scenes=True)
    assert not v.store and v.memorability == pytest.approx(0.16) and v.threshold == 0.4
    v = vision_verdict(probs(happy=1.0), np.array([0.0, 0.0, 1.0]), STORED, cfg, has_scenes=True)
    assert v.store and v.memorability == pytest.approx(0.8 + 0.2)


def test_happy_boost_renormalises_the_rest():
    out = boost_happy({"happy": 0.5, "sad": 0.3, "neutral": 0.2}, 1.2)
    assert out["happy"] == pytest.approx(0.6)
    assert out["sad"] == pytest.approx(0.3 * 0.4 / 0.5) and out["neutral"] == pytest.approx(0.2 * 0.4 / 0.5)
    assert sum(out.values()) == pytest.approx(1.0)
    assert boost_happy({"happy": 0.9, "sad": 0.1}, 2.0)["happy"] == pytest.approx(1.0)


def affect(**kw) -> AffectState:
    base = {"label": "joy", "arousal": 0.5, "intensity": 0.2}
    base.update(kw)
    return AffectState(**base)


def test_intensity_policy_user_and_robot_sources():
    a = affect(user_label="happy", user_intensity=0.9)
    assert intensity_verdict(a, "user", 0.5).store
    assert intensity_verdict(a, "user", 0.5).memorability == 0.9
    assert not intensity_verdict(a, "robot", 0.5).store  # Nadine's own 0.2
    v = intensity_verdict(affect(user_label="sad", user_intensity=0.49), "user", 0.5)
    assert not v.store and v.reason.startswith("below threshold")
    assert affect_signal(affect(), "user").source == "robot"  # an [L] client sends no user fields


def test_pad_arousal_table():
    v = arousal_verdict(affect(label="anger", intensity=0.5), "robot", 0.25, has_scenes=True)
    assert v.store and v.memorability == pytest.approx(0.425)
    v = arousal_verdict(affect(label="neutral", intensity=0.9), "robot", 0.25, has_scenes=True)
    assert not v.store and v.memorability == pytest.approx(0.09)
    v = arousal_verdict(affect(label="whatever", intensity=1.0), "robot", 0.25, has_scenes=True)
    assert v.memorability == pytest.approx(0.10)
    assert arousal_verdict(affect(label="neutral", intensity=0.1), "robot", 0.25, has_scenes=False).store


def test_an_intensity_just_below_the_threshold_never_reads_as_the_threshold():
    from common.messages import AffectState

    verdict = intensity_verdict(AffectState(label="happy", arousal=0.0, intensity=0.0, user_label="happy",
                                            user_intensity=0.4996), "user", 0.5)
    assert not verdict.store and "0.4996 (happy) < threshold 0.5000" in verdict.reason, verdict.reason
