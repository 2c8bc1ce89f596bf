"""MobileNetV2 scene encoder and the tag captioner on real photos (shared/data/faces)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from common.config import NadineSettings
from common.vision.base import CaptionFacts
from common.vision.cache import load_once
from common.vision.image import read_rgb
from common.vision.mobilenet import imagenet_labels
from common.vision.registry import build_captioner, build_scene_encoder

pytestmark = pytest.mark.shared_data


@pytest.fixture(scope="module")
def encoder():
    return build_scene_encoder(NadineSettings())


@pytest.fixture(scope="module")
def photo(shared_data: Path):
    def load(name: str) -> np.ndarray:
        return read_rgb(shared_data / "faces" / name)

    return load


def test_labels_name_every_class_of_the_classifier():
    # the layout and the weights themselves: tests/perception/test_mobilenet_onnx.py
    assert len(imagenet_labels()) == 1000


def test_embedding_is_unit_1280d_and_image_only(encoder, photo):
    emb = encoder.embed_image(photo("noface_cat.png"))
    assert emb.shape == (1280,) and emb.dtype == np.float32
    assert abs(float(np.linalg.norm(emb)) - 1) < 1e-5
    assert encoder.can_embed_text is False and encoder.dim == 1280
    with pytest.raises(NotImplementedError):
        encoder.embed_text("a cat")


@pytest.mark.parametrize("name", ["noface_cat.png", "noface_rocket.jpg", "fr_obama_01.jpg"])
def test_mirror_is_close_and_unrelated_scene_is_not(encoder, photo, name):
    rgb = photo(name)
    emb = encoder.embed_image(rgb)
    mirror = float(emb @ encoder.embed_image(np.ascontiguousarray(rgb[:, ::-1])))
    unrelated = float(emb @ encoder.embed_image(photo("noface_coffee.png")))
    assert mirror > 0.9
    assert unrelated < mirror - 0.3


def test_top_labels_name_what_is_in_the_picture(encoder, photo):
    labels = encoder.top_labels(photo("noface_cat.png"), 3)
    assert len(labels) == 3 and labels[0][1] >= labels[1][1] >= labels[2][1]
    assert {"tabby", "tiger cat", "Egyptian cat"} & {name for name, _ in labels}
    assert encoder.top_labels(photo("noface_coffee.png"), 1)[0][0] in {"espresso", "cup", "coffee mug"}


def test_tag_caption_states_face_facts_and_scene_tags(encoder, photo):
    captioner = build_captioner(NadineSettings(), encoder)
    cap = captioner.caption(
        photo("fr_obama_01.jpg"), CaptionFacts(faces=1, user_name="Maya", emotion="happy")
    )
    assert cap.source == "tags"
    assert cap.text.startswith("A photo with a person (Maya, looking happy); the scene suggests: ")
    group = captioner.caption(photo("multi_obama_biden_unknown.jpg"), CaptionFacts(faces=3))
    assert group.text.startswith("A photo with 3 people")
    empty = captioner.caption(photo("noface_coffee.png"), CaptionFacts(faces=0))
    assert (
        empty.text.startswith("A photo with no one in view; the scene suggests: ")
        and "espresso" in empty.text
    )
    # with no facts at all the caption claims nothing about people
    assert captioner.caption(photo("noface_coffee.png")).text.startswith("A photo; the scene suggests")


def test_models_load_once_and_none_backends(encoder):
    settings = NadineSettings()
    assert build_scene_encoder(settings) is encoder
    assert build_captioner(settings)._labeller is encoder  # the tag captioner reuses the one MobileNetV2
    off = NadineSettings.model_validate(
        {"perception": {"scene_encoder": {"backend": "none"}, "captioner": {"backend": "none"}}}
    )
    assert build_scene_encoder(off) is None and build_captioner(off) is None


@pytest.mark.parametrize("bad", [np.zeros((4, 4), np.uint8), np.zeros((4, 4, 3), np.int16)])
def test_bad_frames_are_refused_clearly(encoder, bad):
    with pytest.raises(ValueError, match="expected"):
        encoder.embed_image(bad)


def test_tiny_frame_still_embeds(encoder):
    assert encoder.embed_image(np.full((8, 5, 3), 128, np.uint8)).shape == (1280,)


def test_concurrent_first_requests_load_a_model_once():
    built = []

    def slow_model(*args):
        time.sleep(0.05)
        built.append(args)
        return object()

    get = load_once(slow_model)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: get("same"), range(4)))
    assert built == [("same",)] and all(r is results[0] for r in results)
