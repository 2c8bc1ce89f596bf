"""The lab backends have real loaders; in this offline environment (no insightface, deepface,
transformers) each one must refuse with BackendUnavailable naming the reason and the fix."""

from __future__ import annotations

import importlib.util
import sys
import types

import pytest

from common.config import NadineSettings
from common.vision.base import BackendUnavailable
from common.vision.registry import build_captioner, build_scene_encoder
from perception.backends.registry import build_emotion, build_face_detector, build_face_identifier


def settings(section: str, key: str, backend: str) -> NadineSettings:
    return NadineSettings.model_validate({"perception": {section: {key: backend}}})


LAB = [
    ("insightface", "insightface", lambda: build_face_detector(settings("faces", "backend", "insightface"))),
    (
        "insightface",
        "insightface",
        lambda: build_face_identifier(settings("faces", "backend", "insightface")),
    ),
    ("deepface", "deepface", lambda: build_emotion(settings("emotion", "backend", "deepface"))),
    # torch left the plain install with the lab extra: it is the first missing package CLIP and Moondream need
    ("clip", "torch", lambda: build_scene_encoder(settings("scene_encoder", "backend", "clip"))),
    ("moondream2", "torch", lambda: build_captioner(settings("captioner", "backend", "moondream2"))),
]


@pytest.mark.parametrize("backend,package,build", [
    pytest.param(*case, id=f"{case[0]}-{i}", marks=pytest.mark.skipif(
        importlib.util.find_spec(case[1]) is not None,
        reason=f"{case[1]} is installed here; this test covers machines without the lab extra"))
    for i, case in enumerate(LAB)
])
def test_lab_backend_reports_missing_package(backend, package, build):
    with pytest.raises(BackendUnavailable) as err:
        build()
    assert err.value.backend == backend
    assert package in err.value.reason and "not installed" in err.value.reason
    assert "pip install" in err.value.fix and "[lab]" in err.value.fix
    assert str(err.value).startswith(f"{backend} unavailable: ")


def stub_package(monkeypatch, name: str, **attrs) -> None:
    """Stand-in for a lab package that is absent here; it is outside the unit under test (our
    loaders' weight checks). Tests record calls to its model entry point, where the real packages
    would download, to prove the loader never got there."""
    module = types.ModuleType(name)
    for attr, value in attrs.items():
        setattr(module, attr, value)
    monkeypatch.setitem(sys.modules, name, module)


def test_missing_insightface_weights_are_never_downloaded(tmp_path, monkeypatch):
    from perception.backends.faces_insightface import InsightFaceModel

    calls: list = []
    stub_package(monkeypatch, "insightface")
    stub_package(monkeypatch, "insightface.app", FaceAnalysis=lambda *a, **k: calls.append((a, k)))
    with pytest.raises(BackendUnavailable, match="no buffalo_s .onnx weights") as err:
        InsightFaceModel(str(tmp_path))
    assert str(tmp_path / "models" / "buffalo_s") in err.value.fix
    assert calls == [] and not any(tmp_path.iterdir())


def test_missing_deepface_weights_are_never_downloaded(tmp_path, monkeypatch):
    from perception.backends.emotion_deepface import DeepFaceEmotion

    calls: list = []
    deepface_api = types.SimpleNamespace(analyze=lambda *a, **k: calls.append((a, k)))
    stub_package(monkeypatch, "deepface", DeepFace=deepface_api)
    monkeypatch.setenv("DEEPFACE_HOME", str(tmp_path))
    with pytest.raises(BackendUnavailable, match="facial_expression_model_weights.h5 are missing"):
        DeepFaceEmotion()
    assert calls == [] and not any(tmp_path.iterdir())
