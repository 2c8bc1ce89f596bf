"""The face gallery with the offline dlib backends on the shared photos: a lab's profile folder with
face images but no embeddings is usable (embeddings computed once and written back), the same person
in another photo is recognised with the reference's confidence, a different person is not."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from common.config import load_settings
from common.store import DataLayout, ProfileStore
from common.store.faces import FaceStore
from common.vision.image import read_rgb
from perception.backends import registry
from perception.identity import Recognizer
from perception.tracking import preferred

pytestmark = pytest.mark.shared_data


def test_legacy_faces_without_embeddings_are_recognised(shared_data: Path, tmp_path: Path):
    layout = DataLayout(tmp_path)
    settings = load_settings(environ={})
    for uid, photo in (("lab_0001", "df_g_01.jpg"), ("lab_0002", "fr_obama_01.jpg")):
        layout.faces_dir(uid).mkdir(parents=True)
        shutil.copy(shared_data / "faces" / photo, layout.faces_dir(uid) / "portrait.jpg")
    (layout.faces_dir("lab_0002") / "broken.jpg").write_bytes(b"not an image")
    ProfileStore(layout).set_name("lab_0001", "Gaby")
    detector = registry.build_face_detector(settings)
    rec = Recognizer(detector, registry.build_face_identifier(settings), FaceStore(layout), ProfileStore(layout),
                     registry.recognition_threshold(settings))
    rec.reload()
    assert sorted(rec.gallery.user_ids) == ["lab_0001", "lab_0002"]
    assert (layout.faces_dir("lab_0001") / "portrait.dlib.npy").exists()

    def who(photo: str):
        rgb = read_rgb(shared_data / "faces" / photo)
        return rec.identify(rgb, preferred(detector.detect(rgb)))

    same = who("df_g_03.jpg")
    assert (same.user_id, same.user_name) == ("lab_0001", "Gaby")
    assert same.confidence == pytest.approx((same.best_cos + 1) / 2 * 100) and same.confidence > 95
    assert who("fr_obama_02.jpg").user_id == "lab_0002"
    stranger = who("df_h_01.jpg")
    assert stranger.user_id is None and stranger.user_name is None
