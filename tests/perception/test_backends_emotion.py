"""fer mini-Xception (.tflite via ai-edge-litert) on shared/data/expressions: a smoke and regression
check of the wiring (crop, scaling, label order), not an accuracy claim."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from common.config import NadineSettings
from common.emotions import FACIAL_LABELS
from common.vision.image import read_rgb
from perception.backends.base import FaceBox
from perception.backends.emotion_map import to_emotion_labels
from perception.backends.registry import build_emotion, build_face_detector
from tests.perception.backend_photos import manifest_photos

pytestmark = pytest.mark.shared_data


@pytest.fixture(scope="module")
def scored(shared_data: Path):
    """(expression label, probabilities) per photo, with the HOG box as the face box."""
    settings = NadineSettings()
    detector, emotion = build_face_detector(settings), build_emotion(settings)
    out = []
    for row, rgb in manifest_photos(shared_data, "expressions"):
        (box,) = detector.detect(rgb)
        out.append((row["expression"], emotion.probabilities(rgb, box)))
    return out


def mean_prob(scored, expression: str, label: str) -> float:
    return float(np.mean([p[label] for e, p in scored if e == expression]))


def test_probabilities_are_a_distribution_over_the_eight_labels(scored):
    for _, probs in scored:
        assert tuple(probs) == FACIAL_LABELS
        assert all(0.0 <= v <= 1.0 for v in probs.values())
        assert abs(sum(probs.values()) - 1.0) < 1e-6
        assert probs["contempt"] == 0.0  # FER2013 has no contempt class


def test_happy_photos_score_happier_than_sad_ones(scored):
    assert mean_prob(scored, "happy", "happy") > 0.5
    assert mean_prob(scored, "happy", "happy") > mean_prob(scored, "sad", "happy") + 0.5
    assert mean_prob(scored, "sad", "sad") > mean_prob(scored, "happy", "sad")
    assert mean_prob(scored, "angry", "anger") > mean_prob(scored, "happy", "anger")
    hits = sum(max(p, key=p.get) == {"angry": "anger", "surprised": "surprise"}.get(e, e) for e, p in scored)
    assert hits >= 12, f"top-1 {hits}/20 (15/20 when this test was written)"


def test_face_box_at_the_frame_edge_is_padded_not_refused(shared_data: Path):
    rgb = read_rgb(shared_data / "expressions" / "happy_01.jpg")
    probs = build_emotion(NadineSettings()).probabilities(rgb, FaceBox(-40, -40, 120, 120))
    assert abs(sum(probs.values()) - 1) < 1e-6


@pytest.mark.parametrize("bad", [[1.0] * 6, [float("nan")] * 7])
def test_malformed_model_output_is_refused(bad):
    with pytest.raises(ValueError):
        to_emotion_labels(bad)


def test_none_backend():
    off = NadineSettings.model_validate({"perception": {"emotion": {"backend": "none"}}})
    assert build_emotion(off) is None
