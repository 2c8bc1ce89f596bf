"""Model provenance: every weight file is the pinned release's (sha256), a changed copy refuses to load
and stops a process at start with one line naming the file and the package, and requirements-models.txt
pins each carrier package by version and wheel hash."""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from common.model_files import MODEL_FILES, MODELS, ModelFileMismatch, ModelFiles, ModelPackageMissing
from common.vision.base import BackendUnavailable
from perception.backends.emotion_fer import FerTfliteEmotion
from tests.support import PROJECT_ROOT, free_port

FER_FILE = next(iter(MODELS["fer_tflite"].files))


def _flipped_copy(root: Path, name: str, relative: str) -> Path:
    """The model file copied under root at its installed relative path, one byte flipped."""
    copy = root / relative
    copy.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(MODEL_FILES._locate(MODELS[name], relative), copy)
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0xFF
    copy.write_bytes(bytes(data))
    return copy


def test_every_installed_weight_file_is_the_published_one():
    for name in MODELS:
        files = MODEL_FILES.paths(name)  # raises on a missing package or a changed file
        assert all(p.is_file() for p in files.values()), name


def test_a_flipped_byte_refuses_with_one_line_naming_the_file_and_the_package(tmp_path):
    copy = _flipped_copy(tmp_path, "fer_tflite", FER_FILE)
    with pytest.raises(ModelFileMismatch) as caught:
        ModelFiles(root=tmp_path).path("fer_tflite")
    message = str(caught.value)
    assert "\n" not in message
    assert str(copy) in message and "package fer " in message and "--require-hashes" in message


def test_a_loader_refuses_a_changed_file_rather_than_degrading(tmp_path):
    _flipped_copy(tmp_path, "fer_tflite", FER_FILE)
    with pytest.raises(ModelFileMismatch):  # not BackendUnavailable: the process must not run without it
        FerTfliteEmotion(files=ModelFiles(root=tmp_path))
    assert not issubclass(ModelFileMismatch, BackendUnavailable)


def test_a_missing_package_is_an_unavailable_backend(tmp_path):
    with pytest.raises(ModelPackageMissing) as caught:
        FerTfliteEmotion(files=ModelFiles(root=tmp_path))
    assert isinstance(caught.value, BackendUnavailable)


def test_model_files_are_found_without_importing_the_carrier_packages():
    code = ("import sys; from common.model_files import MODEL_FILES, MODELS\n"
            "for name in MODELS: MODEL_FILES.paths(name)\n"
            "tops = {r.split('/')[0] for m in MODELS.values() for r in m.files}\n"
            "print(sorted(t for t in tops if t in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, PYTHONPATH=str(PROJECT_ROOT)))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_perception_refuses_to_start_on_a_changed_weight_file(tmp_path):
    """A copy of the installed fer distribution, its model file changed, ahead of site-packages on the
    path: importlib.metadata finds it first, as it would find a tampered install."""
    site = tmp_path / "site"
    dist = importlib.metadata.distribution("fer")
    info = Path(str(dist.locate_file(""))) / f"fer-{dist.version}.dist-info"
    shutil.copytree(info, site / info.name)
    copy = _flipped_copy(site, "fer_tflite", FER_FILE)
    env = dict(os.environ, PYTHONPATH=f"{site}{os.pathsep}{PROJECT_ROOT}", NADINE_DATA_DIR=str(tmp_path / "data"),
               NADINE_LOG_DIR=str(tmp_path / "logs"), NADINE_MQTT_PORT=str(free_port()),
               NADINE_CAMERA=str(tmp_path / "no-camera-here"), NADINE_LOG_CONSOLE="0")
    out = subprocess.run([sys.executable, "-m", "perception"], cwd=PROJECT_ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("perception: model file ")
    assert str(copy) in lines[0] and "package fer " in lines[0]


REQUIREMENT = re.compile(r"^(?P<req>[A-Za-z0-9._-]+==[A-Za-z0-9.]+) \\\n\s+--hash=sha256:(?P<hash>[0-9a-f]{64})$", re.M)


def test_requirements_models_pins_every_carrier_by_version_and_wheel_hash():
    text = (PROJECT_ROOT / "requirements-models.txt").read_text(encoding="utf-8")
    requirement_lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    pinned = {Requirement(m["req"]).name: m for m in REQUIREMENT.finditer(text)}
    assert len(requirement_lines) == 2 * len(pinned)  # nothing else: no unpinned or unhashed line
    carriers = {m.distribution for m in MODELS.values()}
    assert set(pinned) == carriers
    for name, match in pinned.items():  # the pinned release is the one installed (its files were checked above)
        assert str(Requirement(match["req"]).specifier) == f"=={importlib.metadata.version(name)}", name
