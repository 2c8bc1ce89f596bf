"""dlib face detection + identity on the real photos in shared/data/faces."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from common.config import NadineSettings
from common.vision.image import read_rgb
from perception.backends.base import FaceBox
from perception.backends.registry import build_face_detector, build_face_identifier, recognition_threshold
from tests.perception.backend_photos import manifest_photos

pytestmark = pytest.mark.shared_data


@pytest.fixture(scope="module")
def faces(shared_data: Path):
    """Every manifest photo with its detections and one embedding per detection (computed once)."""
    settings = NadineSettings()
    detector, identifier = build_face_detector(settings), build_face_identifier(settings)
    rows = []
    for row, rgb in manifest_photos(shared_data, "faces"):
        row["boxes"] = detector.detect(rgb)
        row["embeddings"] = [identifier.embed(rgb, b) for b in row["boxes"]]
        rows.append(row)
    return rows


@pytest.fixture(scope="module")
def threshold() -> float:
    return recognition_threshold(NadineSettings())


def test_detection_count_matches_manifest(faces):
    wrong = [
        (r["file"], len(r["boxes"]), r["faces_in_image"])
        for r in faces
        if len(r["boxes"]) != int(r["faces_in_image"])
    ]
    assert not wrong
    assert sum(r["identity"] == "none" for r in faces) == 3  # the no-face photos are in the run, with 0 faces


def test_embeddings_are_unit_128d(faces):
    for emb in (e for r in faces for e in r["embeddings"]):
        assert emb.shape == (128,) and emb.dtype == np.float32
        assert abs(float(np.linalg.norm(emb)) - 1.0) < 1e-5


def test_same_identity_above_and_different_below_threshold(faces, threshold):
    singles = [(r["identity"], r["file"], r["embeddings"][0]) for r in faces if r["faces_in_image"] == "1"]
    same, diff = [], []
    for (ia, fa, ea), (ib, fb, eb) in itertools.combinations(singles, 2):
        (same if ia == ib else diff).append((float(ea @ eb), fa, fb))
    assert len(same) == 93 and len(diff) == 1447
    assert min(same)[0] > threshold, min(same)
    assert max(diff)[0] < threshold, max(diff)


def test_multi_face_photos_recognise_the_labelled_people(faces, threshold):
    gallery = [(r["identity"], r["embeddings"][0]) for r in faces if r["faces_in_image"] == "1"]
    for row in (r for r in faces if r["file"].startswith("multi_")):
        recognised = set()
        for emb in row["embeddings"]:
            sim, who = max((float(emb @ g), ident) for ident, g in gallery)
            if sim > threshold:
                recognised.add(who)
        assert recognised == set(row["identity"].split(";")) - {"unknown"}, row["file"]


def test_identity_is_mirror_stable(faces, shared_data):
    identifier = build_face_identifier(NadineSettings())
    detector = build_face_detector(NadineSettings())
    rgb = read_rgb(shared_data / "faces" / "fr_obama_01.jpg")
    mirrored = np.ascontiguousarray(rgb[:, ::-1])
    (box,) = detector.detect(mirrored)
    original = next(r for r in faces if r["file"] == "fr_obama_01.jpg")["embeddings"][0]
    assert float(identifier.embed(mirrored, box) @ original) > recognition_threshold(NadineSettings())


def test_models_load_once():
    settings = NadineSettings()
    assert build_face_detector(settings) is build_face_detector(settings)
    assert build_face_identifier(settings) is build_face_identifier(settings)


@pytest.mark.parametrize(
    "bad", [np.zeros((10, 10), np.uint8), np.zeros((10, 10, 3), np.float32), "frame.jpg"]
)
def test_bad_frames_are_refused_clearly(bad):
    with pytest.raises(ValueError, match="expected"):
        build_face_detector(NadineSettings()).detect(bad)


def test_empty_box_is_refused():
    with pytest.raises(ValueError, match="empty face box"):
        build_face_identifier(NadineSettings()).embed(
            np.zeros((50, 50, 3), np.uint8), FaceBox(10, 10, 10, 30)
        )


def test_corrupt_or_missing_image_file(tmp_path):
    corrupt = tmp_path / "broken.jpg"
    corrupt.write_bytes(b"\xff\xd8\xff not really a jpeg")
    for path in (corrupt, tmp_path / "missing.jpg", tmp_path):
        with pytest.raises(ValueError, match="cannot read an image"):
            read_rgb(path)
